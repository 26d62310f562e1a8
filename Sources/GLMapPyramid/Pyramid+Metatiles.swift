import GLMapArchives
import GLMapCore

extension Pyramid {
    /// Whether `tile` is one of the pyramid's tiles (its zoom in `zooms`, inside the box).
    public func contains(_ tile: TileAddress) -> Bool {
        zooms.contains(tile.z) && range(z: tile.z).y.contains(tile.y) && columns(z: tile.z).contains(column: tile.x)
    }

    /// The metatiles of `size` holding the pyramid's tiles, in the order `glmap tiles` draws and
    /// shards them: by zoom, then block column (west to east, as `columns`), then block row.
    /// Size 1 gives the tiles themselves, in the pyramid's own order.
    public func metatiles(size: Int) -> Metatiles { Metatiles(pyramid: self, size: size) }

    /// The metatiles holding a pyramid's tiles, computed when read (a pyramid of any size streams).
    public struct Metatiles: RandomAccessCollection, Sendable {
        /// The pyramid.
        public let pyramid: Pyramid
        /// Tiles a metatile side.
        public let size: Int
        /// One zoom's blocks: its first block column, how many block columns follow it, how many
        /// wrap to 0…, its block rows, and the position of its first metatile.
        private typealias ZoomBlocks = (z: Int, first: Int, firstCount: Int, wrapped: Int, rows: ClosedRange<Int>, start: Int)
        /// The blocks of each zoom, in order.
        private let zoomBlocks: [ZoomBlocks]
        /// How many metatiles.
        public let count: Int

        init(pyramid: Pyramid, size: Int) {
            precondition(size >= 1, "metatile size must be at least 1")
            self.pyramid = pyramid
            self.size = size
            var blocks: [ZoomBlocks] = []
            var total = 0
            for z in pyramid.zooms {
                let c = pyramid.columns(z: z), y = pyramid.range(z: z).y
                let first = c.first / size, last = (c.first + c.firstCount - 1) / size
                // Wrapped columns 0… share no block with the first run, except the block the run starts in.
                let wrapped = c.wrappedCount == 0 ? 0 : Swift.min((c.wrappedCount + size - 1) / size, first)
                let rows = (y.lowerBound / size)...(y.upperBound / size)
                blocks.append((z, first, last - first + 1, wrapped, rows, total))
                total += (last - first + 1 + wrapped) * rows.count
            }
            zoomBlocks = blocks
            count = total
        }

        /// Always 0.
        public var startIndex: Int { 0 }
        /// `count`.
        public var endIndex: Int { count }

        /// The metatile at `position` (0 ≤ position < count).
        public subscript(position: Int) -> Metatile {
            precondition(position >= 0 && position < count, "metatile position out of range")
            let b = zoomBlocks.last { $0.start <= position }!
            let p = position - b.start
            let i = p / b.rows.count
            let column = i < b.firstCount ? b.first + i : i - b.firstCount
            return Metatile(containing: TileAddress(unchecked: b.z, column * size, (b.rows.lowerBound + p % b.rows.count) * size), size: size)
        }

        /// The pyramid's tiles in `metatile`, in its order (x, then y).
        public func tiles(of metatile: Metatile) -> [TileAddress] { metatile.tiles.filter(pyramid.contains) }

        /// The positions of shard `index` of `count`: every metatile at a position ≡ index (mod count).
        public func shard(_ index: Int, of count: Int) -> LazyMapCollection<Range<Int>, Int> {
            precondition(count >= 1 && (0..<count).contains(index), "shard index out of range")
            let n = self.count > index ? (self.count - index + count - 1) / count : 0
            return (0..<n).lazy.map { index + $0 * count }
        }

        /// How many of the pyramid's tiles the metatiles at `positions` hold.
        public func tileCount<S: Sequence<Int>>(_ positions: S) -> Int {
            positions.reduce(0) { total, p in
                let m = self[p]
                let c = pyramid.columns(z: m.z), y = pyramid.range(z: m.z).y
                return total + m.columns.count { c.contains(column: $0) } * m.rows.count { y.contains($0) }
            }
        }
    }
}

extension Pyramid.Columns {
    /// Whether tile column `x` is one of these (constant time).
    public func contains(column x: Int) -> Bool {
        (x >= first && x < first + firstCount) || (x >= 0 && x < wrappedCount)
    }
}
