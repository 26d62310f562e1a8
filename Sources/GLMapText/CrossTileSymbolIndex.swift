// CrossTileSymbolIndex — contract
// Input: per symbol layer, its tiles' layouts in GL JS's placement order (deeper zooms first,
// then `isLessThan`: world copy, zoom, column, row). Output: a cross-tile id per symbol instance:
// the same id for the same label (same text, anchors within about 4 px once brought to a common
// zoom) in a parent and a child tile of the layer, a new id otherwise — GL JS's
// `CrossTileSymbolIndex.addLayer` for a frame whose tiles are all loaded. Placement shows only
// the first instance of an id (`seenCrossTileIDs`), so a label is drawn once across tiles and
// zooms. Ids are unique across layers (one generator).
import Foundation
import GLMapTiles

/// Assigns cross-tile ids (see the contract above).
public struct CrossTileSymbolIndex: Sendable {
    private var maxID = 0

    /// A fresh index.
    public init() {}

    /// Matches the instances of one layer's tiles (in placement order); ids per tile, per instance.
    public mutating func assign(_ tiles: [(tile: OverscaledTileID, layout: SymbolTileLayout)]) -> [[Int]] {
        // Anchors rounded to about a 4-pixel grid at the tile's own zoom.
        let roundingFactor = 512.0 / 8192.0 / 2
        struct Index {
            let tile: OverscaledTileID
            var byKey: [String: [(x: Double, y: Double, id: Int)]]
        }
        var indexes: [Int: [Index]] = [:]   // by overscaled zoom
        var usedByZoom: [Int: Set<Int>] = [:]
        var result: [[Int]] = []
        func scaled(_ instance: SymbolInstanceRecord, child: OverscaledTileID, into index: Index) -> (x: Double, y: Double) {
            let local = index.tile.canonical, c = child.canonical
            let scale = roundingFactor / pow(2, Double(c.z - local.z))
            let xWorld = (Double(c.x) * 8192 + instance.anchorX) * scale, yWorld = (Double(c.y) * 8192 + instance.anchorY) * scale
            return ((xWorld - Double(local.x) * 8192 * roundingFactor).rounded(.down), (yWorld - Double(local.y) * 8192 * roundingFactor).rounded(.down))
        }
        for (tile, layout) in tiles {
            var ids = [Int](repeating: 0, count: layout.instances.count)
            var used = usedByZoom[tile.overscaledZ] ?? []
            for zoom in indexes.keys.sorted() {
                for index in indexes[zoom]! {
                    let isChild = zoom > tile.overscaledZ ? index.tile.isChild(of: tile) : index.tile == tile.scaled(to: zoom)
                    guard isChild else { continue }
                    let tolerance = index.tile.canonical.z < tile.canonical.z ? 1.0 : pow(2, Double(index.tile.canonical.z - tile.canonical.z))
                    for (i, instance) in layout.instances.enumerated() where ids[i] == 0 {
                        guard let entries = index.byKey[instance.key] else { continue }
                        let p = scaled(instance, child: tile, into: index)
                        for e in entries where abs(e.x - p.x) <= tolerance && abs(e.y - p.y) <= tolerance && !used.contains(e.id) {
                            used.insert(e.id)
                            ids[i] = e.id
                            break
                        }
                    }
                }
            }
            for i in ids.indices where ids[i] == 0 {
                maxID += 1
                ids[i] = maxID
                used.insert(maxID)
            }
            usedByZoom[tile.overscaledZ] = used
            var byKey: [String: [(x: Double, y: Double, id: Int)]] = [:]
            for (i, instance) in layout.instances.enumerated() {
                byKey[instance.key, default: []].append(((instance.anchorX * roundingFactor).rounded(.down), (instance.anchorY * roundingFactor).rounded(.down), ids[i]))
            }
            indexes[tile.overscaledZ, default: []].append(Index(tile: tile, byKey: byKey))
            result.append(ids)
        }
        return result
    }
}

extension OverscaledTileID {
    /// Whether this tile lies inside `parent` (same world copy, deeper zoom) — GL JS's `isChildOf`.
    func isChild(of parent: OverscaledTileID) -> Bool {
        guard wrap == parent.wrap, overscaledZ > parent.overscaledZ else { return false }
        if parent.canonical.z == 0 { return true }
        let dz = canonical.z - parent.canonical.z
        guard dz >= 0 else { return false }
        return parent.canonical.x == canonical.x >> dz && parent.canonical.y == canonical.y >> dz
    }

    /// The tile covering this one at overscaled zoom `z` (GL JS's `scaledTo`).
    func scaled(to z: Int) -> OverscaledTileID {
        let zDifference = canonical.z - z
        if z > canonical.z { return OverscaledTileID(overscaledZ: z, wrap: wrap, canonical: canonical) }
        guard let c = CanonicalTileID(z: z, x: canonical.x >> zDifference, y: canonical.y >> zDifference) else { return self }
        return OverscaledTileID(overscaledZ: z, wrap: wrap, canonical: c)
    }

    /// GL JS's `isLessThan`: world copy, then overscaled zoom, column, row.
    func placementPrecedes(_ b: OverscaledTileID) -> Bool {
        if wrap != b.wrap { return wrap < b.wrap }
        if overscaledZ != b.overscaledZ { return overscaledZ < b.overscaledZ }
        if canonical.x != b.canonical.x { return canonical.x < b.canonical.x }
        return canonical.y < b.canonical.y
    }
}
