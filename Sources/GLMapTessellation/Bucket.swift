// Tessellation stage — contract
// Input: `EvaluatedLayer`s (features in draw order with evaluated paint, geometry in unit-world
// Web Mercator coordinates, Double). Output: one bucket per layer: interleaved Float32 vertex
// arrays + UInt32 index arrays ready for upload, positions relative to the bucket's `origin`
// (so float32 keeps precision at high zoom; the GL side folds the origin into the matrix in Double).
// Camera independence: fills are triangulated in world space, lines carry extrusion vectors
// (widths applied in the shader), circles are one instance each, so a new camera needs no new
// tessellation. Data-driven paint values are per-vertex (per-instance for circles) attributes.
// Invariants: every index < vertex count; no NaN in any vertex; non-finite input is dropped.
import GLMapCore
import GLMapStyle

/// The vertex layouts buckets produce, in Float32 components (interleaved, tightly packed).
public enum VertexLayout {
    /// fill: x, y, r, g, b, a (premultiplied), opacity
    public static let fill = 7
    /// fill outline (one quad per ring edge): startX, startY, endX, endY, t (0 start / 1 end), side (±1), r, g, b, a, opacity
    public static let fillOutline = 11
    /// line: x, y, ex, ey, nx, ny, distance, direction, r, g, b, a, opacity, width, gapwidth, offset, blur
    public static let line = 17
    /// circle instance: cx, cy, radius, r, g, b, a, opacity, blur, strokeWidth, sr, sg, sb, sa, strokeOpacity
    public static let circle = 15
}

/// A layer's GPU-ready geometry.
public enum Bucket {
    case background(EvaluatedBackground)
    case fill(FillBucket)
    case line(LineBucket)
    case circle(CircleBucket)

    /// Tessellates an evaluated layer, with positions relative to the centre of its geometry.
    public static func make(_ layer: EvaluatedLayer) -> Bucket {
        var b = WorldBounds.empty
        switch layer {
        case .background: break
        case .fill(let f): for feat in f.features { for p in feat.polygons { b.add(flat: p.coords) } }
        case .line(let l): for feat in l.features { for part in feat.parts { b.add(flat: part.coords) } }
        case .circle(let c): for feat in c.features { b.add(flat: feat.centers) }
        }
        let finite = !b.isEmpty && b.minX.isFinite && b.maxX.isFinite && b.minY.isFinite && b.maxY.isFinite
        return make(layer, origin: finite ? ((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2) : (0, 0))
    }

    /// Tessellates an evaluated layer. `origin` is the unit-world point positions are relative to.
    public static func make(_ layer: EvaluatedLayer, origin: (x: Double, y: Double)) -> Bucket {
        switch layer {
        case .background(let b): return .background(b)
        case .fill(let f): return .fill(FillBucket(f, origin: origin))
        case .line(let l): return .line(LineBucket(l, origin: origin))
        case .circle(let c): return .circle(CircleBucket(c, origin: origin))
        }
    }
}

extension Array where Element == Float {
    @inline(__always)
    mutating func append(color c: Color) {
        append(Float(c.r)); append(Float(c.g)); append(Float(c.b)); append(Float(c.a))
    }
}
