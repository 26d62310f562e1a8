// Vector tile decoder — contract
// Input: the bytes of one Mapbox Vector Tile (spec 2.1, and version 1 tiles), uncompressed (the
// tile source inflates gzip/zlib first), and the source's `promoteId`.
// Output: `VectorTileData` as MapLibre GL JS's worker sees it through @mapbox/vector-tile and
// `loadGeometry`:
// - layers by name; a layer with no feature messages is left out, and a later layer of the same
//   name replaces an earlier one; `extent` defaults to 4096, `name` to "";
// - each feature's geometry from its MoveTo/LineTo/ClosePath commands with zigzag deltas: one
//   array per MoveTo (points: one array per point; lines: one per line; polygons: every ring in
//   order, windings kept, ClosePath repeating the ring's first point); a command's count of 0 still
//   runs it once and points before the first MoveTo are dropped, as vector-tile-js reads them
//   (a ClosePath runs once whatever its count: the spec's count is 1, and a larger one would
//   repeat points without reading input);
// - coordinates scaled from the layer's extent to `TileExtent.extent` (8192), rounded half up
//   (JavaScript's Math.round) and clamped to Int16; coordinates more than one unit past the Int16
//   range give one warning per tile;
// - id: the uint64 `id` as a JSON number (nil when absent) — or, with `promoteId`, the named
//   property (booleans as 0/1; nil when the feature lacks it or the layer is not named);
// - properties: the feature's tags over the layer's keys and values (string, float, double,
//   int64, uint64, sint64, bool; a value message with no known field is null; a repeated key keeps
//   its last value); `index` is the feature's position in its layer, dropped features counted.
// Dropped with a warning: features of UNKNOWN (or unknown-numbered) type, features whose
// geometry has an unknown command or is cut short, layers with extent 0. Unknown fields are skipped
// everywhere. Malformed protobuf (a length or varint running past its message, a bad wire type
// for a known field, a group) fails the whole tile with `VectorTileError` naming the layer and
// the byte offset. Never traps on any input; memory is bounded by the input (each point costs
// at least one input byte).
// Speed: one pass over the bytes per layer plus one per feature; keys and values are decoded
// once per layer; features with the same key sequence share one key table.
import GLMapCore
import GLMapGeoJSON

/// A source's `promoteId`: which property becomes the feature id.
public enum PromoteID: Sendable, Equatable {
    /// The same property name in every source layer.
    case property(String)
    /// A property name per source layer (layers not named keep no id).
    case perLayer([String: String])

    /// Parses the style's `promoteId` value (a string or an object of strings); nil otherwise.
    public init?(json: JSONValue) {
        switch json {
        case .string(let s): self = .property(s)
        case .object(let o):
            var m: [String: String] = [:]
            for (k, v) in o.pairs {
                guard let s = v.stringValue else { return nil }
                m[k] = s
            }
            self = .perLayer(m)
        default: return nil
        }
    }

    /// The property that holds the id in `layer` (nil: the layer promotes nothing).
    public func property(forLayer layer: String) -> String? {
        switch self {
        case .property(let p): return p
        case .perLayer(let m): return m[layer]
        }
    }
}

/// A vector tile that cannot be decoded at all (malformed protobuf).
public struct VectorTileError: GLMapError, Equatable {
    /// What is wrong, with the layer and byte offset where known.
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `corrupt vector tile: <message>`.
    public var description: String { "corrupt vector tile: \(message)" }
    /// An error with this message.
    public init(_ message: String) { self.message = message }
}

/// A decoded tile and what was dropped or clamped on the way.
public struct DecodedVectorTile: Sendable {
    /// The tile's layers and features.
    public var data: VectorTileData
    /// Warnings, at most one of each kind per tile (clamped coordinates, dropped features).
    public var warnings: [String]
}

/// Decodes Mapbox Vector Tiles into `VectorTileData` (see the contract above).
public enum VectorTileDecoder {
    /// Decodes `bytes` (uncompressed MVT); `promoteId` chooses the property used as feature id.
    public static func decode(_ bytes: [UInt8], promoteId: PromoteID? = nil) throws(VectorTileError) -> DecodedVectorTile {
        let result: Result<DecodedVectorTile, VectorTileError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return .success(DecodedVectorTile(data: VectorTileData(), warnings: []))
            }
            var state = TileState(promoteId: promoteId)
            do throws(ProtobufError) {
                try state.decodeTile(base, count: buffer.count)
            } catch {
                return .failure(VectorTileError(state.layerContext + error.description))
            }
            return .success(DecodedVectorTile(data: VectorTileData(layers: state.layers), warnings: state.warnings))
        }
        return try result.get()
    }
}

/// The decoder's per-tile working state.
private struct TileState {
    let promoteId: PromoteID?
    var layers: [String: TileLayer] = [:]
    var warnings: [String] = []
    var layerContext = ""
    var clampedPoints = 0
    var clampedLayer = ""
    var droppedUnknown = 0
    var droppedBadGeometry: (count: Int, layer: String, reason: String)?
    /// 8192 / extent when that is an integer, else 0.
    var integerScale: Int64 = 0

    init(promoteId: PromoteID?) { self.promoteId = promoteId }

    mutating func decodeTile(_ base: UnsafePointer<UInt8>, count: Int) throws(ProtobufError) {
        var r = ProtobufReader(base, from: 0, to: count)
        var layerIndex = 0
        while !r.atEnd {
            let (field, wire) = try r.key()
            if field == 3 {
                layerContext = "layer #\(layerIndex): "
                guard wire == 2 else { throw ProtobufError("tile field 3 (layer) has wire type \(wire), expected 2", offset: r.pos) }
                let range = try r.lengthDelimited()
                try decodeLayer(base, range)
                layerContext = ""
                layerIndex += 1
            } else {
                try r.skip(wire: wire)
            }
        }
        if clampedPoints > 0 {
            warnings.append("\(clampedPoints) coordinate\(clampedPoints == 1 ? "" : "s") in layer \"\(clampedLayer)\"\(clampedPoints == 1 ? " lies" : " lie") outside the Int16 range of tile coordinates and \(clampedPoints == 1 ? "was" : "were") clamped (reduce the tile's buffer)")
        }
        if droppedUnknown > 0 {
            warnings.append("\(droppedUnknown) feature\(droppedUnknown == 1 ? "" : "s") of unknown geometry type dropped")
        }
        if let d = droppedBadGeometry {
            warnings.append("\(d.count) feature\(d.count == 1 ? "" : "s") with unreadable geometry dropped (first in layer \"\(d.layer)\": \(d.reason))")
        }
    }

    mutating func decodeLayer(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) throws(ProtobufError) {
        var r = ProtobufReader(base, from: range.lowerBound, to: range.upperBound)
        var name = ""
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [JSONValue] = []
        var features: [Range<Int>] = []
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): name = r.string(try r.lengthDelimited())
            case (2, 2): features.append(try r.lengthDelimited())
            case (3, 2): keys.append(r.string(try r.lengthDelimited()))
            case (4, 2): values.append(try decodeValue(base, try r.lengthDelimited()))
            case (5, 0): extent = try r.varint()
            case (15, 0): _ = try r.varint()   // version: 1 and 2 read alike
            case (1, _), (2, _), (3, _), (4, _), (5, _):
                throw ProtobufError("layer field \(field) has wire type \(wire)", offset: r.pos)
            default: try r.skip(wire: wire)
            }
        }
        layerContext = "layer \"\(name)\": "
        guard !features.isEmpty else { return }
        guard extent > 0 else {
            warnings.append("layer \"\(name)\" has extent 0 and was dropped")
            return
        }
        let scale = Double(TileExtent.extent) / Double(extent)
        integerScale = extent <= UInt64(TileExtent.extent) && UInt64(TileExtent.extent) % extent == 0 ? Int64(UInt64(TileExtent.extent) / extent) : 0
        var out: [TileFeature] = []
        out.reserveCapacity(features.count)
        var tables = KeyTables()
        let promoted = promoteId.map { $0.property(forLayer: name) }
        for (index, f) in features.enumerated() {
            if let feature = try decodeFeature(base, f, index: index, layer: name, scale: scale, keys: keys, values: values,
                                               tables: &tables, promoted: promoted) {
                out.append(feature)
            }
        }
        layers[name] = TileLayer(name: name, features: out)
    }

    /// A `Value` message: the last known field wins; none gives null.
    func decodeValue(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) throws(ProtobufError) -> JSONValue {
        var r = ProtobufReader(base, from: range.lowerBound, to: range.upperBound)
        var value = JSONValue.null
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): value = .string(r.string(try r.lengthDelimited()))
            case (2, 5): value = .number(Double(Float(bitPattern: try r.fixed32())))
            case (3, 1): value = .number(Double(bitPattern: try r.fixed64()))
            case (4, 0): value = .number(Double(Int64(bitPattern: try r.varint())))
            case (5, 0): value = .number(Double(try r.varint()))
            case (6, 0): value = .number(Double(try r.svarint()))
            case (7, 0): value = .bool(try r.varint() != 0)
            default: try r.skip(wire: wire)
            }
        }
        return value
    }

    mutating func decodeFeature(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, index: Int, layer: String, scale: Double,
                                keys: [String], values: [JSONValue], tables: inout KeyTables,
                                promoted: String??) throws(ProtobufError) -> TileFeature? {
        var r = ProtobufReader(base, from: range.lowerBound, to: range.upperBound)
        var id: UInt64?
        var type: UInt64 = 0
        var tags: Range<Int>?
        var geometry: Range<Int>?
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2): tags = try r.lengthDelimited()
            case (3, 0): type = try r.varint()
            case (4, 2): geometry = try r.lengthDelimited()
            case (1, _), (2, _), (3, _), (4, _):
                throw ProtobufError("feature #\(index) field \(field) has wire type \(wire)", offset: r.pos)
            default: try r.skip(wire: wire)
            }
        }
        let geometryType: FeatureGeometryType
        switch type {
        case 1: geometryType = .point
        case 2: geometryType = .lineString
        case 3: geometryType = .polygon
        default:
            droppedUnknown += 1
            return nil
        }
        var rings: [[TilePoint]] = []
        if let geometry {
            do {
                rings = try decodeGeometry(base, geometry, scale: scale, layer: layer)
            } catch {
                if droppedBadGeometry == nil { droppedBadGeometry = (0, layer, "feature #\(index): \(error.message)") }
                droppedBadGeometry!.count += 1
                return nil
            }
        }
        let properties = try decodeTags(base, tags, keys: keys, values: values, tables: &tables)
        var featureID: JSONValue? = id.map { .number(Double($0)) }
        if let promoted {
            featureID = nil
            if let p = promoted, let v = properties[p] {
                switch v {
                case .bool(let b): featureID = .number(b ? 1 : 0)
                case .string, .number: featureID = v
                default: featureID = nil
                }
            }
        }
        return TileFeature(type: geometryType, geometry: rings, id: featureID, properties: properties, index: index)
    }

    func decodeTags(_ base: UnsafePointer<UInt8>, _ range: Range<Int>?, keys: [String], values: [JSONValue],
                    tables: inout KeyTables) throws(ProtobufError) -> JSONObject {
        guard let range, !range.isEmpty else { return JSONObject() }
        var r = ProtobufReader(base, from: range.lowerBound, to: range.upperBound)
        tables.scratchKeys.removeAll(keepingCapacity: true)
        var items: [JSONValue] = []
        items.reserveCapacity(range.count / 2)
        while !r.atEnd {
            let k = try r.varint()
            guard !r.atEnd else { break }   // a key without a value
            let v = try r.varint()
            guard k < UInt64(keys.count), v < UInt64(values.count) else { continue }
            tables.scratchKeys.append(UInt32(k))
            items.append(values[Int(v)])
        }
        if items.isEmpty { return JSONObject() }
        if let table = tables.table(for: keys) {
            return JSONObject(table: table, items: items)
        }
        return JSONObject(names: tables.scratchKeys.map { keys[Int($0)] }, values: items)
    }

    mutating func decodeGeometry(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, scale: Double,
                                 layer: String) throws(ProtobufError) -> [[TilePoint]] {
        var r = ProtobufReader(base, from: range.lowerBound, to: range.upperBound)
        var lines: [[TilePoint]] = []
        var line: [TilePoint] = []
        var hasLine = false
        var cmd: UInt64 = 1
        var length: Int64 = 0
        var x: Int64 = 0, y: Int64 = 0
        while !r.atEnd {
            if length <= 0 {
                let c = try r.varint()
                cmd = c & 7
                length = Int64(truncatingIfNeeded: c >> 3)
                if length < 0 { length = Int64.max }
                if cmd == 1 || cmd == 2 {
                    // Each point takes at least two bytes: never reserve past what the input holds.
                    let n = Int(min(UInt64(length), UInt64(r.end - r.pos) / 2))
                    if cmd == 2 && hasLine { line.reserveCapacity(line.count + n) }
                }
            }
            length -= 1
            switch cmd {
            case 1, 2:
                x = x &+ (try r.svarint())
                y = y &+ (try r.svarint())
                if cmd == 1 {
                    if hasLine { lines.append(line) }
                    line = []
                    hasLine = true
                }
                if hasLine { line.append(point(x, y, scale: scale, layer: layer)) }
            case 7:
                // One ClosePath per command, whatever its count (the spec's count is 1; a larger
                // one would repeat the point without reading a byte).
                length = 0
                if hasLine, let first = line.first { line.append(first) }
            default:
                throw ProtobufError("unknown geometry command \(cmd)", offset: r.pos)
            }
        }
        if hasLine { lines.append(line) }
        return lines
    }

    /// One point scaled to 8192 units, rounded as Math.round does and clamped to Int16.
    @inline(__always)
    mutating func point(_ x: Int64, _ y: Int64, scale: Double, layer: String) -> TilePoint {
        // Extents dividing 8192 (4096, 1024, …): an exact integer product, the same value the
        // double product rounds to.
        if integerScale != 0 {
            let (px, ox) = x.multipliedReportingOverflow(by: integerScale)
            let (py, oy) = y.multipliedReportingOverflow(by: integerScale)
            if !ox && !oy && px >= -32768 && px <= 32767 && py >= -32768 && py <= 32767 { return TilePoint(Int16(px), Int16(py)) }
        }
        let sx = mathRound(Double(x) * scale), sy = mathRound(Double(y) * scale)
        if sx >= -32768 && sx <= 32767 && sy >= -32768 && sy <= 32767 {
            return TilePoint(Int16(sx), Int16(sy))
        }
        // GL JS warns unless the value is at most one unit past the range.
        if sx < -32768 || sx > 32768 || sy < -32768 || sy > 32768 {
            if clampedPoints == 0 { clampedLayer = layer }
            clampedPoints += 1
        }
        return TilePoint(Int16(min(max(sx, -32768), 32767)), Int16(min(max(sy, -32768), 32767)))
    }
}

/// JavaScript's Math.round: the nearest integer, halves toward +∞.
@inline(__always)
func mathRound(_ v: Double) -> Double {
    let f = v.rounded(.down)
    return v - f >= 0.5 ? f + 1 : f
}

/// Key tables shared by the features of one layer with the same key sequence.
private struct KeyTables {
    var scratchKeys: [UInt32] = []
    private var lastKeys: [UInt32] = []
    private var lastTable: JSONObject.KeyTable?
    private var cache: [[UInt32]: JSONObject.KeyTable?] = [:]

    /// The table for `scratchKeys` (nil when the sequence repeats a key: the caller merges).
    mutating func table(for keys: [String]) -> JSONObject.KeyTable? {
        if let lastTable, lastKeys == scratchKeys { return lastTable }
        let table: JSONObject.KeyTable?
        if let cached = cache[scratchKeys] {
            table = cached
        } else {
            let names = scratchKeys.map { keys[Int($0)] }
            table = JSONObject.repeats(names) ? nil : JSONObject.KeyTable(names)
            if cache.count < 4096 { cache[scratchKeys] = table }
        }
        if let table { lastKeys = scratchKeys; lastTable = table }
        return table
    }
}
