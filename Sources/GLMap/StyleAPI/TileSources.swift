import Foundation
import GLMapCore
import GLMapStyle

/// A style source as the Mapbox Maps SDK's `Source` protocol models one: an id, a type, and the
/// style JSON object it stands for (`Codable` through that object).
public protocol Source: Sendable {
    /// The source's id in the style.
    var id: String { get }
    /// The source's `type`.
    var type: SourceType { get }
    /// The source as a style JSON object (without its id).
    func styleJSONObject() throws -> JSONObject
}

/// A source over the generated key table `Table` of its type (`VectorSource`, `RasterSource`,
/// `RasterDemSource`, `ImageSource`, `VideoSource`): each key of the spec is a property by the
/// row's name (`source.url`, `source.tiles`, `source.maxzoom`, `source.encoding`), nil when unset.
/// `url` is a TileJSON or an archive (`mbtiles://PATH`, `pmtiles://PATH`); `tiles` are URL
/// templates (`{z}`, `{x}`, `{y}`, `{quadkey}`, `{bbox-epsg-3857}`, `{ratio}`; relative paths,
/// `file://`, http(s)).
@dynamicMemberLookup
public struct TypedSource<Table: SourcePropertyTable>: Source, Equatable, Codable {
    /// The source's id.
    public var id: String
    /// The keys that are set (besides `type`), as style JSON by spec name.
    public var styleValues: [String: JSONValue] = [:]

    /// A source with the given id (set `url` or `tiles`, or what its type requires).
    public init(id: String) { self.id = id }

    /// The source type of `Table`.
    public var type: SourceType { Table.sourceType }

    /// The key of the table row `key` (`source.maxzoom` for `VectorSourceProperties.maxzoom`).
    public subscript<T: StyleAPIRepresentable>(dynamicMember key: KeyPath<Table.Type, PropertyKey<T>>) -> T.APIValue? {
        get { styleValues[Table.self[keyPath: key].name].flatMap(T.APIValue.init(styleJSON:)) }
        set { styleValues[Table.self[keyPath: key].name] = newValue?.styleJSON }
    }

    /// The source as a style JSON object: `type`, then the keys set in spec order (keys the spec
    /// does not list, which vector and raster sources allow, last).
    public func styleJSONObject() throws -> JSONObject {
        var o = JSONObject([("type", .string(type.rawValue))])
        for row in Table.all where row.name != "type" { if let v = styleValues[row.name] { o[row.name] = v } }
        for (k, v) in styleValues.sorted(by: { $0.key < $1.key }) where o[k] == nil { o[k] = v }
        return o
    }

    /// Reads the source from its style JSON object with its `id` (as `JSONDecoder` decodes it).
    public init(from decoder: any Decoder) throws {
        self = try decodeStyleObject(from: decoder, kind: "a style source") { o, path in
            guard case .string(let id)? = o["id"] else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).id", message: "expected a string")])
            }
            guard o["type"]?.stringValue == Table.sourceType.rawValue else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).type", message: "expected \"\(Table.sourceType.rawValue)\"")])
            }
            var source = Self(id: id)
            var keys = o
            keys["id"] = nil
            keys["type"] = nil
            try decodeStyleValues(keys, table: Table.all, layout: nil, otherKeys: Table.allowsOtherKeys, path: path, into: &source.styleValues)
            return source
        }
    }

    /// Writes the source's style JSON object with its `id`.
    public func encode(to encoder: any Encoder) throws {
        var o = try styleJSONObject()
        o["id"] = .string(id)
        try JSONValue.object(o).encode(to: encoder)
    }
}

extension TypedSource where Table == ImageSourceProperties {
    /// An image source: the image (a path, `file://` or http(s) URL) placed by its corners
    /// ([longitude, latitude]: top left, top right, bottom right, bottom left).
    public init(id: String, url: String, coordinates: [[Double]]) {
        self.init(id: id)
        self.url = url
        self.coordinates = coordinates
    }
}

extension GeoJSONSource: Source {
    /// Always `.geojson`.
    public var type: SourceType { .geojson }
    /// The source as a style JSON object (Swift-built features written out as GeoJSON).
    public func styleJSONObject() throws -> JSONObject { try styleJSONObject(placeholder: false) }
}

extension Snapshotter {
    /// Adds any source (`VectorSource`, `RasterSource`, `RasterDemSource`, `ImageSource`,
    /// `GeoJSONSource`); throws when its id is taken or it is invalid.
    public func addSource(_ source: any Source) throws(StyleError) {
        if let g = source as? GeoJSONSource { return try addSource(g) }
        try addSource(withId: source.id, properties: try Snapshotter.asStyleError { try source.styleJSONObject() })
    }
}
