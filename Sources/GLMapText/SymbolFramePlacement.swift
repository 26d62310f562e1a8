// SymbolFramePlacement — contract
// Input: a frame's symbol layers in style order, each with its frame-zoom values and the layouts
// of the tiles it shows (`SymbolTileLayout`, each at a tile with its world copy), the view, the
// pixel ratio and `crossSourceCollisions`. Output, per layer: what GL JS draws after one full
// placement with `fadeDuration: 0` — per tile and kind (text, icons) the quads' per-frame vertex
// values (label-plane position, angle, opacity 0 or 1), the quads to draw in order (viewport-y
// sorted where GL JS sorts, split by sort key where it sorts across tiles), the draw's uniforms
// (matrices, size, flags), and the layer's draw order of those pieces.
// Placement (GL JS's `Placement` driven by `PauseablePlacement` with everything loaded): cross-tile
// ids per layer, one collision index for the viewport + 100 px, layers placed top-down, a layer's
// tiles deeper zooms first then by `isLessThan`, parts sorted by sort key when it varies, each
// symbol instance placed once per id: text box (variable anchors tried in order, then with
// overlap), vertical writing modes, collision circles for line labels, icon box, text/icon
// optional rules, `*-allow-overlap`/`*-overlap`, `*-ignore-placement`, collision groups by source.
// Then GL JS's opacity update: duplicates hidden, orientations, justifications in use.
// Drawing values: GL JS's `updateLineLabels` (glyphs along the projected line, keep-upright
// flips, vertical switch), `updateVariableAnchors` (shifted anchors, icons following fitted text)
// or the anchor itself; the tile order is GL JS's symbol draw order (deeper zooms last, then
// north to south, west to east in the rotated frame).
import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Which program draws a kind of symbol.
public enum SymbolProgramKind: Sendable {
    /// Glyphs (SDF).
    case text
    /// Glyphs and images in text.
    case textAndIcon
    /// SDF icons.
    case iconSDF
    /// Raster icons.
    case icon
}

/// The uniforms one tile's text or icons are drawn with (GL JS's symbol program uniforms).
public struct SymbolDrawUniforms: Sendable {
    /// The program.
    public var program: SymbolProgramKind
    /// Whether this is text (`u_is_text`).
    public var isText: Bool
    /// Whether the texture is a distance field.
    public var isSDF: Bool
    /// Whether a halo pass is drawn first.
    public var hasHalo: Bool
    /// `u_pitch_with_map`.
    public var pitchWithMap: Bool
    /// `u_is_along_line`.
    public var alongLine: Bool
    /// `u_is_variable_anchor`.
    public var variableAnchor: Bool
    /// `u_rotate_symbol`.
    public var rotateSymbol: Bool
    /// `u_is_size_zoom_constant`.
    public var sizeZoomConstant: Bool
    /// `u_is_size_feature_constant`.
    public var sizeFeatureConstant: Bool
    /// `u_size_t`.
    public var sizeT: Double
    /// `u_size`.
    public var size: Double
    /// Tile units → clip space (no clip fold).
    public var posMatrix: Matrix4
    /// `u_label_plane_matrix`.
    public var labelPlaneMatrix: Matrix4
    /// `u_coord_matrix`.
    public var coordMatrix: Matrix4
    /// `u_translation`, tile units.
    public var translation: (x: Double, y: Double)
    /// `u_gamma_scale`.
    public var gammaScale: Double
    /// `u_texsize`: the atlas size.
    public var texSize: (w: Double, h: Double)
    /// `u_texsize_icon` (text with images).
    public var texSizeIcon: (w: Double, h: Double)
    /// Linear (true) or nearest sampling of the atlas.
    public var linear: Bool
    /// Linear or nearest sampling of the icon atlas (text with images).
    public var linearIcon: Bool
    /// `u_aspect_ratio`.
    public var aspectRatio: Double
    /// `u_camera_to_center_distance`.
    public var cameraToCenterDistance: Double
    /// `u_device_pixel_ratio`.
    public var devicePixelRatio: Double
}

/// One tile's text or icons for one frame.
public struct SymbolKindFrame: Sendable {
    /// Per quad, per vertex (4): label-plane x, y, angle and opacity (16 floats per quad, the
    /// layout's quad order).
    public var dynamic: [Float]
    /// The quads to draw, per segment (sort key nil when the layer does not sort across tiles).
    public var segments: [(sortKey: Double?, quads: [UInt32])]
    /// The draw's uniforms.
    public var uniforms: SymbolDrawUniforms
}

/// One tile of a symbol layer for one frame.
public struct SymbolTileFrame: Sendable {
    /// The tile, world copy included.
    public var tile: OverscaledTileID
    /// Index of its layout in the layer's input.
    public var input: Int
    /// Text (nil: nothing to draw).
    public var text: SymbolKindFrame?
    /// Icons (nil: nothing to draw).
    public var icon: SymbolKindFrame?
}

/// One draw of a layer: a tile's segment.
public struct SymbolDrawItem: Sendable {
    /// Index into `SymbolLayerFrame.tiles`.
    public var tile: Int
    /// Index into that tile's kind's segments.
    public var segment: Int
}

/// One symbol layer of a frame: its tiles and the order their pieces are drawn in (icons, then
/// text; each text piece draws its halo then its fill).
public struct SymbolLayerFrame: Sendable {
    /// Tiles in GL JS's symbol draw order.
    public var tiles: [SymbolTileFrame] = []
    /// Icon draws in order.
    public var iconItems: [SymbolDrawItem] = []
    /// Text draws in order.
    public var textItems: [SymbolDrawItem] = []
    /// The collision debug overlay drawn after the layer (nil when not asked for).
    public var debug: SymbolCollisionDebug?
}

/// One collision box of the debug overlay, a closed loop of four lines.
public struct SymbolDebugBox: Sendable {
    /// Corners in screen CSS px: (x1, y1), (x2, y1), (x2, y2), (x1, y2) of the box placement put
    /// on the screen, shifted by half a pixel as GL JS's `collision_box` shader does.
    public var corners: [LabelPoint]
    /// Premultiplied RGBA: placed blue, collided red, unused boxes at a tenth.
    public var color: (r: Double, g: Double, b: Double, a: Double)
}

/// One collision circle of a line label in the debug overlay.
public struct SymbolDebugCircle: Sendable {
    /// Centre in screen CSS px.
    public var center: LabelPoint
    /// Radius in CSS px.
    public var radius: Double
    /// Whether the circle collided (red) or not (blue).
    public var collided: Bool
    /// GL JS's collision perspective ratio at the centre (1 unpitched): far circles fade
    /// (alpha × min(ratio, 1)), near ones get a wider ring (0.9 px × max(ratio, 1)).
    public var perspectiveRatio: Double = 1
}

/// GL JS's collision debug overlay of one symbol layer (`drawCollisionDebug`): the text boxes of
/// every tile, the line labels' circles, then the icon boxes.
public struct SymbolCollisionDebug: Sendable {
    /// Text boxes (horizontal and vertical), tiles in draw order.
    public var textBoxes: [SymbolDebugBox] = []
    /// Collision circles of line labels.
    public var circles: [SymbolDebugCircle] = []
    /// Icon boxes.
    public var iconBoxes: [SymbolDebugBox] = []
}

/// One symbol layer's input to a frame's placement.
public struct SymbolLayerInput: Sendable {
    /// The style layer.
    public var layer: Layer
    /// Its values at the frame zoom.
    public var values: SymbolLayerValues
    /// Its tiles' layouts (tiles with their world copies).
    public var tiles: [(tile: OverscaledTileID, layout: SymbolTileLayout)]
    /// An earlier input whose placement this layer shares (GL JS draws layers grouped by layout
    /// from one bucket placed by the first of them); its tiles must be the same, in the same order.
    public var leader: Int?

    /// An input.
    public init(layer: Layer, values: SymbolLayerValues, tiles: [(tile: OverscaledTileID, layout: SymbolTileLayout)], leader: Int? = nil) {
        (self.layer, self.values, self.tiles, self.leader) = (layer, values, tiles, leader)
    }
}

/// Places a frame's symbols (see the contract above).
public enum SymbolFramePlacement {
    /// Places `layers` (style order) for a view; one frame per layer, same order. With
    /// `collisionDebug` each frame also carries its collision boxes and circles (`debug`).
    public static func place(_ layers: [SymbolLayerInput], view: ViewTransform, ratio: Double,
                             crossSourceCollisions: Bool, collisionDebug: Bool = false) -> [SymbolLayerFrame] {
        var p = Placer(view: SymbolView(view), ratio: ratio, crossSourceCollisions: crossSourceCollisions,
                       collisionDebug: collisionDebug, layers: layers)
        p.run()
        return p.frames()
    }
}
