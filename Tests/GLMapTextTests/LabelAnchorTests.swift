import Foundation
import GLMapText
import GLMapTiles
import XCTest

/// Symbol layout primitives with hand-run numbers: line anchors and spacing, the centre anchor,
/// text-max-angle, line clipping, ring classification, polylabel, collision boxes and the grid.
final class LabelAnchorTests: XCTestCase {
    func text(width: Double) -> Shaping {
        Shaping(lines: [], top: -12, bottom: 12, left: -width / 2, right: width / 2, writingMode: .horizontal, text: "x", iconsInText: false, verticalizable: false)
    }

    func testAnchorsAlongALine() {
        // A 1000-unit line not touching the tile edge; label 60 wide, spacing 250. The first anchor
        // sits (60 / 2 + 2 · 24) % 250 = 78 along, then every 250 while the label fits.
        let line = [TileVector(100, 100), TileVector(1100, 100)]
        let a = LabelAnchors.anchors(line: line, spacing: 250, maxAngle: .pi / 4, text: text(width: 60), icon: nil, glyphSize: 24,
                                     boxScale: 1, overscaling: 1, tileExtent: 8192)
        XCTAssertEqual(a.map(\.x), [178, 428, 678, 928])
        XCTAssertTrue(a.allSatisfy { $0.y == 100 && $0.angle == 0 && $0.segment == 0 })
        // A line continued from the tile edge starts half a spacing in.
        let edge = LabelAnchors.anchors(line: [TileVector(0, 100), TileVector(1000, 100)], spacing: 250, maxAngle: .pi / 4,
                                        text: text(width: 60), icon: nil, glyphSize: 24, boxScale: 1, overscaling: 1, tileExtent: 8192)
        XCTAssertEqual(edge.first?.x, 125)
        // Too short for the spacing: one anchor in the middle.
        let short = LabelAnchors.anchors(line: [TileVector(100, 100), TileVector(200, 100)], spacing: 250, maxAngle: .pi / 4,
                                         text: text(width: 60), icon: nil, glyphSize: 24, boxScale: 1, overscaling: 1, tileExtent: 8192)
        XCTAssertEqual(short.map(\.x), [150])
        // A long label stretches the spacing to label + spacing / 4.
        let long = LabelAnchors.anchors(line: line, spacing: 100, maxAngle: .pi, text: text(width: 200), icon: nil, glyphSize: 24,
                                        boxScale: 1, overscaling: 1, tileExtent: 8192)
        // spacing 200 + 100 / 4 = 225; offset (200 / 2 + 48) % 225 = 148.
        XCTAssertEqual(long.first?.x, 248)
        XCTAssertEqual(zip(long.dropFirst(), long).map { $0.x - $1.x }, [Double](repeating: 225, count: long.count - 1))
    }

    func testCenterAnchorAndMaxAngle() {
        let bend = [TileVector(0, 0), TileVector(100, 0), TileVector(100, 100)]
        let c = LabelAnchors.centerAnchor(line: bend, maxAngle: .pi, text: text(width: 10), icon: nil, glyphSize: 24, boxScale: 1)
        XCTAssertEqual(c, LabelAnchor(x: 100, y: 0, angle: .pi / 2, segment: 1))
        // A label 60 long across the right angle turns by π/2 inside a 14.4 window: refused at π/4.
        let anchor = LabelAnchor(x: 90, y: 0, angle: 0, segment: 0)
        XCTAssertFalse(LabelAnchors.checkMaxAngle(line: bend, anchor: anchor, labelLength: 60, windowSize: 14.4, maxAngle: .pi / 4))
        XCTAssertTrue(LabelAnchors.checkMaxAngle(line: bend, anchor: anchor, labelLength: 60, windowSize: 14.4, maxAngle: .pi / 2 + 0.01))
        XCTAssertTrue(LabelAnchors.checkMaxAngle(line: bend, anchor: LabelAnchor(x: 5, y: 5, angle: 0), labelLength: 60, windowSize: 14.4, maxAngle: 0))
        // Not enough room before the line's start.
        XCTAssertFalse(LabelAnchors.checkMaxAngle(line: bend, anchor: LabelAnchor(x: 10, y: 0, angle: 0, segment: 0), labelLength: 60, windowSize: 14.4, maxAngle: .pi))
    }

    func testClipLine() {
        let lines = [[TileVector(-10, 5), TileVector(20, 5)], [TileVector(5, -5), TileVector(5, 5), TileVector(5, 15)], [TileVector(-5, -5), TileVector(-1, -1)]]
        let c = LabelAnchors.clipLine(lines, x1: 0, y1: 0, x2: 10, y2: 10)
        XCTAssertEqual(c, [[TileVector(0, 5), TileVector(10, 5)], [TileVector(5, 0), TileVector(5, 5), TileVector(5, 10)]])
        // Cut points are rounded as Math.round does (half up).
        let r = LabelAnchors.clipLine([[TileVector(-1, 0), TileVector(3, 3)]], x1: 0, y1: 0, x2: 10, y2: 10)
        XCTAssertEqual(r.first?.first, TileVector(0, 1))   // y = 0.75 → 1
    }

    func testRingsAndPoles() {
        let outer = [TileVector(0, 0), TileVector(100, 0), TileVector(100, 100), TileVector(0, 100), TileVector(0, 0)]
        let hole = [TileVector(20, 20), TileVector(20, 80), TileVector(80, 80), TileVector(80, 20), TileVector(20, 20)]
        let second = [TileVector(200, 0), TileVector(300, 0), TileVector(300, 100), TileVector(200, 100), TileVector(200, 0)]
        let polygons = LabelAnchors.classifyRings([outer, hole, second])
        XCTAssertEqual(polygons.map(\.count), [2, 1])
        XCTAssertEqual(PoleOfInaccessibility.find([outer], precision: 16), TileVector(50, 50))
        // With the hole, the pole moves into the ring's band, 10 from both edges at best.
        let p = PoleOfInaccessibility.find(polygons[0], precision: 1)
        let inHole = p.x > 20 && p.x < 80 && p.y > 20 && p.y < 80
        XCTAssertFalse(inHole, "\(p)")
        XCTAssertEqual(PoleOfInaccessibility.find([[TileVector(5, 5), TileVector(5, 50)]], precision: 16), TileVector(5, 5), "zero width")
        XCTAssertEqual(LabelAnchors.vectors([[TilePoint(3, 4)]]), [[TileVector(3, 4)]])
    }

    func testCollisionFeatures() {
        let shaped = Shaping(lines: [], top: -12, bottom: 12, left: -10, right: 10, writingMode: .horizontal, text: "", iconsInText: false, verticalizable: false)
        let anchor = LabelAnchor(x: 7, y: 9, angle: 0)
        let f = CollisionFeature(anchor: anchor, text: shaped, boxScale: 2, padding: (1, 1, 1, 1), alignLine: false, rotate: 0)
        XCTAssertEqual(f.box.map { [$0.anchorX, $0.anchorY, $0.x1, $0.y1, $0.x2, $0.y2] }, [7, 9, -21, -25, 21, 25])
        let r = CollisionFeature(anchor: anchor, text: shaped, boxScale: 2, padding: (1, 1, 1, 1), alignLine: false, rotate: 90)
        XCTAssertEqual(r.box!.x1, -25, accuracy: 1e-9)
        XCTAssertEqual(r.box!.y2, 21, accuracy: 1e-9)
        let line = CollisionFeature(anchor: anchor, text: shaped, boxScale: 2, padding: (1, 1, 1, 1), alignLine: true, rotate: 0)
        XCTAssertNil(line.box)
        XCTAssertEqual(line.circleDiameter, 24)
    }

    func testGridIndex() {
        var grid = GridIndex<Int>(width: 100, height: 100, cellSize: 25)
        grid.insert(1, overlap: .never, x1: 10, y1: 10, x2: 20, y2: 20)
        grid.insert(2, overlap: .cooperative, x1: 60, y1: 60, x2: 70, y2: 70)
        grid.insertCircle(3, overlap: .never, x: 50, y: 10, radius: 5)
        XCTAssertEqual(grid.query(x1: 0, y1: 0, x2: 30, y2: 30).map(\.key), [1])
        XCTAssertEqual(Set(grid.query(x1: -1, y1: -1, x2: 101, y2: 101).compactMap(\.key)), [1, 2, 3], "a query covering the grid returns everything")
        XCTAssertTrue(grid.hitTest(x1: 15, y1: 15, x2: 30, y2: 30, overlap: .never))
        XCTAssertTrue(grid.hitTest(x1: 15, y1: 15, x2: 30, y2: 30, overlap: .cooperative), "a never box blocks cooperative symbols")
        XCTAssertFalse(grid.hitTest(x1: 15, y1: 15, x2: 30, y2: 30, overlap: .always))
        XCTAssertFalse(grid.hitTest(x1: 65, y1: 65, x2: 80, y2: 80, overlap: .cooperative), "cooperative symbols overlap each other")
        XCTAssertTrue(grid.hitTest(x1: 65, y1: 65, x2: 80, y2: 80, overlap: .never))
        XCTAssertFalse(grid.hitTest(x1: 21, y1: 21, x2: 30, y2: 30, overlap: .never))
        // Circle against the box's corner: 3-4-5 triangle.
        XCTAssertTrue(grid.hitTestCircle(x: 23, y: 24, radius: 5.01, overlap: .never))
        XCTAssertFalse(grid.hitTestCircle(x: 23, y: 24, radius: 4.99, overlap: .never))
        XCTAssertTrue(grid.hitTestCircle(x: 50, y: 20, radius: 5.5, overlap: .never), "circles collide")
        XCTAssertTrue(grid.hitTest(x1: 44, y1: 9, x2: 46, y2: 11, overlap: .never), "a box inside a circle")
        XCTAssertFalse(grid.hitTest(x1: 15, y1: 15, x2: 30, y2: 30, overlap: .never, predicate: { $0 != 1 }))
        // Degenerate grids stay usable: a zero cell size gives one cell, a NaN box touches it.
        var odd = GridIndex<Int>(width: 10, height: 10, cellSize: 0)
        odd.insert(1, x1: .nan, y1: 0, x2: 5, y2: 5)
        XCTAssertEqual(odd.xCellCount, 1)
        XCTAssertFalse(odd.hitTest(x1: 6, y1: 6, x2: 7, y2: 7, overlap: .never))
    }
}
