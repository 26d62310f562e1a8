// View culling — contract
// Input: a bucket's index (or instance) buffer and its vertices, split once at upload into
// `DrawRange`s: consecutive runs of triangles (instances) in buffer order, each with the bounding
// box of the positions it draws (bucket-local units) and its index range. Per frame and world
// copy: the clip matrix of the draw and the layer's `CullMargin` (how far, in CSS pixels, a
// vertex can lie from its position: line extrusion and offset, circle radius + stroke, the
// outline's half-pixel quad). Output: the runs to draw — the ranges that may reach the view,
// adjacent ones merged — in buffer order.
// Invariant: conservative. A range is dropped only when every point its triangles can cover
// lies beyond one clip plane (x > w, x < −w, y > w or y < −w, tested in homogeneous clip
// coordinates, so points behind the camera are handled and pitch is exact): such triangles
// produce no fragments, and the remaining ones are drawn in their original order, so the frame
// is the same, bit for bit, as drawing the whole buffer.
import GLMapCore
import GLMapTessellation

/// A run of a bucket's triangles (or instances) in buffer order, with the bounds of its positions.
struct DrawRange {
    /// First index (instance) and how many.
    var first: Int
    var count: Int
    /// Smallest and largest vertex index the run reads (glDrawRangeElements).
    var minIndex: UInt32
    var maxIndex: UInt32
    /// Bounds of the positions, bucket-local units.
    var minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Longest line extrusion vector in the run (1 for geometry without one): the ground margin
    /// is per unit of extrusion.
    var maxExtrude: Double = 1

}

/// How far a layer's drawn geometry can reach past its positions, in CSS pixels at the frame zoom.
struct CullMargin {
    /// In the map plane (line extrusion and offset, map-aligned circles).
    var ground = 0.0
    /// On screen, scaled with perspective like a position (fill outlines, viewport circles).
    var screen = 0.0
    /// On screen, a fixed clip-space amount × camera-to-centre distance (viewport circles
    /// scaled with the map).
    var screenFixed = 0.0
    /// Culling is unsafe for this layer and frame (draw everything).
    var disabled = false
}

enum ViewCulling {
    /// Triangles per range: small enough that a tile of a large source draws little of it,
    /// large enough that the per-frame test and the draw calls stay cheap (adjacent visible
    /// ranges merge into one draw). 128 by measurement: `glmap serve` CPU per world tile, z0–6,
    /// fell ~20 % from 512 (Benchmarks/README.md, "glmap serve under load"); 64 was no better.
    static let trianglesPerRange = 128
    /// Instances per range (circles).
    static let instancesPerRange = 64

    /// Splits a triangle index buffer into ranges. `positions`: float offsets, within a vertex of
    /// `stride` floats, of the x,y pairs the vertex is drawn from (several for outline quads);
    /// `extrude`: offset of the extrusion vector (lines), if any.
    static func triangleRanges(indices: [UInt32], vertices: [Float], stride: Int, positions: [Int],
                               extrude: Int? = nil, trianglesPerRange: Int = ViewCulling.trianglesPerRange) -> [DrawRange] {
        var ranges: [DrawRange] = []
        guard stride > 0 else { return ranges }
        let vertexCount = vertices.count / stride
        ranges.reserveCapacity(indices.count / (3 * trianglesPerRange) + 1)
        indices.withUnsafeBufferPointer { idx in
            vertices.withUnsafeBufferPointer { v in
                var start = 0
                while start + 2 < idx.count {
                    let end = min(idx.count - idx.count % 3, start + 3 * trianglesPerRange)
                    var r = DrawRange(first: start, count: end - start, minIndex: .max, maxIndex: 0,
                                      minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, maxExtrude: 0)
                    for k in start..<end {
                        let i = idx[k]
                        if i < r.minIndex { r.minIndex = i }
                        if i > r.maxIndex { r.maxIndex = i }
                        guard Int(i) < vertexCount else { continue }
                        let base = Int(i) * stride
                        for p in positions {
                            let x = Double(v[base + p]), y = Double(v[base + p + 1])
                            if x < r.minX { r.minX = x }; if x > r.maxX { r.maxX = x }
                            if y < r.minY { r.minY = y }; if y > r.maxY { r.maxY = y }
                        }
                        if let e = extrude {
                            let ex = Double(v[base + e]), ey = Double(v[base + e + 1])
                            r.maxExtrude = max(r.maxExtrude, (ex * ex + ey * ey).squareRoot())
                        }
                    }
                    if extrude == nil { r.maxExtrude = 1 }
                    ranges.append(r)
                    start = end
                }
            }
        }
        return ranges
    }

    /// Splits `count` instances of `stride` floats (centre x, y first) into ranges.
    static func instanceRanges(instances: [Float], stride: Int, perRange: Int = ViewCulling.instancesPerRange) -> [DrawRange] {
        var ranges: [DrawRange] = []
        guard stride > 0 else { return ranges }
        let count = instances.count / stride
        var start = 0
        while start < count {
            let end = min(count, start + perRange)
            var r = DrawRange(first: start, count: end - start, minIndex: 0, maxIndex: 0,
                              minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for i in start..<end {
                let x = Double(instances[i * stride]), y = Double(instances[i * stride + 1])
                if x < r.minX { r.minX = x }; if x > r.maxX { r.maxX = x }
                if y < r.minY { r.minY = y }; if y > r.maxY { r.maxY = y }
            }
            ranges.append(r)
            start = end
        }
        return ranges
    }

    /// `runs` (ascending, as `visibleRuns` gives them) cut at the bounds of `pieces` (ascending,
    /// non-overlapping index ranges, e.g. a fill's tile clips): for each piece, the parts of the runs
    /// inside it, in one walk over both lists. A cut run keeps its vertex bounds (a superset, still
    /// valid for glDrawRangeElements).
    static func runs(_ runs: [DrawRange], cutAt pieces: [Range<Int>]) -> [[DrawRange]] {
        var out: [[DrawRange]] = []
        out.reserveCapacity(pieces.count)
        var j = 0
        for r in pieces {
            while j < runs.count && runs[j].first + runs[j].count <= r.lowerBound { j += 1 }
            var inside: [DrawRange] = []
            var k = j
            while k < runs.count && runs[k].first < r.upperBound {
                var c = runs[k]
                c.first = max(c.first, r.lowerBound)
                c.count = min(runs[k].first + runs[k].count, r.upperBound) - c.first
                if c.count > 0 { inside.append(c) }
                k += 1
            }
            out.append(inside)
        }
        return out
    }

    /// The runs of `ranges` that may be visible through `matrix` (bucket-local units → clip, the
    /// whole frame's, unfolded), adjacent ranges merged; buffer order.
    static func visibleRuns(_ ranges: [DrawRange], matrix: Matrix4, view: ViewTransform, margin: CullMargin) -> [DrawRange] {
        guard !ranges.isEmpty else { return [] }
        if margin.disabled { return [merged(ranges[...])] }
        let m = matrix.m
        // Margins: +2 CSS px against float rounding (the GPU draws with Float matrices).
        let pad = 2 / view.worldSize, groundUnits = margin.ground / view.worldSize
        let kx = 1 + 2 * (margin.screen + 2) / view.width, ky = 1 + 2 * (margin.screen + 2) / view.height
        let dx = 2 * margin.screenFixed * view.cameraToCenterDistance / view.width
        let dy = 2 * margin.screenFixed * view.cameraToCenterDistance / view.height
        var runs: [DrawRange] = []
        var open: DrawRange?
        for r in ranges {
            let g = groundUnits * r.maxExtrude + pad
            let x0 = r.minX - g, x1 = r.maxX + g, y0 = r.minY - g, y1 = r.maxY + g
            // Bit per plane: set while every corner so far is beyond it.
            var beyond = 0b1111
            for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                let cx = m[0] * x + m[4] * y + m[12]
                let cy = m[1] * x + m[5] * y + m[13]
                let cw = m[3] * x + m[7] * y + m[15]
                var b = 0
                if cx > kx * cw + dx { b |= 1 }
                if -cx > kx * cw + dx { b |= 2 }
                if cy > ky * cw + dy { b |= 4 }
                if -cy > ky * cw + dy { b |= 8 }
                beyond &= b
                if beyond == 0 { break }
            }
            let bounded = x0.isFinite && x1.isFinite && y0.isFinite && y1.isFinite && x0 <= x1 && y0 <= y1
            let visible = beyond == 0 || !bounded
            if !visible {
                if let o = open { runs.append(o); open = nil }
                continue
            }
            if var o = open {
                o.count += r.count
                o.minIndex = min(o.minIndex, r.minIndex)
                o.maxIndex = max(o.maxIndex, r.maxIndex)
                open = o
            } else {
                open = r
            }
        }
        if let o = open { runs.append(o) }
        return runs
    }

    /// One run covering `ranges` (adjacent, in order).
    static func merged(_ ranges: ArraySlice<DrawRange>) -> DrawRange {
        var o = ranges.first!
        for r in ranges.dropFirst() {
            o.count += r.count
            o.minIndex = min(o.minIndex, r.minIndex)
            o.maxIndex = max(o.maxIndex, r.maxIndex)
        }
        return o
    }
}

/// The largest magnitude each numeric paint property of a bucket takes: the per-frame uniform
/// where the property is one, else the largest over its per-vertex values (both zooms of a
/// composite pair, which the shader mixes between).
struct PaintBound {
    let layout: PaintLayout
    /// Binding name → largest |value| over the vertices.
    let attributeMax: [String: Double]

    /// Scans the attribute columns of `vertices` (`stride` floats each, paint after `geometry`).
    init(_ layout: PaintLayout, vertices: [Float], stride: Int, geometry: Int) {
        self.layout = layout
        var maxima: [String: Double] = [:]
        for a in layout.attributes where a.binding.components == 1 {
            var m = 0.0
            let columns = a.composite ? [geometry + a.offset, geometry + a.offset + 1] : [geometry + a.offset]
            var i = 0
            while i + stride <= vertices.count {
                for c in columns { m = Swift.max(m, Double(abs(vertices[i + c]))) }
                i += stride
            }
            maxima[a.binding.name] = m
        }
        attributeMax = maxima
    }

    /// The largest |value| of the property bound as `name` in a frame at `zoom`; nil when the
    /// value cannot be bounded (not finite).
    func max(_ name: String, uniforms: [(name: String, value: [Float])]) -> Double? {
        let v: Double
        if let u = uniforms.first(where: { $0.name == "u_" + name }), let f = u.value.first {
            v = Double(abs(f))
        } else {
            v = attributeMax[name] ?? 0
        }
        return v.isFinite ? v : nil
    }
}

extension CullMargin {
    /// Line: the shader's outset (half gap + width + antialiasing) plus the offset, per unit of
    /// extrusion; blur only fades inside the outset.
    static func line(_ paint: PaintBound, zoom: Double, ratio: Double) -> CullMargin {
        let u = paint.layout.uniformValues(zoom: Swift.max(0, zoom))
        guard let width = paint.max("width", uniforms: u), let gap = paint.max("gap_width", uniforms: u),
              let offset = paint.max("offset", uniforms: u), ratio > 0 else { return CullMargin(disabled: true) }
        return CullMargin(ground: gap / 2 + width + 1 / ratio + offset)
    }

    /// Fill outline: a quad half a device pixel either side of each edge, on screen.
    static let fillOutline = CullMargin(screen: 1)

    /// Circle: radius + stroke, extruded as the shader does for the layer's pitch alignment and
    /// scale. A map-aligned circle not scaled with the map grows with distance from the camera
    /// under pitch, which no fixed margin bounds: not culled then.
    static func circle(_ paint: PaintBound, pitchWithMap: Bool, scaleWithMap: Bool, view: ViewTransform, zoom: Double) -> CullMargin {
        let u = paint.layout.uniformValues(zoom: Swift.max(0, zoom))
        guard let radius = paint.max("radius", uniforms: u), let stroke = paint.max("stroke_width", uniforms: u)
        else { return CullMargin(disabled: true) }
        let size = radius + stroke
        switch (pitchWithMap, scaleWithMap) {
        case (true, true): return CullMargin(ground: size)
        case (true, false): return view.camera.pitch == 0 ? CullMargin(ground: size) : CullMargin(disabled: true)
        case (false, true): return CullMargin(screenFixed: size)
        case (false, false): return CullMargin(screen: size)
        }
    }
}
