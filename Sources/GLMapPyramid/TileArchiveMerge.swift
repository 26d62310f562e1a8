// Tile archive merge — contract
// Input: the archives of shard runs (MBTiles and/or PMTiles, any mix). Output: one archive at
// `output` (its kind by extension) holding every tile of every input once, written through the
// same writer as a run (so a merge of the shards of a pyramid equals the one-process archive:
// same tiles, same metadata, same bytes for PMTiles). Metadata: the first input's, with the
// zooms and bounds widened to cover every input and a shard's "shard I/N" description dropped.
// Refused (invalid input, nothing written): an input that is not an archive, inputs of different
// tile formats, and a tile two inputs hold with different bytes (identical overlaps are fine).
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

/// Joins shard archives into one.
public enum TileArchiveMerge {
    /// What a merge did.
    public struct Summary: Equatable, Sendable {
        /// Archives read.
        public var inputs: Int
        /// Distinct tiles written to the output.
        public var tiles: Int
        /// Tiles held by more than one input with the same bytes.
        public var overlaps: Int
    }

    /// Merges `inputs` into `output` (see the contract).
    @discardableResult
    public static func merge(output: String, inputs: [String]) throws -> Summary {
        guard let kind = TileArchiveWriter.Kind(path: output) else {
            throw InputFailure("merge: the output \(output) must end in .mbtiles or .pmtiles")
        }
        guard !inputs.isEmpty else { throw InputFailure("merge: no input archives") }
        if let same = inputs.first(where: { ($0 as NSString).standardizingPath == (output as NSString).standardizingPath }) {
            throw InputFailure("merge: the output \(output) is also an input (\(same))")
        }
        var metadata: TileArchiveMetadata?
        var all: [UInt64: (tile: TileAddress, data: [UInt8], from: String)] = [:]
        var overlaps = 0
        for path in inputs {
            let archive = try TileArchiveReader.open(path)
            let m = try TileArchiveMetadata(strings: archive.metadata, path: path)
            if var merged = metadata {
                guard merged.format == m.format else {
                    throw InputFailure("merge: \(path) holds \(m.format.rawValue) tiles, \(inputs[0]) holds \(merged.format.rawValue)")
                }
                merged.minzoom = min(merged.minzoom, m.minzoom)
                merged.maxzoom = max(merged.maxzoom, m.maxzoom)
                if merged.bounds != m.bounds && !merged.bounds.crossesAntimeridian && !m.bounds.crossesAntimeridian {
                    merged.bounds = LngLatBounds(west: min(merged.bounds.west, m.bounds.west), south: min(merged.bounds.south, m.bounds.south),
                                                 east: max(merged.bounds.east, m.bounds.east), north: max(merged.bounds.north, m.bounds.north))
                }
                metadata = merged
            } else {
                metadata = m
            }
            for (tile, data) in archive.tiles {
                let id = PMTiles.tileID(tile)
                if let seen = all[id] {
                    guard seen.data == data else {
                        throw InputFailure("merge: tile \(tile) differs between \(seen.from) and \(path) (the archives overlap with different tiles)")
                    }
                    overlaps += 1
                } else {
                    all[id] = (tile, data, path)
                }
            }
        }
        var m = metadata!
        if let d = m.description, d.hasPrefix("shard ") { m.description = nil }
        let job = "merge \(inputs.joined(separator: " "))"
        let journal = TileArchiveWriter.journalPath(output)
        if FileManager.default.fileExists(atPath: journal) { unlink(journal) }   // a merge left by a kill: start again
        let writer = try TileArchiveWriter(path: output, kind: kind, metadata: m, job: job, resume: false)
        do {
            for id in all.keys.sorted() { try writer.add(all[id]!.tile, data: all[id]!.data) }
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
        return Summary(inputs: inputs.count, tiles: all.count, overlaps: overlaps)
    }
}
