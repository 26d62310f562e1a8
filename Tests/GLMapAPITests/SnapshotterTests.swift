import Foundation
import XCTest
import GLMap   // the only glmap import: what a library user writes

struct MissingProduct: Error, CustomStringConvertible { var message: String; var description: String { message } }

/// The Swift API as a library user sees it: one import, a style built in Swift, a PNG.
final class SnapshotterTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var exampleDir: URL { root.appendingPathComponent("examples/multiple-geometries") }
    var productsDir: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    func tmpDir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: d) }
        return d
    }

    func pixel(_ s: Snapshot, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * s.width + x) * 4
        return Array(s.pixels[i..<(i + 4)])
    }

    /// Runs an executable built next to the test bundle.
    func runProduct(_ name: String, _ args: [String]) throws -> (Int32, String) {
        let exe = productsDir.appendingPathComponent(name)
        try requireProduct(name)
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    func requireProduct(_ name: String) throws {
        let exe = productsDir.appendingPathComponent(name)
        if !FileManager.default.isExecutableFile(atPath: exe.path) {
            throw MissingProduct(message: "\(name) not found next to the test bundle at \(exe.path); build it with swift build")
        }
    }

    // MARK: The example

    func testExampleWritesTheSamePNGAsTheCLIRenderOfStyleJSON() throws {
        try requireProduct("multiple-geometries")
        try requireProduct("glmap")
        let d = try tmpDir()
        let swiftPNG = d.appendingPathComponent("swift.png").path, cliPNG = d.appendingPathComponent("cli.png").path
        let (c1, e1) = try runProduct("multiple-geometries", ["--output", swiftPNG])
        XCTAssertEqual(c1, 0, e1)
        let (c2, e2) = try runProduct("glmap", ["render", "--style", exampleDir.appendingPathComponent("style.json").path,
                                                "--output", cliPNG, "--width", "800", "--height", "600"])
        XCTAssertEqual(c2, 0, e2)
        let a = try Data(contentsOf: URL(fileURLWithPath: swiftPNG)), b = try Data(contentsOf: URL(fileURLWithPath: cliPNG))
        XCTAssertGreaterThan(a.count, 1000)
        XCTAssertTrue(a == b, "the example's PNG (\(a.count) bytes) differs from glmap render's (\(b.count) bytes)")
    }

    func testExampleAtRatio2MatchesTheCLI() throws {
        try requireProduct("multiple-geometries")
        try requireProduct("glmap")
        let d = try tmpDir()
        let swiftPNG = d.appendingPathComponent("swift.png").path, cliPNG = d.appendingPathComponent("cli.png").path
        XCTAssertEqual(try runProduct("multiple-geometries", ["-o", swiftPNG, "--width", "300", "--height", "200", "--ratio", "2"]).0, 0)
        XCTAssertEqual(try runProduct("glmap", ["render", "-s", exampleDir.appendingPathComponent("style.json").path,
                                                "-o", cliPNG, "-w", "300", "-h", "200", "-r", "2"]).0, 0)
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: swiftPNG)) == Data(contentsOf: URL(fileURLWithPath: cliPNG)))
    }

    func testExampleReportsAMissingGeoJSONFile() throws {
        try requireProduct("multiple-geometries")
        let d = try tmpDir()
        let out = d.appendingPathComponent("x.png").path
        let (code, err) = try runProduct("multiple-geometries", ["-o", out, "--geojson", d.appendingPathComponent("none.geojson").path])
        XCTAssertEqual(code, 1, err)
        XCTAssertTrue(err.contains("none.geojson"), err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }


    /// The README's "Swift API" snippet, as written there (paths relative to the repository).
    func testReadmeSnippet() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let out = try tmpDir().appendingPathComponent("map.png")
        FileManager.default.changeCurrentDirectoryPath(root.path)
        defer { FileManager.default.changeCurrentDirectoryPath(cwd) }

        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 800, height: 600), pixelRatio: 1))
        snapshotter.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 38.9349, longitude: -77.0362), zoom: 11))

        var geoJSONSource = GeoJSONSource(id: "geoJSON-data-source")
        let data = try Data(contentsOf: URL(fileURLWithPath: "examples/multiple-geometries/dc.geojson"))
        geoJSONSource.data = .featureCollection(try JSONDecoder().decode(FeatureCollection.self, from: data))
        try snapshotter.addSource(geoJSONSource)

        var polygonLayer = FillLayer(id: "fill-layer", source: "geoJSON-data-source")
        polygonLayer.filter = Exp(.eq) { "$type"; "Polygon" }
        polygonLayer.fillColor = .constant(StyleColor(red: 68, green: 105, blue: 247, alpha: 1)!)
        polygonLayer.fillOpacity = .constant(0.3)
        try snapshotter.addLayer(polygonLayer)

        var lineLayer = LineLayer(id: "line-layer", source: "geoJSON-data-source")
        lineLayer.filter = Exp(.eq) { "$type"; "LineString" }
        lineLayer.lineColor = .constant(StyleColor(.red))
        lineLayer.lineWidth = .constant(2)
        try snapshotter.addLayer(lineLayer, layerPosition: .above("fill-layer"))

        // The chaining form builds the same layers.
        try snapshotter.addLayer(CircleLayer(id: "circle-layer", source: "geoJSON-data-source")
            .filter(Exp(.eq) { "$type"; "Point" })
            .circleColor(StyleColor(.red)).circleRadius(6).circleStrokeWidth(2).circleStrokeColor(StyleColor(.black)))

        try snapshotter.snapshot().pngData().write(to: out)

        // Same layers as the example's style.json less its background: compare with that style.
        var style = try String(contentsOf: exampleDir.appendingPathComponent("style.json"), encoding: .utf8)
        style = style.replacingOccurrences(of: ##"{ "id": "background", "type": "background", "paint": { "background-color": "#f6f3ee" } },"##, with: "")
        style = style.replacingOccurrences(of: #""data": "dc.geojson""#, with: #""data": "examples/multiple-geometries/dc.geojson""#)
        let reference = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 800, height: 600)))
        try reference.setStyleJSON(style)
        XCTAssertEqual(reference.allLayerIdentifiers, ["neighbourhoods", "rail", "stations"])
        XCTAssertTrue(try Data(contentsOf: out) == reference.snapshot().pngData())
    }


    func testLoadStyleFromFileDrawsWhatTheCLIDraws() throws {
        try requireProduct("glmap")
        let d = try tmpDir()
        let cliPNG = d.appendingPathComponent("cli.png").path
        let style = exampleDir.appendingPathComponent("style.json").path
        XCTAssertEqual(try runProduct("glmap", ["render", "-s", style, "-o", cliPNG, "-w", "320", "-h", "240"]).0, 0)
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 320, height: 240)))
        try s.loadStyle(fromFile: style)
        XCTAssertEqual(s.allLayerIdentifiers, ["background", "neighbourhoods", "rail", "stations"])
        XCTAssertTrue(try s.snapshot().pngData() == Data(contentsOf: URL(fileURLWithPath: cliPNG)))
        // A layer added afterwards still reads the file's relative source path.
        try s.addLayer(CircleLayer(id: "big", source: "dc").circleRadius(12), layerPosition: .below("stations"))
        let snap = try s.snapshot()
        XCTAssertTrue(snap.warnings.isEmpty, "\(snap.warnings)")
        XCTAssertFalse(try snap.pngData() == Data(contentsOf: URL(fileURLWithPath: cliPNG)))
    }

    func testLoadStyleErrorsNameTheFileAsTheCLIDoes() throws {
        try requireProduct("glmap")
        let d = try tmpDir()
        let style = d.appendingPathComponent("bad.json").path
        FileManager.default.createFile(atPath: style, contents: Data(#"{"version": 8, "sources": {}, "layers": [{"id": "b", "type": "background", "paint": {"background-opacity": 3}}]}"#.utf8))
        let (code, cliError) = try runProduct("glmap", ["render", "-s", style, "-o", d.appendingPathComponent("x.png").path])
        XCTAssertEqual(code, 2)
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 8, height: 8)))
        XCTAssertThrowsError(try s.loadStyle(fromFile: style)) { e in
            XCTAssertEqual("glmap: \(e)\n", cliError)
        }
    }

    // MARK: One import, a PNG

    func decodeExample() throws -> FeatureCollection {
        try JSONDecoder().decode(FeatureCollection.self, from: Data(contentsOf: exampleDir.appendingPathComponent("dc.geojson")))
    }

    func testOneImportRendersAPNG() throws {
        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 64, height: 48), pixelRatio: 2))
        var background = BackgroundLayer(id: "bg")
        background.backgroundColor = .constant(StyleColor(red: 10, green: 200, blue: 30, alpha: 1)!)
        try snapshotter.addLayer(background)
        var source = GeoJSONSource(id: "p")
        source.data = .geometry(.point(Point(CLLocationCoordinate2D(latitude: 10, longitude: 20))))
        try snapshotter.addSource(source)
        try snapshotter.addLayer(CircleLayer(id: "c", source: "p").circleRadius(8).circleColor(StyleColor(.blue)))
        snapshotter.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 10, longitude: 20), zoom: 3))
        let snapshot = try snapshotter.snapshot()
        XCTAssertEqual([snapshot.width, snapshot.height], [128, 96])
        XCTAssertEqual(pixel(snapshot, 2, 2), [10, 200, 30, 255], "background")
        XCTAssertEqual(pixel(snapshot, 64, 48), [0, 0, 255, 255], "circle at the centre")
        let png = try snapshot.pngData()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testPixelsAreStraightAlpha() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 4, height: 4)))
        try s.addLayer(BackgroundLayer(id: "bg").backgroundColor(StyleColor("rgba(255, 0, 0, 0.5)")!))
        let snap = try s.snapshot()
        let p = pixel(snap, 1, 1)
        XCTAssertEqual(p[0], 255, "straight red stays 255 at half alpha (premultiplied would be 128): \(p)")
        XCTAssertEqual(p[1], 0)
        XCTAssertTrue((127...128).contains(p[3]), "\(p)")
    }

    func testSwiftBuiltDataDrawsAsTheSameFileDoes() throws {
        func render(_ data: GeoJSONSourceData) throws -> [UInt8] {
            let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 200, height: 150)))
            var source = GeoJSONSource(id: "dc")
            source.data = data
            try s.addSource(source)
            try s.addLayer(FillLayer(id: "f", source: "dc").fillColor(StyleColor(.red)).fillOpacity(0.5))
            try s.addLayer(LineLayer(id: "l", source: "dc").lineWidth(3))
            try s.addLayer(CircleLayer(id: "c", source: "dc").filter(Exp(.eq) { "$type"; "Point" }))
            s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 38.9, longitude: -77.02), zoom: 10.5))
            return try s.snapshot().pixels
        }
        let fromFile = try render(.string(exampleDir.appendingPathComponent("dc.geojson").path))
        XCTAssertTrue(fromFile.contains { $0 != 0 })
        XCTAssertEqual(try render(.featureCollection(decodeExample())), fromFile)
        XCTAssertEqual(try render(.url(exampleDir.appendingPathComponent("dc.geojson"))), fromFile)
        let text = try String(contentsOf: exampleDir.appendingPathComponent("dc.geojson"), encoding: .utf8)
        XCTAssertEqual(try render(.string(text)), fromFile)
    }


    func testStyleJSONWritesSwiftBuiltDataOutAsGeoJSON() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 160, height: 120)))
        var source = GeoJSONSource(id: "dc")
        source.data = .featureCollection(try decodeExample())
        try s.addSource(source)
        try s.addLayer(FillLayer(id: "f", source: "dc").fillColor(StyleColor(.blue)))
        try s.addLayer(LineLayer(id: "l", source: "dc").lineWidth(2))
        s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 38.9, longitude: -77.02), zoom: 10))
        let copy = Snapshotter(options: s.options)
        try copy.setStyleJSON(s.styleJSON)
        copy.setCamera(to: s.cameraState)
        XCTAssertEqual(try copy.snapshot().pixels, try s.snapshot().pixels)
    }

    // MARK: GeoJSON types

    func testFeatureCollectionDecodesWithJSONDecoder() throws {
        let fc = try decodeExample()
        XCTAssertEqual(fc.features.count, 22)
        let first = fc.features[0]
        XCTAssertEqual(first.identifier, .number(1))
        XCTAssertEqual(first.properties?["name"], .string("Dupont Circle"))
        guard case .polygon(let p)? = first.geometry else { return XCTFail("Dupont Circle is a Polygon") }
        XCTAssertEqual(p.coordinates[0][0], LocationCoordinate2D(latitude: 38.911, longitude: -77.032622))
        let kinds = Set(fc.features.compactMap { f -> String? in
            switch f.geometry {
            case .point?: return "Point"
            case .lineString?: return "LineString"
            case .polygon?: return "Polygon"
            case .multiPolygon?: return "MultiPolygon"
            default: return "other"
            }
        })
        XCTAssertTrue(kinds.isSuperset(of: ["Point", "LineString", "Polygon", "MultiPolygon"]), "\(kinds)")
        // Encoding and decoding again gives the same collection.
        XCTAssertEqual(try JSONDecoder().decode(FeatureCollection.self, from: JSONEncoder().encode(fc)), fc)
    }

    func testGeometryTypesDecode() throws {
        let json = #"{"type":"GeometryCollection","geometries":[{"type":"MultiPoint","coordinates":[[1,2],[3,4,5]]},{"type":"MultiLineString","coordinates":[[[0,0],[1,1]]]},{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}]}"#
        let g = try JSONDecoder().decode(Geometry.self, from: Data(json.utf8))
        XCTAssertEqual(g, .geometryCollection(GeometryCollection(geometries: [
            .multiPoint(MultiPoint([.init(latitude: 2, longitude: 1), .init(latitude: 4, longitude: 3)])),
            .multiLineString(MultiLineString([[.init(latitude: 0, longitude: 0), .init(latitude: 1, longitude: 1)]])),
            .multiPolygon(MultiPolygon([[[.init(latitude: 0, longitude: 0), .init(latitude: 0, longitude: 1),
                                          .init(latitude: 1, longitude: 1), .init(latitude: 0, longitude: 0)]]])),
        ])))
        XCTAssertThrowsError(try JSONDecoder().decode(Geometry.self, from: Data(#"{"type":"Circle","coordinates":[0,0]}"#.utf8)))
        let f = try JSONDecoder().decode(Feature.self, from: Data(#"{"type":"Feature","id":"a","properties":null,"geometry":null}"#.utf8))
        XCTAssertEqual(f.identifier, .string("a"))
        XCTAssertNil(f.geometry)
        XCTAssertNil(f.properties)
    }

    // MARK: Expressions and colours

    func testExpressionBuilderForms() {
        XCTAssertEqual(Exp(.eq) { "$type"; "Polygon" }.jsonText, #"["==","$type","Polygon"]"#)
        XCTAssertEqual(Exp(.interpolate) { Exp(.exponential) { 1.5 }; Exp(.zoom); [10: 1.0, 16: 4.0] }.jsonText,
                       #"["interpolate",["exponential",1.5],["zoom"],10,1,16,4]"#)
        XCTAssertEqual(Exp(.switchCase) { Exp(.has) { "x" }; true; false }.jsonText, #"["case",["has","x"],true,false]"#)
        XCTAssertEqual(Exp(.match) { Exp(.get) { "n" }; [1, 2]; "small"; "big" }.jsonText, #"["match",["get","n"],[1,2],"small","big"]"#)
        XCTAssertEqual(Exp(.literal) { ["a", "b"] }.jsonText, #"["literal",["a","b"]]"#)
        XCTAssertEqual(Exp(.notIn) { "kind"; "a"; "b" }.jsonText, #"["!in","kind","a","b"]"#)
        let optional = true
        XCTAssertEqual(Exp(.all) { if optional { Exp(.has) { "a" } }; Exp(.has) { "b" } }.jsonText, #"["all",["has","a"],["has","b"]]"#)
    }

    func testStyleColor() {
        XCTAssertNil(StyleColor(red: 256, green: 0, blue: 0, alpha: 1))
        XCTAssertNil(StyleColor(red: 0, green: 0, blue: 0, alpha: 1.5))
        XCTAssertNil(StyleColor(red: .nan, green: 0, blue: 0, alpha: 1))
        XCTAssertNil(StyleColor("not a colour"))
        XCTAssertEqual(StyleColor(.red).rawValue, "rgba(255, 0, 0, 1)")
        XCTAssertEqual(StyleColor(.black).rawValue, "rgba(0, 0, 0, 1)")
        let hsl = StyleColor("hsl(120, 100%, 50%)")!
        XCTAssertEqual([hsl.red, hsl.green, hsl.blue, hsl.alpha], [0, 255, 0, 1])
    }

    // MARK: The style manager

    func emptySnapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 16, height: 16)))
        var source = GeoJSONSource(id: "s")
        source.data = .empty
        try s.addSource(source)
        return s
    }

    func testLayerPositions() throws {
        let s = try emptySnapshotter()
        try s.addLayer(FillLayer(id: "a", source: "s"))
        try s.addLayer(FillLayer(id: "b", source: "s"))
        try s.addLayer(LineLayer(id: "below-b", source: "s"), layerPosition: .below("b"))
        try s.addLayer(LineLayer(id: "above-a", source: "s"), layerPosition: .above("a"))
        try s.addLayer(BackgroundLayer(id: "bottom"), layerPosition: .at(0))
        XCTAssertEqual(s.allLayerIdentifiers, ["bottom", "a", "above-a", "below-b", "b"])
        XCTAssertThrowsError(try s.addLayer(FillLayer(id: "x", source: "s"), layerPosition: .above("missing")))
        XCTAssertThrowsError(try s.addLayer(FillLayer(id: "x", source: "s"), layerPosition: .at(99)))
        XCTAssertThrowsError(try s.addLayer(FillLayer(id: "a", source: "s"))) { e in
            XCTAssertEqual((e as? StyleError)?.issues.first?.description, #"layers[5].id: duplicate layer id "a""#)
        }
        XCTAssertTrue(s.layerExists(withId: "above-a"))
        try s.removeLayer(withId: "above-a")
        XCTAssertFalse(s.layerExists(withId: "above-a"))
        XCTAssertThrowsError(try s.removeLayer(withId: "above-a"))
        XCTAssertThrowsError(try s.removeSource(withId: "s"), "layers still use the source")
    }

    func testNonFiniteValueIsAnErrorNotATrap() throws {
        let s = try emptySnapshotter()
        XCTAssertThrowsError(try s.addLayer(CircleLayer(id: "c", source: "s").circleRadius(.nan))) { e in
            XCTAssertEqual((e as? StyleError)?.issues.map(\.description), ["layers[0].paint.circle-radius: expected a finite number, found NaN"])
        }
        XCTAssertEqual(s.allLayerIdentifiers, [])
    }

    func testStyleJSONGetAndSet() throws {
        let s = try emptySnapshotter()
        try s.addLayer(LineLayer(id: "l", source: "s").lineColor(StyleColor(.red)))
        let json = s.styleJSON
        XCTAssertTrue(json.contains(#""layers":[{"id":"l","type":"line","source":"s","paint":{"line-color":"rgba(255, 0, 0, 1)"}}]"#), json)
        let other = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 16, height: 16)))
        other.styleJSON = json
        XCTAssertEqual(other.allLayerIdentifiers, ["l"])
        XCTAssertEqual(try other.layer(withId: "l", type: LineLayer.self).lineColor, .constant(StyleColor(.red)))
        // An invalid style: setStyleJSON throws the CLI's message; the property makes the next snapshot fail.
        XCTAssertThrowsError(try other.setStyleJSON(#"{"version": 8, "layers": [}"#)) { e in
            XCTAssertTrue("\(e)".contains("invalid JSON at 1:27"), "\(e)")
        }
        other.styleJSON = #"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-opacity": 3}}]}"#
        XCTAssertEqual(other.allLayerIdentifiers, ["l"], "the old style is kept")
        XCTAssertThrowsError(try other.snapshot()) { e in
            guard case .invalidStyle(let styleError)? = e as? SnapshotError else { return XCTFail("\(e)") }
            XCTAssertEqual(styleError.issues.first?.path, "layers[0].paint.background-opacity")
        }
        // What glmap skips (a video source and its layer) is a warning on the snapshot, as glmap render warns.
        try other.setStyleJSON(#"{"version": 8, "sources": {"vid": {"type": "video", "urls": ["x.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}}, "layers": [{"id": "v", "type": "raster", "source": "vid"}]}"#)
        let warned = try other.snapshot()
        XCTAssertEqual(warned.warnings.count, 1, "\(warned.warnings)")
    }

    // MARK: Camera

    func testCameraForCoordinatesWithoutRoomIsEmpty() {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 100, height: 100)))
        XCTAssertEqual(s.camera(for: []), CameraOptions())
        let c = [CLLocationCoordinate2D(latitude: 0, longitude: 0), CLLocationCoordinate2D(latitude: 1, longitude: 1)]
        XCTAssertEqual(s.camera(for: c, padding: UIEdgeInsets(top: 0, left: 60, bottom: 0, right: 60), bearing: nil, pitch: nil), CameraOptions())
        XCTAssertEqual(s.camera(for: [CLLocationCoordinate2D(latitude: .nan, longitude: 0)]), CameraOptions())
        // The Mapbox SDK's call as ported code writes it compiles: padding nil, bearing and pitch given.
        let fitted = s.camera(for: c, padding: nil, bearing: 0, pitch: 0)
        XCTAssertNotNil(fitted.center)
        // One point: the deepest zoom, centred on it.
        let one = s.camera(for: [CLLocationCoordinate2D(latitude: 10, longitude: 20)])
        XCTAssertEqual(one.zoom, 24)
        XCTAssertEqual(one.center?.longitude ?? 0, 20, accuracy: 1e-9)
        XCTAssertEqual(one.center?.latitude ?? 0, 10, accuracy: 1e-9)
    }

    func testUpdateGeoJSONSourceAndRemoveSource() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 20, height: 20)))
        var source = GeoJSONSource(id: "p")
        source.data = .geometry(.point(Point(CLLocationCoordinate2D(latitude: 0, longitude: 0))))
        try s.addSource(source)
        try s.addLayer(CircleLayer(id: "c", source: "p").circleRadius(4).circleColor(StyleColor(.red)))
        XCTAssertEqual(pixel(try s.snapshot(), 10, 10), [255, 0, 0, 255])
        var moved = Feature(geometry: Point(CLLocationCoordinate2D(latitude: 0, longitude: 170)))
        moved.identifier = .number(7)
        try s.updateGeoJSONSource(withId: "p", data: .feature(moved))
        XCTAssertEqual(pixel(try s.snapshot(), 10, 10)[3], 0, "the point moved away")
        XCTAssertThrowsError(try s.updateGeoJSONSource(withId: "none", data: .empty))
        XCTAssertThrowsError(try s.addSource(source), "the id is taken")
        try s.removeLayer(withId: "c")
        try s.removeSource(withId: "p")
        XCTAssertEqual(s.allSourceIdentifiers, [])
    }

    func testPaddingMovesTheCentreIntoThePaddedArea() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 200, height: 100)))
        var source = GeoJSONSource(id: "p")
        source.data = .geometry(.point(Point(CLLocationCoordinate2D(latitude: 0, longitude: 0))))
        try s.addSource(source)
        try s.addLayer(CircleLayer(id: "c", source: "p").circleRadius(3).circleColor(StyleColor(.red)))
        s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 0, longitude: 0),
                                      padding: UIEdgeInsets(top: 0, left: 100, bottom: 40, right: 0), zoom: 2))
        let snap = try s.snapshot()
        // The padded area is x 100…200, y 0…60: its centre (150, 30) shows the point.
        XCTAssertEqual(pixel(snap, 150, 30), [255, 0, 0, 255])
        XCTAssertEqual(pixel(snap, 100, 50)[3], 0, "the unpadded centre is empty")
    }

    func testCameraForCoordinatesFitsThemInThePaddedView() throws {
        let coordinates = try decodeExample().features.flatMap { f -> [LocationCoordinate2D] in
            switch f.geometry {
            case .point(let p)?: return [p.coordinates]
            case .lineString(let l)?: return l.coordinates
            case .polygon(let p)?: return p.coordinates.flatMap { $0 }
            case .multiPolygon(let m)?: return m.coordinates.flatMap { $0.flatMap { $0 } }
            default: return []
            }
        }
        let west = coordinates.map(\.longitude).min()!, east = coordinates.map(\.longitude).max()!
        let south = coordinates.map(\.latitude).min()!, north = coordinates.map(\.latitude).max()!
        let corners = [CLLocationCoordinate2D(latitude: north, longitude: west), CLLocationCoordinate2D(latitude: south, longitude: west),
                       CLLocationCoordinate2D(latitude: south, longitude: east), CLLocationCoordinate2D(latitude: north, longitude: east)]
        for (bearing, pitch) in [(0.0, 0.0), (30.0, 0.0)] {
            let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 400, height: 300)))
            let padding = EdgeInsets(top: 20, left: 60, bottom: 10, right: 30)
            let camera = s.camera(for: coordinates, padding: padding, bearing: bearing, pitch: pitch)
            XCTAssertNotNil(camera.center)
            XCTAssertEqual(camera.bearing, bearing)
            s.setCamera(to: camera)
            var points: [CGPoint] = [], box: [CGPoint] = []
            s.start(overlayHandler: { overlay in
                points = coordinates.compactMap { overlay.pointForCoordinate($0) }
                box = corners.compactMap { overlay.pointForCoordinate($0) }
            }, completion: { result in
                if case .failure(let e) = result { XCTFail("\(e)") }
            })
            XCTAssertEqual(points.count, coordinates.count)
            let tolerance = 1e-6
            // Every coordinate lies in the padded area …
            for p in points {
                XCTAssertTrue(p.x >= 60 - tolerance && p.x <= 370 + tolerance && p.y >= 20 - tolerance && p.y <= 290 + tolerance,
                              "bearing \(bearing): \(p) outside the padded area")
            }
            // … and the bounding box's corners fill it on one axis, centred on the other.
            let minX = box.map(\.x).min()!, maxX = box.map(\.x).max()!
            let minY = box.map(\.y).min()!, maxY = box.map(\.y).max()!
            let tightX = abs(minX - 60) < 1e-6 && abs(maxX - 370) < 1e-6
            let tightY = abs(minY - 20) < 1e-6 && abs(maxY - 290) < 1e-6
            XCTAssertTrue(tightX || tightY, "bearing \(bearing): box \(minX)…\(maxX) × \(minY)…\(maxY)")
            if tightX { XCTAssertEqual((minY + maxY) / 2, 155, accuracy: 1e-6) } else { XCTAssertEqual((minX + maxX) / 2, 215, accuracy: 1e-6) }
        }
    }

    func testStartDeliversOverlayDrawingAndErrors() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 10, height: 10)))
        try s.addLayer(BackgroundLayer(id: "bg").backgroundColor(StyleColor(.white)))
        var delivered: Snapshot?
        s.start(overlayHandler: { $0.fill(CGRect(x: 0, y: 0, width: 5, height: 10), color: StyleColor(.black)) }) { result in
            delivered = try? result.get()
        }
        let snap = try XCTUnwrap(delivered)
        XCTAssertEqual(pixel(snap, 2, 5), [0, 0, 0, 255])
        XCTAssertEqual(pixel(snap, 7, 5), [255, 255, 255, 255])
        s.options = MapSnapshotOptions(size: CGSize(width: 0.5, height: 10))
        var failure: SnapshotError?
        s.start(overlayHandler: nil) { if case .failure(let e) = $0 { failure = e } }
        guard case .invalidOptions? = failure else { return XCTFail("expected invalidOptions, got \(String(describing: failure))") }
        s.options = MapSnapshotOptions(size: CGSize(width: 10, height: 10))
        s.setCamera(to: CameraOptions(zoom: 30))
        XCTAssertThrowsError(try s.snapshot()) { e in
            XCTAssertEqual("\(e)", "zoom must be between -2 and 24, got 30.0")
        }
    }
}
