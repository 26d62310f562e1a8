/// GLSL ES 3.00 sources of glmap's programs, embedded into the binary at build time
/// (`.embedInCode`), so the `glmap` executable can be copied anywhere.
public enum ShaderSource {
    /// A program's vertex and fragment source.
    public struct Program: Sendable {
        /// The program's name (`fill_outline`), as `GPUBinding.programs` lists it.
        public let name: String
        /// The GLSL ES 3.00 vertex shader.
        public let vertex: String
        /// The GLSL ES 3.00 fragment shader.
        public let fragment: String

        /// The paint inputs the vertex shader declares (`#pragma glmap: define <type> <name>`), in
        /// order: the one declaration of which style property reaches this program as a uniform or
        /// attribute (`GPUBinding` in GLMapStyle derives the property from the program and input
        /// names). Lines that do not read as a define are left out here; the GL backend's pragma
        /// expansion reports them.
        public var paintInputs: [PaintInput] { ShaderSource.paintInputs(vertex) }
    }

    /// A paint input a shader declares: `#pragma glmap: define vec4 stroke_color`.
    public struct PaintInput: Equatable, Sendable {
        /// The GLSL type (`float`, `vec2`, `vec3`, `vec4`).
        public let type: String
        /// The input's name (`stroke_color`): `a_<name>` as an attribute, `u_<name>` as a uniform.
        public let name: String

        /// Float components of the type (1 for `float`, 4 for `vec4`).
        public var components: Int {
            switch type {
            case "vec2": return 2
            case "vec3": return 3
            case "vec4": return 4
            default: return 1
            }
        }
    }

    /// Every program, background first.
    public static let all: [Program] = [background, fill, fillOutline, line, circle, clippingMask, fillExtrusion, fillExtrusionPattern,
                                        heatmap, heatmapTexture, fillPattern, fillOutlinePattern, backgroundPattern,
                                        raster, hillshadePrepare, hillshade, colorRelief,
                                        symbolText, symbolIconSDF, symbolIcon, symbolTextAndIcon,
                                        collisionBox, collisionCircle]

    /// The `#pragma glmap: define` inputs of a shader source.
    static func paintInputs(_ source: String) -> [PaintInput] {
        var out: [PaintInput] = []
        for line in source.split(separator: "\n") {
            var text = line.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix("#pragma glmap:") else { continue }
            text = text.dropFirst("#pragma glmap:".count)
            if let comment = text.firstRange(of: "//") { text = text[..<comment.lowerBound] }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 3, words[0] == "define", ["float", "vec2", "vec3", "vec4"].contains(words[1]) else { continue }
            out.append(PaintInput(type: String(words[1]), name: String(words[2])))
        }
        return out
    }

    /// The `background` program: one colour over the viewport.
    public static let background = Program(name: "background", vertex: text(PackageResources.background_vert), fragment: text(PackageResources.background_frag))
    /// The `fill` program: triangulated polygons.
    public static let fill = Program(name: "fill", vertex: text(PackageResources.fill_vert), fragment: text(PackageResources.fill_frag))
    /// The `fill_outline` program: the 1-pixel antialiased outline of fills.
    public static let fillOutline = Program(name: "fill_outline", vertex: text(PackageResources.fill_outline_vert), fragment: text(PackageResources.fill_outline_frag))
    /// The `line` program: extruded lines with joins, caps, dashes and gradients.
    public static let line = Program(name: "line", vertex: text(PackageResources.line_vert), fragment: text(PackageResources.line_frag))
    /// The `circle` program: one instanced quad per circle, with stroke and blur.
    public static let circle = Program(name: "circle", vertex: text(PackageResources.circle_vert), fragment: text(PackageResources.circle_frag))

    /// The `symbol_text` program: glyphs from the glyph atlas's distance fields (text-* paint).
    public static let symbolText = Program(name: "symbol_text", vertex: text(PackageResources.symbol_sdf_vert), fragment: text(PackageResources.symbol_sdf_frag))
    /// The `symbol_icon_sdf` program: SDF icons, the same shaders as `symbol_text` (icon-* paint).
    public static let symbolIconSDF = Program(name: "symbol_icon_sdf", vertex: text(PackageResources.symbol_sdf_vert), fragment: text(PackageResources.symbol_sdf_frag))
    /// The `symbol_icon` program: raster icons from the image atlas (icon-opacity).
    public static let symbolIcon = Program(name: "symbol_icon", vertex: text(PackageResources.symbol_icon_vert), fragment: text(PackageResources.symbol_icon_frag))
    /// The `symbol_text_and_icon` program: text with images among its glyphs (text-* paint).
    public static let symbolTextAndIcon = Program(name: "symbol_text_and_icon", vertex: text(PackageResources.symbol_text_and_icon_vert),
                                                  fragment: text(PackageResources.symbol_text_and_icon_frag))

    /// The `collision_box` program: symbol collision boxes as lines (the collision debug overlay).
    public static let collisionBox = Program(name: "collision_box", vertex: text(PackageResources.collision_box_vert),
                                             fragment: text(PackageResources.collision_box_frag))
    /// The `collision_circle` program: line labels' collision circles as rings (the collision debug overlay).
    public static let collisionCircle = Program(name: "collision_circle", vertex: text(PackageResources.collision_circle_vert),
                                                fragment: text(PackageResources.collision_circle_frag))

    /// The `clipping_mask` program: a tile's square, into the stencil buffer only.
    public static let clippingMask = Program(name: "clipping_mask", vertex: text(PackageResources.clipping_mask_vert), fragment: text(PackageResources.clipping_mask_frag))

    /// The `fill_extrusion` program: lit walls and roofs, depth-tested.
    public static let fillExtrusion = Program(name: "fill_extrusion", vertex: text(PackageResources.fill_extrusion_vert), fragment: text(PackageResources.fill_extrusion_frag))
    /// The `fill_extrusion_pattern` program: walls and roofs textured with `fill-extrusion-pattern`.
    public static let fillExtrusionPattern = Program(name: "fill_extrusion_pattern", vertex: text(PackageResources.fill_extrusion_pattern_vert),
                                                     fragment: text(PackageResources.fill_extrusion_pattern_frag))

    /// The `heatmap` program: each point's kernel, added into the density texture.
    public static let heatmap = Program(name: "heatmap", vertex: text(PackageResources.heatmap_vert), fragment: text(PackageResources.heatmap_frag))
    /// The `heatmap_texture` program: the density coloured by `heatmap-color` over the frame.
    public static let heatmapTexture = Program(name: "heatmap_texture", vertex: text(PackageResources.heatmap_texture_vert),
                                               fragment: text(PackageResources.heatmap_texture_frag))

    /// The `fill_pattern` program: triangulated polygons textured with `fill-pattern`.
    public static let fillPattern = Program(name: "fill_pattern", vertex: text(PackageResources.fill_pattern_vert),
                                            fragment: text(PackageResources.fill_pattern_frag))
    /// The `fill_outline_pattern` program: the antialiasing outline of patterned fills.
    public static let fillOutlinePattern = Program(name: "fill_outline_pattern", vertex: text(PackageResources.fill_outline_pattern_vert),
                                                   fragment: text(PackageResources.fill_outline_pattern_frag))
    /// The `background_pattern` program: `background-pattern` over each covering tile.
    public static let backgroundPattern = Program(name: "background_pattern", vertex: text(PackageResources.background_pattern_vert),
                                                  fragment: text(PackageResources.background_pattern_frag))

    /// The `raster` program: a raster tile's or an image source's picture, colour-adjusted.
    public static let raster = Program(name: "raster", vertex: text(PackageResources.raster_vert), fragment: text(PackageResources.raster_frag))
    /// The `hillshade_prepare` program: a DEM tile's slopes into an RGBA8 texture (offscreen).
    public static let hillshadePrepare = Program(name: "hillshade_prepare", vertex: text(PackageResources.hillshade_prepare_vert), fragment: text(PackageResources.hillshade_prepare_frag))
    /// The `hillshade` program: a tile's prepared slopes shaded by the layer's lights.
    public static let hillshade = Program(name: "hillshade", vertex: text(PackageResources.hillshade_vert), fragment: text(PackageResources.hillshade_frag))
    /// The `color_relief` program: a DEM tile coloured by elevation through the layer's ramp.
    public static let colorRelief = Program(name: "color_relief", vertex: text(PackageResources.color_relief_vert), fragment: text(PackageResources.color_relief_frag))

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
