import GLMapCore
import GLMapStyle
import GLMapTiles

/// A fill-extrusion layer over one tile, built as MapLibre's `FillExtrusionBucket` builds it:
/// per ring, one wall quad per edge (p[i−1] → p[i]; edges along the tile border outside the tile
/// and rings entirely outside it get none), each vertex carrying the edge's outward normal, whether
/// it is at the top (`t`) and the distance along the ring (patterns wrap around walls with it, reset
/// past 32768 tile units); then, for polygon features, the roof: earcut triangles of the polygon,
/// normal up. Triangles are wound counter-clockwise (as seen from outside), for back-face culling.
/// Vertices: `VertexLayout.fillExtrusion` floats — position (tile units), then `a_normal_ed` as
/// MapLibre packs it: floor(nx·8192)·2 + t, trunc(ny·16384), trunc(nz·16384), round(distance) —
/// followed by the paint block. Heights are applied in the shader (metres × pixels per metre).
public struct FillExtrusionBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedFillExtrusionLayer
    /// `stride` floats per vertex.
    public var vertices: [Float] = []
    /// Triangle list into `vertices`.
    public var indices: [UInt32] = []
    /// Pattern inputs per vertex (`VertexLayout.pattern` floats, parallel to `vertices`) when the
    /// layer is patterned, else empty.
    public var patternVertices: [Float] = []
    /// Which properties are attributes and which uniforms (program `fill_extrusion`, or
    /// `fill_extrusion_pattern` for a patterned layer).
    public let paint: PaintLayout
    /// Floats per vertex.
    public var stride: Int { VertexLayout.fillExtrusion + paint.floatsPerVertex }

    /// The program the bucket is drawn with.
    public static func program(patterned: Bool) -> String { patterned ? "fill_extrusion_pattern" : "fill_extrusion" }

    /// Builds walls and roofs of `layer`; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedFillExtrusionLayer, next: EvaluatedFillExtrusionLayer? = nil) {
        self.layer = layer
        paint = PaintLayout(program: Self.program(patterned: layer.patterned), features: layer.features,
                            source: layer.paint, value: EvaluatedFillExtrusion.paint)
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        let earcut = EarcutTriangulator(flavor: .mapLibre)
        for (i, f) in layer.features.enumerated() {
            let values = paint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFillExtrusion.paint)
            let pattern = layer.patterned ? f.pattern.map(PatternVertex.floats) : nil
            if layer.patterned && pattern == nil { continue }
            for polygon in f.polygons { add(polygon, roof: f.hasRoof, values, pattern ?? [], earcut) }
        }
    }

    /// Appends one vertex.
    private mutating func vertex(_ x: Double, _ y: Double, _ nx: Double, _ ny: Double, _ nz: Double, _ t: Double,
                                 _ distance: Double, _ paint: [Float], _ pattern: [Float]) {
        vertices.append(Float(x))
        vertices.append(Float(y))
        vertices.append(Float((nx * 8192).rounded(.down) * 2 + t))
        vertices.append(Float((ny * 16384).rounded(.towardZero)))
        vertices.append(Float((nz * 16384).rounded(.towardZero)))
        vertices.append(Float(distance.rounded()))
        vertices.append(contentsOf: paint)
        patternVertices.append(contentsOf: pattern)
    }

    private mutating func add(_ polygon: FlatPolygon, roof: Bool, _ paint: [Float], _ pattern: [Float], _ earcut: EarcutTriangulator) {
        let c = polygon.coords
        guard c.allSatisfy({ $0.isFinite }) else { return }
        let extent = Double(TileExtent.extent)
        for r in polygon.ringRanges where !r.isEmpty {
            if Self.isEntirelyOutside(c, r, extent: extent) { continue }
            var distance = 0.0
            for i in r.dropFirst() {
                let x1 = c[2 * i], y1 = c[2 * i + 1], x2 = c[2 * i - 2], y2 = c[2 * i - 1]
                if Self.isBoundaryEdge(x1, y1, x2, y2, extent: extent) { continue }
                // perp of (p1 − p2), normalised: (−dy, dx) / |d| (MapLibre's Point._perp()._unit()).
                let dx = x1 - x2, dy = y1 - y2
                let length = (dx * dx + dy * dy).squareRoot()
                let nx = length > 0 ? -dy / length : 0, ny = length > 0 ? dx / length : 0
                if distance + length > 32768 { distance = 0 }
                let base = UInt32(vertices.count / stride)
                vertex(x1, y1, nx, ny, 0, 0, distance, paint, pattern)
                vertex(x1, y1, nx, ny, 0, 1, distance, paint, pattern)
                distance += length
                vertex(x2, y2, nx, ny, 0, 0, distance, paint, pattern)
                vertex(x2, y2, nx, ny, 0, 1, distance, paint, pattern)
                indices.append(contentsOf: [base, base + 2, base + 1, base + 1, base + 2, base + 3])
            }
        }
        guard roof else { return }
        let base = UInt32(vertices.count / stride)
        for i in 0..<(c.count / 2) { vertex(c[2 * i], c[2 * i + 1], 0, 0, 1, 1, 0, paint, pattern) }
        let roofIndices = c.withUnsafeBufferPointer { earcut.triangulate($0, holeIndices: polygon.holeIndices) }
        var j = 0
        while j + 2 < roofIndices.count {
            // MapLibre reverses earcut's winding: counter-clockwise from above.
            indices.append(contentsOf: [base + roofIndices[j], base + roofIndices[j + 2], base + roofIndices[j + 1]])
            j += 3
        }
    }

    /// An edge along the tile border, outside the tile (MapLibre's `isBoundaryEdge`).
    static func isBoundaryEdge(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, extent: Double) -> Bool {
        (x1 == x2 && (x1 < 0 || x1 > extent)) || (y1 == y2 && (y1 < 0 || y1 > extent))
    }

    /// A ring wholly on the far side of one tile edge (MapLibre's `isEntirelyOutside`).
    static func isEntirelyOutside(_ c: [Double], _ r: Range<Int>, extent: Double) -> Bool {
        r.allSatisfy { c[2 * $0] < 0 } || r.allSatisfy { c[2 * $0] > extent }
            || r.allSatisfy { c[2 * $0 + 1] < 0 } || r.allSatisfy { c[2 * $0 + 1] > extent }
    }
}

/// The pattern inputs of one vertex: `pattern_from` (tl, br), `pattern_to` (tl, br),
/// `pixel_ratio_from`, `pixel_ratio_to` (MapLibre's pattern attributes).
public enum PatternVertex {
    /// The ten floats of a cross-faded pattern.
    public static func floats(_ p: EvaluatedPattern) -> [Float] {
        p.from.rect + p.to.rect + [Float(p.from.pixelRatio), Float(p.to.pixelRatio)]
    }
}

extension EvaluatedFillExtrusion: PaintColumns {
    /// The fill-extrusion properties bound to the extrusion programs.
    static let columns: [PaintColumn<Self>] = [
        .number("fill-extrusion-opacity") { $0.opacity }, .color("fill-extrusion-color") { $0.color },
        .number("fill-extrusion-height") { $0.height }, .number("fill-extrusion-base") { $0.base },
    ]
}
