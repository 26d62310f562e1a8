import Foundation
import GLMapCore

/// The tiles a source shows in a view, as MapLibre's `coveringTiles` chooses them (Web Mercator):
/// the covering zoom is the view's zoom adjusted for the source's tile size, floored (vector,
/// GeoJSON) or rounded (raster), at least 0 and at most the source's maxzoom — past it the
/// maxzoom tiles are over-scaled (drawn at the deeper zoom); tiles are found depth-first from the
/// root of each world copy (the primary world and three copies on each side) by testing tile
/// boxes against the view frustum; under strong pitch (beyond MapLibre's constant-zoom pitch)
/// tiles farther from the camera are taken at shallower zooms. The result is ordered by distance
/// from the view's centre, nearest first.
public struct TileCover: Sendable {
    /// The view.
    public let view: ViewTransform
    /// The frustum in unit-world x, y (z in world pixels), as six planes (a, b, c, d: inside when
    /// a·x + b·y + c·z + d ≥ 0), and its corners' bounding box.
    let planes: [(Double, Double, Double, Double)]
    let frustumMin: (Double, Double, Double)
    let frustumMax: (Double, Double, Double)

    /// Prepares the frustum of `view`.
    public init(view: ViewTransform) {
        self.view = view
        let inv = view.projectionMatrix.inverted ?? .identity
        let corners: [(Double, Double, Double)] = [(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1),
                                                   (-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)]
        let points = corners.map { c -> (Double, Double, Double) in
            let v = inv.transform(c.0, c.1, c.2)
            let s = 1 / v.w / view.worldSize
            return (v.x * s, v.y * s, v.z / v.w)
        }
        let indices = [[0, 1, 2], [6, 5, 4], [0, 3, 7], [2, 1, 5], [3, 2, 6], [0, 4, 5]]
        planes = indices.map { p in
            let a = (points[p[0]].0 - points[p[1]].0, points[p[0]].1 - points[p[1]].1, points[p[0]].2 - points[p[1]].2)
            let b = (points[p[2]].0 - points[p[1]].0, points[p[2]].1 - points[p[1]].1, points[p[2]].2 - points[p[1]].2)
            var n = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
            let len = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
            if len > 0 { n = (n.0 / len, n.1 / len, n.2 / len) }
            let q = points[p[1]]
            return (n.0, n.1, n.2, -(n.0 * q.0 + n.1 * q.1 + n.2 * q.2))
        }
        var lo = (Double.infinity, Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity, -Double.infinity)
        for p in points {
            lo = (min(lo.0, p.0), min(lo.1, p.1), min(lo.2, p.2))
            hi = (max(hi.0, p.0), max(hi.1, p.1), max(hi.2, p.2))
        }
        frustumMin = lo
        frustumMax = hi
    }

    /// MapLibre's covering zoom for a source of `tileSize` CSS pixels: the view zoom plus
    /// log2(512 / tileSize), floored or rounded, at least 0.
    public func coveringZoom(tileSize: Double = 512, round: Bool = false) -> Int {
        let z = view.camera.zoom + log2(WebMercator.tileSize / tileSize)
        return max(0, Int(round ? z.rounded(.toNearestOrAwayFromZero) : z.rounded(.down)))
    }

    enum Intersection { case none, partial, full }

    func intersect(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Intersection {
        var full = true
        for p in planes {
            var dMin = p.3, dMax = p.3
            if p.0 > 0 { dMin += p.0 * minX; dMax += p.0 * maxX } else { dMax += p.0 * minX; dMin += p.0 * maxX }
            if p.1 > 0 { dMin += p.1 * minY; dMax += p.1 * maxY } else { dMax += p.1 * minY; dMin += p.1 * maxY }
            // z = 0 for both corners (no elevation). A box that touches a plane to within rounding
            // counts as touching it (MapLibre's exact arithmetic keeps such edge tiles).
            if dMin >= 0 { continue }
            if dMax < -1e-12 { return .none }
            full = false
        }
        if full { return .full }
        let e = 1e-12
        if frustumMin.0 > maxX + e || frustumMin.1 > maxY + e || frustumMin.2 > e
            || frustumMax.0 < minX - e || frustumMax.1 < minY - e || frustumMax.2 < -e { return .none }
        return .partial
    }

    /// The tiles covering the view for a source: `tileSize` in CSS pixels (512 vector/GeoJSON,
    /// often 256 raster), `round` for raster sources, `minzoom`/`maxzoom` the source's zoom range
    /// (no tile shallower than minzoom is returned; deeper than maxzoom the maxzoom tile is
    /// over-scaled to the covering zoom), `worldCopies` whether copies beside the primary world
    /// are included (MapLibre's `renderWorldCopies`, on by default), `reparseOverscaled` whether
    /// a maxzoom tile shown deeper is laid out again at the deeper zoom (vector and GeoJSON
    /// sources; raster tiles are only magnified and keep their own zoom).
    public func tiles(tileSize: Double = 512, round: Bool = false, minzoom: Int = 0, maxzoom: Int = 22,
                      worldCopies: Bool = true, reparseOverscaled: Bool = true) -> [OverscaledTileID] {
        let camera = view.camera
        let desiredZ = coveringZoom(tileSize: tileSize, round: round)
        let maxZ = max(0, min(maxzoom, CanonicalTileID.maxZoom))
        let nominalZ = min(desiredZ, maxZ)
        let numTiles = exp2(Double(nominalZ))
        // The camera and the centre in unit-world coordinates (MapLibre's mercator camera position).
        let center = WebMercator.project(lon: camera.longitude, lat: camera.latitude)
        let pitch = camera.pitch * Double.pi / 180, bearing = camera.bearing * Double.pi / 180
        let distance = view.cameraToCenterDistance / view.worldSize   // in unit-world
        // The camera sits behind the centre, against the bearing (south of it when north is up).
        let cameraX = center.x - sin(pitch) * distance * sin(bearing)
        let cameraY = center.y + sin(pitch) * distance * cos(bearing)
        let cameraZ = cos(pitch) * distance
        let distanceToCenter3d = distance
        // Variable zoom under strong pitch (MapLibre: pitch past clamp(78.5 − fov/2, 0, 60)).
        let fovDegrees = ViewTransform.fieldOfView * 180 / Double.pi
        let maxConstantZoomPitch = min(max(78.5 - fovDegrees / 2, 0), 60)
        let variableZoom = camera.pitch > maxConstantZoomPitch
        let zoomOffset = log2(WebMercator.tileSize / tileSize)

        struct Entry { var zoom: Int; var x: Int; var y: Int; var wrap: Int; var fullyVisible: Bool }
        var stack: [Entry] = []
        if worldCopies {
            for i in 1...3 { stack.append(Entry(zoom: 0, x: 0, y: 0, wrap: -i, fullyVisible: false)); stack.append(Entry(zoom: 0, x: 0, y: 0, wrap: i, fullyVisible: false)) }
        }
        stack.append(Entry(zoom: 0, x: 0, y: 0, wrap: 0, fullyVisible: false))
        var result: [(id: OverscaledTileID, distance: Double)] = []
        while let it = stack.popLast() {
            let n = Double(1 << it.zoom)
            let minX = Double(it.wrap) + Double(it.x) / n, maxX = Double(it.wrap) + Double(it.x + 1) / n
            let minY = Double(it.y) / n, maxY = Double(it.y + 1) / n
            var fullyVisible = it.fullyVisible
            if !fullyVisible {
                switch intersect(minX: minX, minY: minY, maxX: maxX, maxY: maxY) {
                case .none: continue
                case .full: fullyVisible = true
                case .partial: break
                }
            }
            var thisZ = Double(desiredZ)
            if variableZoom {
                let dx = max(min(maxX, cameraX), minX) - cameraX, dy = max(min(maxY, cameraY), minY) - cameraY
                thisZ = TileCover.tileZoom(requestedCenterZoom: camera.zoom + zoomOffset, distanceToTile2D: (dx * dx + dy * dy).squareRoot(),
                                           distanceToTileZ: cameraZ, distanceToCenter3D: distanceToCenter3d, fovDegrees: fovDegrees)
                thisZ = round ? thisZ.rounded(.toNearestOrAwayFromZero) : thisZ.rounded(.down)
                thisZ = max(0, thisZ)
            }
            let z = min(Int(thisZ), maxZ)
            if it.zoom >= z {
                if it.zoom < minzoom { continue }
                let overscaledZ = it.zoom == maxZ && reparseOverscaled ? max(it.zoom, Int(thisZ)) : it.zoom
                let canonical = CanonicalTileID(it.zoom, it.x, it.y)
                let cx = center.x * numTiles, cy = center.y * numTiles
                let d = (cx - 0.5 - Double(it.x)) * (cx - 0.5 - Double(it.x)) + (cy - 0.5 - Double(it.y)) * (cy - 0.5 - Double(it.y))
                result.append((OverscaledTileID(overscaledZ: overscaledZ, wrap: it.wrap, canonical: canonical), d))
                continue
            }
            for i in 0..<4 {
                stack.append(Entry(zoom: it.zoom + 1, x: (it.x << 1) + (i % 2), y: (it.y << 1) + (i >> 1), wrap: it.wrap, fullyVisible: fullyVisible))
            }
        }
        // Stable order: by distance, then MapLibre's tile order for ties.
        return result.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }.map(\.id)
    }

    /// MapLibre's per-tile zoom under strong pitch (`createCalculateTileZoomFunction(9.314, 3)`).
    static func tileZoom(requestedCenterZoom: Double, distanceToTile2D: Double, distanceToTileZ: Double,
                         distanceToCenter3D: Double, fovDegrees: Double) -> Double {
        let maxHorizonAngle = 85.0
        func rad(_ d: Double) -> Double { d * Double.pi / 180 }
        func integral(_ p: Double, _ x1: Double, _ x2: Double) -> Double {
            let n = 10, dx = (x2 - x1) / Double(n)
            var sum = 0.0
            for i in 0..<n { sum += dx * pow(cos(x1 + (Double(i) + 0.5) / Double(n) * (x2 - x1)), p) }
            return sum
        }
        let behaviour = 2 * ((9.314 - 1) / log2(cos(rad(maxHorizonAngle - fovDegrees)) / cos(rad(maxHorizonAngle))) - 1)
        let centerPitch = acos(distanceToTileZ / distanceToCenter3D)
        let countPitch0 = 2 * integral(behaviour - 1, 0, rad(fovDegrees / 2))
        let highest = min(rad(maxHorizonAngle), centerPitch + rad(fovDegrees / 2))
        let lowest = min(highest, centerPitch - rad(fovDegrees / 2))
        let count = integral(behaviour - 1, lowest, highest)
        let tilePitch = atan(distanceToTile2D / distanceToTileZ)
        let distance3D = (distanceToTile2D * distanceToTile2D + distanceToTileZ * distanceToTileZ).squareRoot()
        var z = requestedCenterZoom + log2(distanceToCenter3D / distance3D / max(0.5, cos(rad(fovDegrees / 2))))
        z += behaviour * log2(cos(tilePitch)) / 2
        z -= log2(max(1, count / countPitch0 / 3.0)) / 2
        return z
    }
}
