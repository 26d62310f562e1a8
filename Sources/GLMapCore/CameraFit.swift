// Camera fit — contract
// Input: a longitude/latitude box (west > east crosses the antimeridian), a viewport of
// width × height CSS pixels, padding in CSS pixels per edge, the bearing and pitch to look with,
// and the camera the fit starts from. Output: the camera whose viewport shows the box as large as
// the padded viewport allows, computed as MapLibre Native's `cameraForLatLngBounds` does: the
// box's four corners are projected through the starting camera turned to `bearing` and tilted to
// `pitch`; the zoom grows by log2 of how much the corners' screen rectangle must scale to fill the
// padded viewport, and the new center is the ground point under that rectangle's center. Without
// pitch the result is exact and independent of the starting camera; with pitch it is Native's one
// step, so it depends on the start as Native's does (the CLI starts from the style's camera).
// Asymmetric padding moves the center so the box's center sits at the padded viewport's center
// (MapLibre also moves the vanishing point under pitch; glmap has no padding in its camera).
// Zoom is clamped to `zoomRange` (default 0…24, glmap's camera range).
import Foundation

/// A longitude/latitude box in degrees; `west > east` means it crosses the antimeridian.
public struct LngLatBounds: Equatable, Sendable {
    /// West edge in degrees, −180…180.
    public var west: Double
    /// South edge in degrees, −90…90.
    public var south: Double
    /// East edge in degrees, −180…180 (less than `west` across the antimeridian).
    public var east: Double
    /// North edge in degrees, −90…90.
    public var north: Double

    /// A box; `west > east` crosses the antimeridian (e.g. 170…−170 is 20° wide).
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west; self.south = south; self.east = east; self.north = north
    }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { west > east }

    /// The east edge unwrapped so that `west ≤ unwrappedEast` (east + 360 across the antimeridian).
    public var unwrappedEast: Double { crossesAntimeridian ? east + 360 : east }

    /// The smallest box holding `points` (longitude, latitude); nil when there are none. Longitudes
    /// are taken as they are (a box over data spanning ±180 is the whole width, never wrapped).
    public static func enclosing<S: Sequence>(_ points: S) -> LngLatBounds? where S.Element == (Double, Double) {
        var w = Double.infinity, s = Double.infinity, e = -Double.infinity, n = -Double.infinity
        for (lon, lat) in points {
            w = min(w, lon); e = max(e, lon); s = min(s, lat); n = max(n, lat)
        }
        guard w.isFinite, s.isFinite, e.isFinite, n.isFinite else { return nil }
        return LngLatBounds(west: w, south: s, east: e, north: n)
    }

    /// Parses "W,S,E,N" in degrees for the flag `name` (e.g. "--bounds"): −180 ≤ W, E ≤ 180,
    /// −90 ≤ S < N ≤ 90, W ≠ E; W > E crosses the antimeridian.
    public static func parse(_ text: String, flag name: String) throws -> LngLatBounds {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
              [w, s, e, n].allSatisfy({ $0.isFinite }) else {
            throw InputFailure("\(name) expects W,S,E,N in degrees (e.g. -10,35,30,60), got \"\(text)\"")
        }
        guard (-180...180).contains(w), (-180...180).contains(e), w != e else {
            throw InputFailure("\(name): need -180 ≤ west, east ≤ 180 and west ≠ east (west > east crosses the antimeridian), got west \(w), east \(e)")
        }
        guard s >= -90, n <= 90, s < n else {
            throw InputFailure("\(name): need -90 ≤ south < north ≤ 90, got south \(s), north \(n)")
        }
        return LngLatBounds(west: w, south: s, east: e, north: n)
    }
}

/// Padding inside the viewport, in CSS pixels per edge.
public struct EdgeInsets: Equatable, Sendable {
    /// Top padding in CSS pixels.
    public var top: Double
    /// Left padding in CSS pixels.
    public var left: Double
    /// Bottom padding in CSS pixels.
    public var bottom: Double
    /// Right padding in CSS pixels.
    public var right: Double

    /// Padding per edge in CSS pixels (default 0 everywhere).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same padding on every edge.
    public init(all p: Double) { self.init(top: p, left: p, bottom: p, right: p) }

    /// No padding.
    public static let zero = EdgeInsets()
}

extension Camera {
    /// The camera that fits `bounds` in a `width × height` viewport as MapLibre Native's
    /// `cameraForLatLngBounds` does (see CameraFit.swift's contract); throws when the padding
    /// leaves no room or the viewport is empty.
    public static func fitting(_ bounds: LngLatBounds, width: Double, height: Double, padding: EdgeInsets = .zero,
                               bearing: Double = 0, pitch: Double = 0, from start: Camera = Camera(),
                               zoomRange: ClosedRange<Double> = 0...24) throws -> Camera {
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw InputFailure("fitting bounds needs a viewport of at least 1×1 CSS pixels, got \(width)x\(height)")
        }
        let insets = [padding.top, padding.left, padding.bottom, padding.right]
        guard insets.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
            throw InputFailure("padding must be finite and at least 0, got \(insets)")
        }
        let roomX = width - padding.left - padding.right, roomY = height - padding.top - padding.bottom
        guard roomX > 0, roomY > 0 else {
            throw InputFailure("padding \(insets.map { String(format: "%g", $0) }.joined(separator: ",")) leaves no room in a \(Int(width))x\(Int(height)) viewport")
        }
        let view = ViewTransform(camera: Camera(longitude: start.longitude, latitude: start.latitude, zoom: start.zoom,
                                                bearing: bearing, pitch: pitch),
                                 width: width, height: height, constrain: false)
        let east = bounds.unwrappedEast
        let corners = [(bounds.west, bounds.north), (bounds.west, bounds.south), (east, bounds.south), (east, bounds.north)]
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (lon, lat) in corners {
            guard let p = view.screenPoint(lon: lon, lat: lat) else {
                throw InputFailure("the bounds reach behind the camera at pitch \(pitch); fit them with less pitch")
            }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let boxW = maxX - minX, boxH = maxY - minY
        var scale = Double.infinity
        if boxW > 0 { scale = roomX / boxW }
        if boxH > 0 { scale = min(scale, roomY / boxH) }
        let zoom = min(max(start.zoom + log2(scale), zoomRange.lowerBound), zoomRange.upperBound)
        guard let center = view.groundPoint(screenX: (minX + maxX) / 2, screenY: (minY + maxY) / 2) else {
            throw InputFailure("the center of the bounds is above the horizon at pitch \(pitch)")
        }
        var fitted = Camera(longitude: center.lon, latitude: center.lat, zoom: zoom, bearing: bearing, pitch: pitch)
        // Asymmetric padding: put the box's center at the padded viewport's center.
        let dx = (padding.left - padding.right) / 2, dy = (padding.top - padding.bottom) / 2
        if dx != 0 || dy != 0 {
            let v = ViewTransform(camera: fitted, width: width, height: height, constrain: false)
            if let shifted = v.groundPoint(screenX: width / 2 - dx, screenY: height / 2 - dy) {
                fitted.longitude = shifted.lon
                fitted.latitude = shifted.lat
            }
        }
        fitted.longitude = ViewTransform.wrap(fitted.longitude)
        return fitted
    }
}

extension ViewTransform {
    /// The longitude/latitude on the ground (z = 0) under a screen point in CSS pixels (y down);
    /// nil at or above the horizon.
    public func groundPoint(screenX: Double, screenY: Double) -> (lon: Double, lat: Double)? {
        let u = screenX / width * 2 - 1, v = 1 - screenY / height * 2
        let m = projectionMatrix.m
        // Ground points (X, Y, 0, 1) map to clip (x, y, w) by a 3×3 homography; invert it.
        let a = [[m[0], m[4], m[12]], [m[1], m[5], m[13]], [m[3], m[7], m[15]]]
        let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        guard det != 0, det.isFinite else { return nil }
        // Cramer's rule for a · (X, Y, W) = (u, v, 1).
        func solve(_ col: Int) -> Double {
            var b = a
            let rhs = [u, v, 1.0]
            for r in 0..<3 { b[r][col] = rhs[r] }
            return (b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
                - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
                + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0])) / det
        }
        let x = solve(0), y = solve(1), w = solve(2)
        guard w > 0 else { return nil }
        // A point above the horizon solves with the camera behind it: check it projects forward.
        let check = projectionMatrix.transform(x / w, y / w, 0)
        guard check.w > 0 else { return nil }
        return WebMercator.unproject(x: x / w / worldSize, y: y / w / worldSize)
    }
}
