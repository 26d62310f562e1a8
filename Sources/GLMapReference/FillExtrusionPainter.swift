import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Depth of the frame's extrusions per device pixel (NDC z, 1 = nothing drawn), kept across the
/// frame's extrusion layers as the GPU's depth buffer is, and the per-layer "drawn once" marks of
/// the two-pass mode (the GPU's 3D stencil).
struct ExtrusionDepth {
    var depth: [Double]
    var marked: [Bool]

    init(count: Int) {
        depth = [Double](repeating: 1, count: count)
        marked = [Bool](repeating: false, count: count)
    }
}

/// Draws a `fill-extrusion` layer (all its tiles) as prisms: walls and roofs, each pixel centre's
/// ray intersected with the surface's plane (roofs: the polygon at the height, even-odd inside
/// test; walls: the quad between base and height along each ring edge MapLibre's bucket keeps),
/// back faces culled by their winding on screen, depth-tested (LEQUAL) against every extrusion
/// drawn before in the frame, clipped at the near and far planes. Colour: MapLibre's vertex
/// lighting (`ExtrusionShading`) interpolated up the wall, or the pattern sampled from the atlas
/// times that lighting. A layer at opacity 1 without pattern blends every fragment that passes
/// (one pass); otherwise only the nearest surface of each pixel, once (two passes). Copies of a
/// surface from neighbouring tiles tie within a small depth tolerance (the first drawn wins).
/// Never calls the tessellator: no earcut, no bucket.
struct FillExtrusionPainter {
    /// Depth within which two fragments count as the same surface (the GPU's polygon offset).
    static let tieTolerance = 4.0 / 16_777_216

    /// One planar surface, in the extrusion space: x, y world pixels (translation included), z metres.
    struct Surface {
        enum Shape {
            /// A roof: rings (flat x, y), even-odd, at height z.
            case roof(rings: [[Double]], z: Double)
            /// A wall between (x1, y1) and (x2, y2), from z0 (top flag 0) to z1 (top flag 1).
            case wall(x1: Double, y1: Double, x2: Double, y2: Double, z0: Double, z1: Double)
        }
        var shape: Shape
        /// The colour at the top flag 0 and 1 ends (walls) or everywhere (roofs), premultiplied.
        var color0: SIMD4<Double>, color1: SIMD4<Double>
        /// Pattern: the image, the tile's pattern frame, edge distances at both ends (walls), the
        /// height factor; nil without a pattern.
        var pattern: (image: PatternImage, tile: OverscaledTileID, d1: Double, d2: Double, origin: (Double, Double), unitsPerPixel: Double)?
    }

    /// Paints one layer's tiles (drawing order) into `canvas`, testing and writing `depth`.
    func paint(_ tiles: [EvaluatedFillExtrusionLayer], view: ViewTransform, ratio: Double, depth: inout ExtrusionDepth,
               into canvas: inout Compositor) {
        guard let first = tiles.first, first.opacity > 0 else { return }
        let ppm = MercatorAltitude.pixelsPerMeter(latitude: view.camera.latitude, worldSize: view.worldSize)
        let m = view.projectionMatrix * Matrix4.scale(1, 1, ppm)
        guard let inv = m.inverted else { return }
        let surfaces = tiles.flatMap { surfacesOf($0, view: view) }
        let sampler = first.patternAtlas.map { PatternSampler(atlas: $0.image) }
        let raster = Raster(m: m, inv: inv, width: canvas.width, height: canvas.height, ratio: ratio)
        let onePass = first.opacity >= 1 && !first.patterned
        if !onePass {
            for s in surfaces { raster.each(s) { i, d, _ in if d <= depth.depth[i] { depth.depth[i] = d } } }
            for i in depth.marked.indices { depth.marked[i] = false }
        }
        let q = canvas.quantizeEachDraw
        let zoom = view.camera.zoom
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for s in surfaces {
                raster.each(s) { i, d, point in
                    if onePass {
                        guard d <= depth.depth[i] else { return }
                        depth.depth[i] = d
                    } else {
                        guard d <= depth.depth[i] + FillExtrusionPainter.tieTolerance, !depth.marked[i] else { return }
                        depth.marked[i] = true
                    }
                    let c = FillExtrusionPainter.shade(s, point, sampler: sampler, zoom: zoom)
                    Compositor.blend(px.baseAddress! + i, SIMD4<Float>(c), quantize: q)
                }
            }
        }
    }

    /// The fragment colour of a surface at a point (x, y world px, z metres, t top flag 0…1).
    static func shade(_ s: Surface, _ p: (x: Double, y: Double, z: Double, t: Double), sampler: PatternSampler?, zoom: Double) -> SIMD4<Double> {
        let lighting = s.color0 + (s.color1 - s.color0) * p.t
        guard let pat = s.pattern, let sampler else { return lighting }
        let pos: (Double, Double)
        switch s.shape {
        case .roof:
            pos = ((p.x - pat.origin.0) * pat.unitsPerPixel, (p.y - pat.origin.1) * pat.unitsPerPixel)
        case .wall(let x1, let y1, let x2, let y2, _, _):
            let len2 = (x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)
            let u = len2 > 0 ? ((p.x - x1) * (x2 - x1) + (p.y - y1) * (y2 - y1)) / len2 : 0
            pos = (pat.d1 + (pat.d2 - pat.d1) * u, p.z * (-exp2(Double(pat.tile.overscaledZ)) / PatternSampler.tileSize(pat.tile) / 8))
        }
        let tileRatio = PatternSampler.tileRatio(pat.tile, zoom: zoom)
        let size = pat.image.displaySize
        let vpos = PatternSampler.patternPos(PatternSampler.pixelCoord(pat.tile, zoom: zoom), size: size, tileRatio: tileRatio, pos: pos)
        return sampler.color(pat.image, at: vpos) * lighting
    }
}
