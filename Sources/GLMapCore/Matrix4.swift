import Foundation

/// A 4×4 double-precision matrix, column-major (as GL expects), with the few operations the
/// camera needs. Composition happens in Double; only the final matrix is handed to GL as Float.
public struct Matrix4: Equatable, Sendable {
    /// Column-major elements: m[col * 4 + row].
    public var m: [Double]

    /// A matrix from 16 column-major elements.
    public init(_ m: [Double]) { precondition(m.count == 16); self.m = m }

    /// The identity matrix.
    public static let identity = Matrix4([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// The product `a · b` (apply `b` first, then `a`).
    public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        var r = [Double](repeating: 0, count: 16)
        for c in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a.m[k * 4 + row] * b.m[c * 4 + k] }
                r[c * 4 + row] = s
            }
        }
        return Matrix4(r)
    }

    /// A translation by (x, y, z).
    public static func translation(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        Matrix4([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1])
    }

    /// A scale by (x, y, z).
    public static func scale(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        Matrix4([x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1])
    }

    /// A rotation by `a` radians about the x axis (right-handed).
    public static func rotationX(_ a: Double) -> Matrix4 {
        let c = cos(a), s = sin(a)
        return Matrix4([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1])
    }

    /// A rotation by `a` radians about the z axis (right-handed).
    public static func rotationZ(_ a: Double) -> Matrix4 {
        let c = cos(a), s = sin(a)
        return Matrix4([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    /// GL-style perspective projection (vertical field of view in radians).
    public static func perspective(fovy: Double, aspect: Double, near: Double, far: Double) -> Matrix4 {
        let f = 1 / tan(fovy / 2)
        let nf = 1 / (near - far)
        return Matrix4([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0])
    }

    /// Transforms (x, y, z, 1); returns clip coordinates (x, y, z, w).
    public func transform(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        (m[0] * x + m[4] * y + m[8] * z + m[12],
         m[1] * x + m[5] * y + m[9] * z + m[13],
         m[2] * x + m[6] * y + m[10] * z + m[14],
         m[3] * x + m[7] * y + m[11] * z + m[15])
    }

    /// The elements as Float for a GL uniform.
    public var floats: [Float] { m.map { Float($0) } }
}

extension Matrix4 {
    /// The inverse (nil when singular): the adjugate (transposed cofactors) over the determinant.
    public var inverted: Matrix4? {
        let a = m
        var inv = [Double](repeating: 0, count: 16)
        for row in 0..<4 {
            for column in 0..<4 { inv[4 * row + column] = Self.cofactor(a, column: column, row: row) }
        }
        let det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12]
        guard det != 0 && det.isFinite else { return nil }
        return Matrix4(inv.map { $0 / det })
    }

    /// The cofactor of element (`column`, `row`) of the column-major matrix `a`: the signed
    /// determinant of the 3 × 3 minor without that column and row, expanded along the minor's
    /// first row.
    @inline(__always)
    private static func cofactor(_ a: [Double], column x: Int, row y: Int) -> Double {
        // The minor's columns p < q < s and rows i < j < k.
        let p = x == 0 ? 1 : 0, q = x <= 1 ? 2 : 1, s = x <= 2 ? 3 : 2
        let i = y == 0 ? 1 : 0, j = y <= 1 ? 2 : 1, k = y <= 2 ? 3 : 2
        @inline(__always) func e(_ c: Int, _ r: Int) -> Double { a[4 * c + r] }
        let d = e(p, i) * e(q, j) * e(s, k) - e(p, i) * e(q, k) * e(s, j) - e(q, i) * e(p, j) * e(s, k)
            + e(q, i) * e(p, k) * e(s, j) + e(s, i) * e(p, j) * e(q, k) - e(s, i) * e(p, k) * e(q, j)
        return (x + y) % 2 == 0 ? d : -d
    }
}
