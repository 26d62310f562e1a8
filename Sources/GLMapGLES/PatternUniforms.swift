internal import CGLES3
import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// The uniforms every pattern program shares (MapLibre's `patternUniformValues`): the atlas on
/// texture unit 0 (LINEAR, clamped), its size, the tile-to-pattern-pixel scale at the frame's
/// tile zoom with the cross-fade scales, the fade, and the tile's origin in pattern pixels split
/// into 16-bit halves (so `mod` keeps its precision at deep zooms).
enum PatternUniforms {
    /// MapLibre's `tileRatio`: pattern pixels per tile unit at the frame's tile zoom
    /// (1 / `pixelsToTileUnits(tile, 1, transform.tileZoom)`).
    static func tileRatio(_ tile: OverscaledTileID, zoom: Double) -> Double {
        let tileZoom = max(0, zoom).rounded(.down)
        return tileSize(tile) * exp2(tileZoom - Double(tile.overscaledZ)) / Double(TileExtent.extent)
    }

    /// MapLibre's `tile.tileSize`: 512 times the over-scale factor (an over-scaled tile's units
    /// span its canonical tile).
    static func tileSize(_ tile: OverscaledTileID) -> Double { 512 * tile.overscaleFactor }

    /// MapLibre's `u_height_factor` of patterned extrusions: wall heights (metres) to pattern units.
    static func heightFactor(_ tile: OverscaledTileID) -> Double { -exp2(Double(tile.overscaledZ)) / tileSize(tile) / 8 }

    /// The tile's origin in pattern pixels at the tile zoom, split into (upper, lower) 16-bit halves.
    static func pixelCoord(_ tile: OverscaledTileID, zoom: Double) -> (upper: (Float, Float), lower: (Float, Float)) {
        let tileZoom = max(0, zoom).rounded(.down)
        let numTiles = exp2(Double(tile.overscaledZ))
        let size = tileSize(tile) * exp2(tileZoom) / numTiles
        let px = size * (Double(tile.canonical.x) + Double(tile.wrap) * numTiles)
        let py = size * Double(tile.canonical.y)
        func split(_ v: Double) -> (Float, Float) {
            let i = Int32(truncatingIfNeeded: Int64(v.isFinite ? v.rounded(.towardZero) : 0))
            return (Float(i >> 16), Float(i & 0xFFFF))
        }
        let x = split(px), y = split(py)
        return ((x.0, y.0), (x.1, y.1))
    }

    /// Binds the atlas and sets the shared pattern uniforms of `program` for `tile`.
    static func set(_ program: GLProgram, tile: OverscaledTileID, frame: FrameState) {
        let zoom = frame.view.camera.zoom
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), frame.patternTexture)
        glUniform1i(program.uniform("u_image"), 0)
        glUniform2f(program.uniform("u_texsize"), Float(frame.patternTextureSize.width), Float(frame.patternTextureSize.height))
        let fade = CrossFade(zoom: max(0, zoom))
        glUniform3f(program.uniform("u_scale"), Float(tileRatio(tile, zoom: zoom)), Float(fade.fromScale), Float(fade.toScale))
        glUniform1f(program.uniform("u_fade"), Float(fade.t))
        let c = pixelCoord(tile, zoom: zoom)
        glUniform2f(program.uniform("u_pixel_coord_upper"), c.upper.0, c.upper.1)
        glUniform2f(program.uniform("u_pixel_coord_lower"), c.lower.0, c.lower.1)
    }
}
