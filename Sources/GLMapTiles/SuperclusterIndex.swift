// Point clustering — contract
// What MapLibre GL JS's worker does with a GeoJSON source that sets `cluster: true`, ported from
// supercluster 8.0.1 (with kdbush 4) behaviour for behaviour:
// - input: the decoded collection, the source's `filter` (a closure; applied first, as GL JS
//   filters before indexing), `SuperclusterOptions` (GL JS's: maxZoom = clusterMaxZoom or source
//   maxzoom − 1, minPoints = max(2, clusterMinPoints), radius = clusterRadius × 16 tile units,
//   extent 8192) and the source's `clusterProperties` as closures (map on a point's properties,
//   reduce of an accumulated value with another point's or cluster's mapped properties);
// - load: every Point projected to float32 Web Mercator 0…1 in a KD-tree; from maxZoom down to
//   minZoom each point or cluster not yet taken gathers its neighbours within radius/(extent·2^z)
//   into a cluster at their weighted centre when they number at least minPoints (ids:
//   (index << 5) + zoom + 1 + number of input features), otherwise they go on alone;
// - output: `tile(_:)` — supercluster's `getTile`: the points and clusters of zoom
//   min(z, maxZoom + 1) within the tile widened by radius/extent (and the neighbouring world's
//   edge at x = 0 and x = 2^z − 1), each one point in integer tile units; clusters carry `cluster`,
//   `cluster_id`, `point_count`, `point_count_abbreviated` (and the reduced properties), points
//   their own properties and id (or their index with `generateId`). nil when the tile is empty.
// Invariants: deterministic (the same input gives the same clusters, ids and order); the index is
// immutable after init, so tiles may be asked for from any thread.
// Limits: features other than Points get NaN coordinates as in GL JS (never in a tile, though they
// count in cluster ids and shape the KD-tree); a GeometryCollection fails the whole source, as
// supercluster throws on it. Cluster ids assume fewer than 2^26 points (JavaScript's 32-bit shift).
import Foundation
import GLMapCore
import GLMapGeoJSON

/// One of a clustered source's `clusterProperties`, as closures GL JS builds from its expressions.
public struct ClusterProperty: Sendable {
    /// The property name on clusters.
    public var name: String
    /// The map expression, evaluated on one point's properties (zoom 0).
    public var map: @Sendable (JSONObject) -> JSONValue
    /// The reduce expression: the value accumulated so far (`["accumulated"]`) and the mapped
    /// properties of the point or cluster being merged in (`["get", name]` reads them) → the new value.
    public var reduce: @Sendable (_ accumulated: JSONValue, _ properties: JSONObject) -> JSONValue

    /// A cluster property.
    public init(name: String, map: @escaping @Sendable (JSONObject) -> JSONValue,
                reduce: @escaping @Sendable (_ accumulated: JSONValue, _ properties: JSONObject) -> JSONValue) {
        self.name = name
        self.map = map
        self.reduce = reduce
    }
}

/// supercluster's options, in its units, as GL JS passes them.
public struct SuperclusterOptions: Sendable {
    /// Shallowest zoom clusters are made at.
    public var minZoom: Int
    /// Deepest zoom clusters are made at; deeper tiles show the points themselves.
    public var maxZoom: Int
    /// Fewest points a cluster holds.
    public var minPoints: Int
    /// Cluster radius in tile units (GL JS: `clusterRadius` px × 16, default 800).
    public var radius: Double
    /// Units per tile side.
    public var extent: Int
    /// KD-tree leaf size.
    public var nodeSize: Int
    /// Points get their index in the (filtered) collection as id.
    public var generateId: Bool
    /// Properties reduced over each cluster's points (empty: none).
    public var clusterProperties: [ClusterProperty]

    /// Options with supercluster's meaning (defaults: GL JS's for a source that sets only `cluster`).
    public init(minZoom: Int = 0, maxZoom: Int = 17, minPoints: Int = 2, radius: Double = 800,
                extent: Int = TileExtent.extent, nodeSize: Int = 64, generateId: Bool = false,
                clusterProperties: [ClusterProperty] = []) {
        (self.minZoom, self.maxZoom, self.minPoints, self.radius) = (minZoom, maxZoom, minPoints, radius)
        (self.extent, self.nodeSize, self.generateId) = (extent, nodeSize, generateId)
        self.clusterProperties = clusterProperties
    }

    /// The options GL JS's `GeoJSONSource` hands supercluster for a source's style values (nil:
    /// absent): maxZoom = `clusterMaxZoom` rounded (0 and absent both mean source `maxzoom` − 1,
    /// as GL JS tests it for truth), minPoints = max(2, `clusterMinPoints` or 2), radius =
    /// (`clusterRadius` or 50; 0 counts as absent) × 8192/512.
    public static func mapLibre(maxzoom: Double? = nil, clusterRadius: Double? = nil, clusterMaxZoom: Double? = nil,
                                clusterMinPoints: Double? = nil, generateId: Bool = false,
                                clusterProperties: [ClusterProperty] = []) -> SuperclusterOptions {
        let sourceMaxzoom = maxzoom ?? 18
        let z: Double
        if let c = clusterMaxZoom, c != 0, c.isFinite { z = Double(jsRound(c)) } else { z = sourceMaxzoom - 1 }
        // A point count meets a fractional minimum from its ceiling on.
        let minPoints = max(2, Int((clusterMinPoints.flatMap { $0 == 0 || !$0.isFinite ? nil : $0 } ?? 2).rounded(.up)))
        let radius = (clusterRadius.flatMap { $0 == 0 || $0.isNaN ? nil : $0 } ?? 50) * Double(TileExtent.extent) / 512
        return SuperclusterOptions(maxZoom: Int(max(-1, min(64, z.rounded(.down)))), minPoints: minPoints, radius: radius,
                                   generateId: generateId, clusterProperties: clusterProperties)
    }
}

/// A clustered GeoJSON source's point index (a supercluster port).
///
/// ```swift
/// let index = try SuperclusterIndex(collection, options: .mapLibre(clusterRadius: 25))
/// let tile = index.vectorTile(CanonicalTileID(1, 0, 0))   // clusters and lone points
/// ```
public final class SuperclusterIndex: Sendable {
    /// The options the index was built with.
    public let options: SuperclusterOptions
    private let points: [Feature]
    private let stride: Int
    /// Per zoom minZoom…maxZoom + 1: the KD-tree and its records (x, y, zoom, id, parent, count[, props]).
    private let trees: [Int: (tree: KDBush, data: [Double])]
    /// Reduced properties of clusters, by their records' props index.
    private let clusterProps: [JSONObject]

    private static let offsetZoom = 2, offsetID = 3, offsetParent = 4, offsetNum = 5, offsetProp = 6

    /// Clusters the collection's points (after `filter`, GL JS's source filter at zoom 0).
    /// Throws `GeoJSONTilingError` for a GeometryCollection feature (supercluster fails on it).
    public init(_ collection: FeatureCollection, options: SuperclusterOptions = SuperclusterOptions(),
                filter: (@Sendable (Feature) -> Bool)? = nil) throws {
        self.options = options
        let points = filter.map { collection.features.filter($0) } ?? collection.features
        self.points = points
        let reduce = !options.clusterProperties.isEmpty
        let stride = reduce ? 7 : 6
        self.stride = stride

        var data: [Double] = []
        data.reserveCapacity(points.count * stride)
        for (i, p) in points.enumerated() {
            guard let g = p.geometry else { continue }
            let (lng, lat) = try SuperclusterIndex.coordinates(g, index: i)
            data.append(Double(Float(SuperclusterIndex.lngX(lng))))
            data.append(Double(Float(SuperclusterIndex.latY(lat))))
            data.append(.infinity)
            data.append(Double(i))
            data.append(-1)
            data.append(1)
            if reduce { data.append(0) }
        }
        var clusterProps: [JSONObject] = []
        var trees: [Int: (tree: KDBush, data: [Double])] = [:]
        var tree = SuperclusterIndex.makeTree(data, stride: stride, nodeSize: options.nodeSize)
        trees[options.maxZoom + 1] = (tree, data)
        if options.maxZoom >= options.minZoom {
            for z in Swift.stride(from: options.maxZoom, through: options.minZoom, by: -1) {
                let next = SuperclusterIndex.cluster(&data, tree: tree, zoom: z, stride: stride, options: options,
                                                     points: points, clusterProps: &clusterProps)
                trees[z + 1] = (tree, data)   // with the zoom and parent marks this pass wrote
                data = next
                tree = SuperclusterIndex.makeTree(data, stride: stride, nodeSize: options.nodeSize)
                trees[z] = (tree, data)
            }
        }
        self.trees = trees
        self.clusterProps = clusterProps
    }

    /// supercluster's `getTile`: the clusters and points of the tile (nil when there are none).
    public func tile(_ id: CanonicalTileID) -> GeoJSONTile? {
        let zoom = max(options.minZoom, min(id.z, options.maxZoom + 1))
        guard let (tree, data) = trees[zoom] else { return nil }
        let z2 = Double(1 << id.z)
        let extent = Double(options.extent)
        let p = options.radius / extent
        let x = Double(id.x), y = Double(id.y)
        let top = (y - p) / z2, bottom = (y + 1 + p) / z2
        var features: [GeoJSONTile.Feature] = []
        addFeatures(tree.range((x - p) / z2, top, (x + 1 + p) / z2, bottom), data, x: x, y: y, z2: z2, to: &features)
        if id.x == 0 {
            addFeatures(tree.range(1 - p / z2, top, 1, bottom), data, x: z2, y: y, z2: z2, to: &features)
        }
        if id.x == id.tilesPerSide - 1 {
            addFeatures(tree.range(0, top, p / z2, bottom), data, x: -1, y: y, z2: z2, to: &features)
        }
        return features.isEmpty ? nil : GeoJSONTile(id: id, features: features)
    }

    /// The tile as GL JS's GeoJSON worker hands it to buckets (nil where it hands none).
    public func vectorTile(_ id: CanonicalTileID) -> VectorTileData? { tile(id)?.vectorTileData() }

    /// The records of zoom `zoom`'s tree (clusters and lone points): id (a point's index) and point count.
    func records(atZoom zoom: Int) -> [(id: Double, count: Double)] {
        guard let (_, data) = trees[max(options.minZoom, min(zoom, options.maxZoom + 1))] else { return [] }
        return Swift.stride(from: 0, to: data.count, by: stride).map { (data[$0 + SuperclusterIndex.offsetID], data[$0 + SuperclusterIndex.offsetNum]) }
    }

    private func addFeatures(_ ids: [Int], _ data: [Double], x: Double, y: Double, z2: Double,
                             to features: inout [GeoJSONTile.Feature]) {
        let extent = Double(options.extent)
        for i in ids {
            let k = i * stride
            let isCluster = data[k + SuperclusterIndex.offsetNum] > 1
            let tags: JSONObject
            let px: Double, py: Double
            if isCluster {
                tags = clusterProperties(data, k)
                px = data[k]
                py = data[k + 1]
            } else {
                let p = points[Int(data[k + SuperclusterIndex.offsetID])]
                tags = p.properties
                let (lng, lat) = (try? SuperclusterIndex.coordinates(p.geometry!, index: 0)) ?? (.nan, .nan)
                px = SuperclusterIndex.lngX(lng)
                py = SuperclusterIndex.latY(lat)
            }
            let point = GeoJSONTile.Point(x: jsRound(extent * (px * z2 - x)), y: jsRound(extent * (py * z2 - y)))
            let id: JSONValue?
            if isCluster || options.generateId {
                id = .number(data[k + SuperclusterIndex.offsetID])
            } else {
                id = points[Int(data[k + SuperclusterIndex.offsetID])].id
            }
            features.append(GeoJSONTile.Feature(type: .point, geometry: [[point]], id: id, tags: tags))
        }
    }

    /// A cluster's properties: its reduced properties, then `cluster`, `cluster_id`,
    /// `point_count`, `point_count_abbreviated` (1234 → "1.2k", 12345 → "12k", below 1000 the number).
    private func clusterProperties(_ data: [Double], _ k: Int) -> JSONObject {
        let count = data[k + SuperclusterIndex.offsetNum]
        let abbreviated: JSONValue
        if count >= 10000 {
            abbreviated = .string(JSONValue.formatNumber(Double(jsRound(count / 1000))) + "k")
        } else if count >= 1000 {
            abbreviated = .string(JSONValue.formatNumber(Double(jsRound(count / 100)) / 10) + "k")
        } else {
            abbreviated = .number(count)
        }
        var properties = JSONObject()
        if stride == 7 {
            let index = Int(data[k + SuperclusterIndex.offsetProp])
            if index >= 0 && index < clusterProps.count { properties = clusterProps[index] }
        }
        properties["cluster"] = .bool(true)
        properties["cluster_id"] = .number(data[k + SuperclusterIndex.offsetID])
        properties["point_count"] = .number(count)
        properties["point_count_abbreviated"] = abbreviated
        return properties
    }

    // MARK: Building

    private static func makeTree(_ data: [Double], stride: Int, nodeSize: Int) -> KDBush {
        KDBush(count: data.count / stride, nodeSize: nodeSize) { (data[$0 * stride], data[$0 * stride + 1]) }
    }

    /// supercluster's `_cluster`: the records of zoom `zoom` from those of zoom + 1 (`data`, whose
    /// zoom and parent fields it marks).
    private static func cluster(_ data: inout [Double], tree: KDBush, zoom: Int, stride: Int,
                                options: SuperclusterOptions, points: [Feature],
                                clusterProps: inout [JSONObject]) -> [Double] {
        let r = options.radius / (Double(options.extent) * pow(2, Double(zoom)))
        let z = Double(zoom)
        let reduce = stride == 7
        var next: [Double] = []
        var i = 0
        while i < data.count {
            defer { i += stride }
            if data[i + offsetZoom] <= z { continue }
            data[i + offsetZoom] = z
            let x = data[i], y = data[i + 1]
            let neighbors = tree.within(x, y, r)
            let numPointsOrigin = data[i + offsetNum]
            var numPoints = numPointsOrigin
            for n in neighbors {
                let k = n * stride
                if data[k + offsetZoom] > z { numPoints += data[k + offsetNum] }
            }
            if numPoints > numPointsOrigin && numPoints >= Double(options.minPoints) {
                var wx = x * numPointsOrigin, wy = y * numPointsOrigin
                var propIndex = -1
                let id = Double(((i / stride) << 5) + (zoom + 1) + points.count)
                for n in neighbors {
                    let k = n * stride
                    if data[k + offsetZoom] <= z { continue }
                    data[k + offsetZoom] = z
                    let numPoints2 = data[k + offsetNum]
                    wx += data[k] * numPoints2
                    wy += data[k + 1] * numPoints2
                    data[k + offsetParent] = id
                    if reduce {
                        if propIndex < 0 {
                            propIndex = clusterProps.count
                            clusterProps.append(mapped(data, i, points: points, options: options, clusterProps: clusterProps))
                        }
                        let other = mapped(data, k, points: points, options: options, clusterProps: clusterProps)
                        for p in options.clusterProperties {
                            clusterProps[propIndex][p.name] = p.reduce(clusterProps[propIndex][p.name] ?? .null, other)
                        }
                    }
                }
                data[i + offsetParent] = id
                next.append(wx / numPoints)
                next.append(wy / numPoints)
                next.append(.infinity)
                next.append(id)
                next.append(-1)
                next.append(numPoints)
                if reduce { next.append(Double(propIndex)) }
            } else {
                next.append(contentsOf: data[i..<(i + stride)])
                if numPoints > 1 {
                    for n in neighbors {
                        let k = n * stride
                        if data[k + offsetZoom] <= z { continue }
                        data[k + offsetZoom] = z
                        next.append(contentsOf: data[k..<(k + stride)])
                    }
                }
            }
        }
        return next
    }

    /// supercluster's `_map`: a cluster's reduced properties, or a point's mapped ones (GL JS's
    /// map: each cluster property's map expression on the point's properties).
    private static func mapped(_ data: [Double], _ i: Int, points: [Feature], options: SuperclusterOptions,
                               clusterProps: [JSONObject]) -> JSONObject {
        if data[i + offsetNum] > 1 { return clusterProps[Int(data[i + offsetProp])] }
        let original = points[Int(data[i + offsetID])].properties
        var out = JSONObject()
        for p in options.clusterProperties { out[p.name] = p.map(original) }
        return out
    }

    /// A feature's [lng, lat] as supercluster reads `geometry.coordinates`: a Point's position;
    /// NaN for other geometries (JavaScript's arithmetic on arrays); a GeometryCollection throws.
    private static func coordinates(_ g: Geometry, index: Int) throws -> (Double, Double) {
        switch g {
        case .point(let p): return (p.lon, p.lat)
        case .geometryCollection:
            throw GeoJSONTilingError("feature \(index): a GeometryCollection in a clustered source (supercluster reads its coordinates and fails, so GL JS fails the source)")
        case .multiPoint, .lineString, .multiLineString, .polygon, .multiPolygon: return (.nan, .nan)
        }
    }

    /// Longitude to world x (0…1).
    static func lngX(_ lng: Double) -> Double { lng / 360 + 0.5 }

    /// Latitude to world y (0…1), clamped; V8's `Math.sin`/`Math.log`.
    static func latY(_ lat: Double) -> Double {
        let s = JavaScriptMath.sin(lat * Double.pi / 180)
        let y = 0.5 - 0.25 * JavaScriptMath.log((1 + s) / (1 - s)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }
}
