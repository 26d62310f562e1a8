import Foundation
import GLMapCore
import GLMapTestSupport
import GLMapTiles
import XCTest

/// Every vector tile of MapLibre's render suite, decoded by glmap and by an independent decoder
/// (PyPI mapbox-vector-tile over Google's protobuf runtime): the same layers, extents, ids,
/// properties and geometry (the Python side scaled to 8192 units and rounded as GL JS's
/// loadGeometry does; both sides normalised the one way the Python decoder differs: it drops
/// zero-area polygon rings and closes rings only when they are open).
final class VectorTileReferenceTests: XCTestCase {
    static let script = #"""
import json, math, sys
import mapbox_vector_tile as m
def jsround(v):
    f = math.floor(v)
    return f + 1 if v - f >= 0.5 else f
out = {}
t = m.decode(open(sys.argv[1], 'rb').read(), default_options={'y_coord_down': True, 'geojson': False})
for name, layer in t.items():
    s = 8192 / layer['extent']
    def pt(p): return [max(-32768, min(32767, jsround(p[0] * s))), max(-32768, min(32767, jsround(p[1] * s)))]
    feats = []
    for f in layer['features']:
        g = f['geometry']; ty = g['type']; c = g['coordinates']
        if ty == 'Point': rings = [[pt(c)]]
        elif ty == 'MultiPoint': rings = [[pt(p)] for p in c]
        elif ty == 'LineString': rings = [[pt(p) for p in c]]
        elif ty == 'MultiLineString': rings = [[pt(p) for p in l] for l in c]
        elif ty == 'Polygon': rings = [[pt(p) for p in r] for r in c]
        else: rings = [[pt(p) for p in r] for poly in c for r in poly]
        feats.append({'id': f.get('id'), 'type': f['type'], 'properties': f['properties'], 'rings': rings})
    out[name] = {'extent': layer['extent'], 'features': feats}
print(json.dumps(out))
"""#

    func testSuiteTilesMatchAnIndependentDecoder() throws {
        let tiles = SharedData.root.appendingPathComponent("render-suite/tiles")
        try SharedData.require("MapLibre's render suite tiles", at: tiles)
        let python = try OutsideTool.requirePython(["mapbox_vector_tile"])
        let files = (FileManager.default.enumerator(atPath: tiles.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".mvt") }.sorted()
        XCTAssertGreaterThan(files.count, 20)
        var features = 0, skipped: [String] = []
        for name in files {
            let path = tiles.appendingPathComponent(name).path
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let run = OutsideTool.run(python, ["-c", Self.script, path])
            guard run.status == 0 else {
                // The reference cannot read it: glmap must then fail it with a typed error, or
                // read it; either way it must not trap. Recorded so the count is visible.
                skipped.append("\(name) (\(run.stderr.split(separator: "\n").last ?? ""))")
                _ = try? VectorTileDecoder.decode(bytes)
                continue
            }
            let reference = try JSONParser.parse(run.stdout)
            let ours = try VectorTileDecoder.decode(bytes)
            features += try compare(ours.data, reference, file: name)
        }
        print("VectorTileReferenceTests: \(files.count) suite tiles, \(features) features identical; reference could not read: \(skipped)")
        XCTAssertGreaterThan(features, 10_000)
        XCTAssertLessThanOrEqual(skipped.count, 2, "the reference decoder failed on \(skipped)")
    }

    func compare(_ ours: VectorTileData, _ reference: JSONValue, file: String) throws -> Int {
        let layers = try XCTUnwrap(reference.objectValue)
        XCTAssertEqual(Set(ours.layers.keys), Set(layers.keys), file)
        var n = 0
        for (name, value) in layers.pairs {
            guard let mine = ours.layers[name] else { continue }
            let refFeatures = value["features"]?.arrayValue ?? []
            XCTAssertEqual(mine.features.count, refFeatures.count, "\(file) layer \(name)")
            for (f, r) in zip(mine.features, refFeatures) {
                let where_ = "\(file) layer \(name) feature #\(f.index)"
                // The Python decoder reports an absent id as 0 (protobuf's default).
                let refID = r["id"].flatMap { $0.isNull ? nil : $0 }
                if !(f.id == nil && refID == .number(0)) { XCTAssertEqual(f.id, refID, where_) }
                XCTAssertEqual(f.properties, r["properties"]?.objectValue ?? JSONObject(), where_)
                let type: Double = f.type == .point ? 1 : f.type == .lineString ? 2 : 3
                XCTAssertEqual(type, r["type"]?.numberValue, where_)
                let refRings = (r["rings"]?.arrayValue ?? []).map { ring in
                    (ring.arrayValue ?? []).map { p in [Int(p.arrayValue![0].numberValue!), Int(p.arrayValue![1].numberValue!)] }
                }
                var myRings = f.geometry.map { $0.map { [Int($0.x), Int($0.y)] } }
                var theirs = refRings
                if f.type == .polygon {
                    myRings = myRings.filter { areaSign($0) != 0 }.map(open)
                    theirs = theirs.map(open)
                }
                if myRings != theirs {
                    XCTFail("\(where_): geometry differs: \(myRings.prefix(2)) vs \(theirs.prefix(2))")
                    return n
                }
                n += 1
            }
        }
        return n
    }

    func areaSign(_ ring: [[Int]]) -> Int {
        var a = 0
        for i in 0..<max(0, ring.count - 1) { a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1] }
        return a.signum()
    }

    func open(_ ring: [[Int]]) -> [[Int]] {
        var r = ring
        while r.count > 1 && r.last == r.first { r.removeLast() }
        return r
    }
}
