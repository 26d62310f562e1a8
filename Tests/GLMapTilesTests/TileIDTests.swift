import Testing
import GLMapCore
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

@Suite struct TileCoverTests {
    func view(_ lon: Double, _ lat: Double, _ zoom: Double, pitch: Double = 0, bearing: Double = 0, size: Double = 512) -> TileCover {
        TileCover(view: ViewTransform(camera: Camera(longitude: lon, latitude: lat, zoom: zoom, bearing: bearing, pitch: pitch), width: size, height: size))
    }

    @Test func wholeWorldAtZoomZero() {
        #expect(view(0, 0, 0).tiles(worldCopies: false).map(\.description) == ["0/0/0"])
    }

    @Test func fourTilesAroundTheCentreAtZoomOne() {
        // A 512² view centred on 0,0 at zoom 1 sees the four z1 tiles, each a quarter of the view.
        let ids = view(0, 0, 1).tiles(worldCopies: false).map(\.canonical.description).sorted()
        #expect(ids == ["1/0/0", "1/0/1", "1/1/0", "1/1/1"])
    }

    @Test func coveringZoomFloorsOrRounds() {
        let c = view(0, 0, 2.6)
        #expect(c.coveringZoom() == 2)
        #expect(c.coveringZoom(round: true) == 3)
        #expect(c.coveringZoom(tileSize: 256) == 3)
        #expect(c.tiles(tileSize: 256, round: true).allSatisfy { $0.canonical.z == 4 })
    }

    @Test func overscalesPastMaxzoom() {
        let ids = view(10, 10, 6.5).tiles(maxzoom: 4)
        #expect(!ids.isEmpty)
        #expect(ids.allSatisfy { $0.canonical.z == 4 && $0.overscaledZ == 6 })
        // No duplicates: one over-scaled tile per canonical tile.
        #expect(Set(ids).count == ids.count)
    }

    @Test func worldCopiesAtLowZoom() {
        // A wide view at zoom 0 shows the world three times.
        let c = TileCover(view: ViewTransform(camera: Camera(zoom: 0), width: 1500, height: 512))
        #expect(Set(c.tiles().map(\.wrap)) == [-1, 0, 1])
    }

    @Test func nearestTileFirst() {
        let ids = view(0.1, 0.1, 3).tiles()
        #expect(ids.first?.canonical == CanonicalTileID(3, 4, 3))
    }

    @Test func pitchedViewsTakeFartherTilesAtShallowerZooms() {
        let ids = view(0, 0, 10, pitch: 75).tiles()
        let zooms = Set(ids.map(\.canonical.z))
        #expect(zooms.contains(10) && zooms.count > 1)
        // Looking north: the farther (northern) tiles are the shallower ones.
        let deepest = ids.filter { $0.canonical.z == 10 }.map { Double($0.canonical.y) / 1024 }
        let shallow = ids.filter { $0.canonical.z < 10 }.map { Double($0.canonical.y) / Double(1 << $0.canonical.z) }
        #expect(shallow.min()! < deepest.min()!)
    }
}
