import Testing
import GLMapTiles

@Suite struct TileIDTests {
    @Test func rejectsOutOfRangeTiles() {
        #expect(CanonicalTileID(z: 1, x: 2, y: 0) == nil)
        #expect(CanonicalTileID(z: -1, x: 0, y: 0) == nil)
        #expect(CanonicalTileID(z: 3, x: 7, y: 7) != nil)
    }

    @Test func parentsChildrenAndContainment() {
        let t = CanonicalTileID(3, 5, 6)
        #expect(t.parent == CanonicalTileID(2, 2, 3))
        #expect(t.ancestor(atZoom: 0) == CanonicalTileID(0, 0, 0))
        #expect(CanonicalTileID(2, 2, 3).contains(t))
        #expect(!CanonicalTileID(2, 3, 3).contains(t))
        #expect(t.children?.map(\.description) == ["4/10/12", "4/11/12", "4/10/13", "4/11/13"])
    }

    @Test func urlParts() {
        // Bing's documented example: tile 3/3/5 is quadkey 213.
        #expect(CanonicalTileID(3, 3, 5).quadkey == "213")
        #expect(CanonicalTileID(0, 0, 0).quadkey == "")
        #expect(CanonicalTileID(1, 0, 0).tmsY == 1)
        let b = CanonicalTileID(1, 0, 0).bboxEPSG3857
        #expect(abs(b.minX + 20037508.342789244) < 1e-6 && abs(b.maxY - 20037508.342789244) < 1e-6 && abs(b.maxX) < 1e-6 && abs(b.minY) < 1e-6)
    }

    @Test func mapLibreVisibleTileOrder() {
        // compareTileId: overscaled zoom, then farther world copies first, then rows and columns from the south-east.
        let ids = [OverscaledTileID(CanonicalTileID(1, 0, 0)), OverscaledTileID(CanonicalTileID(1, 1, 1)),
                   OverscaledTileID(CanonicalTileID(1, 0, 0), wrap: -1), OverscaledTileID(CanonicalTileID(1, 0, 0), wrap: 1),
                   OverscaledTileID(CanonicalTileID(0, 0, 0))]
        #expect(ids.sorted().map(\.description) == ["0/0/0", "1/0/0 wrap 1", "1/0/0 wrap -1", "1/1/1", "1/0/0"])
    }

    @Test func tileUnitsToTheWorld() {
        let t = CanonicalTileID(1, 1, 0)
        let p = t.unitWorld(x: 4096, y: 8192)
        #expect(p.x == 0.75 && p.y == 0.5)
    }
}
