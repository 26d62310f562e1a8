/// An angle in degrees (a latitude or a longitude).
public typealias LocationDegrees = Double
/// A direction (bearing) in degrees clockwise from north.
public typealias LocationDirection = Double

/// A longitude/latitude pair in degrees (WGS 84); GeoJSON writes it as `[longitude, latitude]`.
public struct LocationCoordinate2D: Equatable, Hashable, Sendable {
    /// Degrees north (negative: south).
    public var latitude: LocationDegrees
    /// Degrees east (negative: west).
    public var longitude: LocationDegrees

    /// A coordinate from latitude and longitude in degrees.
    public init(latitude: LocationDegrees, longitude: LocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

#if !canImport(CoreLocation)
/// CoreLocation's name for a coordinate, so code written for iOS compiles on Linux.
public typealias CLLocationCoordinate2D = LocationCoordinate2D
/// CoreLocation's name for degrees.
public typealias CLLocationDegrees = LocationDegrees
/// CoreLocation's name for a bearing in degrees.
public typealias CLLocationDirection = LocationDirection
#endif

extension LocationCoordinate2D: Codable {
    /// Decodes a GeoJSON position `[longitude, latitude, altitude?]` (extra numbers are dropped).
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let lon = try c.decode(Double.self)
        let lat = try c.decode(Double.self)
        while !c.isAtEnd { _ = try c.decode(Double.self) }
        self.init(latitude: lat, longitude: lon)
    }

    /// Encodes as a GeoJSON position `[longitude, latitude]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(longitude)
        try c.encode(latitude)
    }
}
