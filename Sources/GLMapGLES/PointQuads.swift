internal import CGLES3

/// Point buckets (circles, heatmap kernels) drawn as MapLibre draws them: four vertices per
/// point, each carrying its corner (±1, ±1) and the point's floats, and two indexed triangles —
/// not one instanced quad per point. Mesa's llvmpipe runs its vertex pipeline once per instance,
/// so 100,000 instanced quads cost 100,000 pipeline runs of four vertices; the same quads as one
/// indexed draw are shaded in full batches (a 100,000-point heatmap's density pass: see
/// Benchmarks/README.md). The buckets keep one record per point; the corners are added at upload.
final class PointQuads {
    /// The per-vertex corner, ahead of the point's own layout.
    static let cornerLayout = [("a_corner", 2)]
    private static let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]

    private var indices: GLuint = 0
    private var capacity = 0   // quads the index buffer holds

    /// The vertices of `count` points of `stride` floats each: every point four times, each copy
    /// led by its corner.
    static func vertices(_ points: [Float], stride: Int) -> [Float] {
        let count = stride == 0 ? 0 : points.count / stride
        var out = [Float](repeating: 0, count: count * 4 * (stride + 2))
        out.withUnsafeMutableBufferPointer { o in
            points.withUnsafeBufferPointer { p in
                var k = 0
                for i in 0..<count {
                    let base = i * stride
                    for c in 0..<4 {
                        o[k] = corners[2 * c]
                        o[k + 1] = corners[2 * c + 1]
                        k += 2
                        for j in 0..<stride { o[k + j] = p[base + j] }
                        k += stride
                    }
                }
            }
        }
        return out
    }

    /// Binds an index buffer of at least `count` quads (0, 1, 2, 2, 1, 3 from each fourth
    /// vertex), grown by doubling; the context is current.
    func bindIndices(count: Int) {
        if count > capacity {
            if indices != 0 { glDeleteBuffers(1, &indices) }
            capacity = max(count, capacity * 2, 1024)
            var data = [UInt32](repeating: 0, count: capacity * 6)
            for q in 0..<capacity {
                let v = UInt32(q * 4)
                data[6 * q] = v; data[6 * q + 1] = v + 1; data[6 * q + 2] = v + 2
                data[6 * q + 3] = v + 2; data[6 * q + 4] = v + 1; data[6 * q + 5] = v + 3
            }
            indices = GLDrawing.indexBuffer(data)
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices)
    }

    /// Draws `count` quads from the bound vertices and indices.
    func draw(count: Int, stats: inout DrawStats) {
        bindIndices(count: count)
        GLDrawing.drawTriangles(count: count * 6, maxIndex: count * 4 - 1, stats: &stats)
    }

    /// Deletes the index buffer (the context is current).
    func release() {
        if indices != 0 { glDeleteBuffers(1, &indices); indices = 0 }
        capacity = 0
    }
}
