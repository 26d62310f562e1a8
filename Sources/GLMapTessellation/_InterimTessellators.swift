// INTERIM stand-ins with the agreed API, replaced at merge by the `earcut` and `lines` branches.
public enum Earcut {
    public static func triangulate(_ coords: [Double], holeIndices: [Int] = [], dimensions: Int = 2) -> [UInt32] {
        let n = (holeIndices.first ?? coords.count / dimensions)
        guard n >= 3 else { return [] }
        var out: [UInt32] = []
        for i in 1..<(n - 1) { out += [0, UInt32(i), UInt32(i + 1)] }
        return out
    }
}
public enum LineJoin { case miter, bevel, round }
public enum LineCap { case butt, square, round }
public struct LineVertex: Equatable {
    public var x: Float, y: Float, ex: Float, ey: Float, nx: Float, ny: Float, distance: Float, direction: Float
}
public struct LineGeometry { public var vertices: [LineVertex] = []; public var indices: [UInt32] = []; public init() {} }
public struct LineTessellator {
    public init(join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 2, roundLimit: Double = 1.05) {}
    public mutating func append(_ points: UnsafeBufferPointer<Double>, closed: Bool, into out: inout LineGeometry) {
        let n = points.count / 2
        guard n >= 2 else { return }
        for i in 0..<(n - 1) {
            let x0 = points[2*i], y0 = points[2*i+1], x1 = points[2*i+2], y1 = points[2*i+3]
            let dx = x1 - x0, dy = y1 - y0, len = (dx*dx + dy*dy).squareRoot()
            guard len > 0 else { continue }
            let nx = Float(-dy / len), ny = Float(dx / len)
            let b = UInt32(out.vertices.count)
            for (px, py) in [(x0, y0), (x1, y1)] {
                out.vertices.append(LineVertex(x: Float(px), y: Float(py), ex: nx, ey: ny, nx: 0, ny: 1, distance: 0, direction: 0))
                out.vertices.append(LineVertex(x: Float(px), y: Float(py), ex: -nx, ey: -ny, nx: 0, ny: -1, distance: 0, direction: 0))
            }
            out.indices += [b, b + 1, b + 2, b + 1, b + 3, b + 2]
        }
    }
}
