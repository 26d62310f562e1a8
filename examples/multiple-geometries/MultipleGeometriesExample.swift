// "Draw multiple geometries" with glmap's Swift API: a GeoJSON source decoded with JSONDecoder and
// three layers filtered by geometry type (polygons, the rail line, stations), drawn headlessly by a
// Snapshotter where an iOS app would show a map view. It writes the same PNG, byte for byte, as
//     glmap render --style examples/multiple-geometries/style.json --width 800 --height 600
// usage: multiple-geometries [--output FILE.png] [--geojson dc.geojson] [--width 800] [--height 600] [--ratio 1]
import Foundation
import GLMap

final class MultipleGeometriesExample {
    enum Constants {
        static let geoJSONDataSourceIdentifier = "geoJSON-data-source"
        static let fillLayerIdentifier = "fill-layer"
    }

    let snapshotter: Snapshotter
    let geoJSONFile: URL

    init(size: CGSize, pixelRatio: CGFloat, geoJSONFile: URL) {
        self.geoJSONFile = geoJSONFile
        // In place of the map view: a headless snapshotter of the same size.
        snapshotter = Snapshotter(options: MapSnapshotOptions(size: size, pixelRatio: pixelRatio))
        let centerCoordinate = CLLocationCoordinate2D(latitude: 38.9349, longitude: -77.0362)
        snapshotter.setCamera(to: CameraOptions(center: centerCoordinate, zoom: 11))
    }

    /// Builds the style (as the app does once its map has loaded) and draws it.
    func snapshot() throws -> Snapshot {
        try addBackgroundLayer()
        try addGeoJSONSource()
        try addPolygonLayer()
        try addLineStringLayer()
        try addPointLayer()
        return try snapshotter.snapshot()
    }

    /// The map view's base map stands here as a plain background.
    func addBackgroundLayer() throws {
        var background = BackgroundLayer(id: "background")
        background.backgroundColor = .constant(StyleColor("#f6f3ee")!)
        try snapshotter.addLayer(background)
    }

    func addGeoJSONSource() throws {
        var geoJSONSource = GeoJSONSource(id: Constants.geoJSONDataSourceIdentifier)
        geoJSONSource.data = .featureCollection(try decodeGeoJSON(from: geoJSONFile))
        try snapshotter.addSource(geoJSONSource)
    }

    func addPolygonLayer() throws {
        var polygonLayer = FillLayer(id: Constants.fillLayerIdentifier, source: Constants.geoJSONDataSourceIdentifier)
        polygonLayer.filter = Exp(.eq) {
            "$type"
            "Polygon"
        }
        polygonLayer.fillColor = .constant(StyleColor(red: 68, green: 105, blue: 247, alpha: 1)!)
        polygonLayer.fillOpacity = .constant(0.3)
        try snapshotter.addLayer(polygonLayer)
    }

    func addLineStringLayer() throws {
        var lineLayer = LineLayer(id: "line-layer", source: Constants.geoJSONDataSourceIdentifier)
        lineLayer.filter = Exp(.eq) {
            "$type"
            "LineString"
        }
        lineLayer.lineColor = .constant(StyleColor(.red))
        lineLayer.lineWidth = .constant(2)
        try snapshotter.addLayer(lineLayer, layerPosition: .above(Constants.fillLayerIdentifier))
    }

    func addPointLayer() throws {
        var circleLayer = CircleLayer(id: "circle-layer", source: Constants.geoJSONDataSourceIdentifier)
        circleLayer.filter = Exp(.eq) {
            "$type"
            "Point"
        }
        circleLayer.circleColor = .constant(StyleColor(.red))
        circleLayer.circleRadius = .constant(6.0)
        circleLayer.circleStrokeWidth = .constant(2.0)
        circleLayer.circleStrokeColor = .constant(StyleColor(.black))
        try snapshotter.addLayer(circleLayer)
    }

    /// Reads a FeatureCollection from a GeoJSON file with Foundation's JSONDecoder.
    func decodeGeoJSON(from file: URL) throws -> FeatureCollection {
        let data = try Data(contentsOf: file)
        return try JSONDecoder().decode(FeatureCollection.self, from: data)
    }
}

@main
enum MultipleGeometriesCommand {
    static func main() {
        var output = "multiple-geometries.png"
        var geoJSON = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("dc.geojson")
        var width = 800.0, height = 600.0, ratio = 1.0
        var args = CommandLine.arguments.dropFirst()
        func fail(_ message: String, code: Int32) -> Never {
            FileHandle.standardError.write(Data("multiple-geometries: \(message)\n".utf8))
            exit(code)
        }
        while let flag = args.popFirst() {
            guard let value = args.popFirst() else { fail("\(flag) needs a value", code: 2) }
            switch flag {
            case "--output", "-o": output = value
            case "--geojson": geoJSON = URL(fileURLWithPath: value)
            case "--width", "--height", "--ratio":
                guard let n = Double(value) else { fail("\(flag) expects a number, got \"\(value)\"", code: 2) }
                if flag == "--width" { width = n } else if flag == "--height" { height = n } else { ratio = n }
            default: fail("unknown option \(flag) (options: --output, --geojson, --width, --height, --ratio)", code: 2)
            }
        }
        let example = MultipleGeometriesExample(size: CGSize(width: width, height: height), pixelRatio: CGFloat(ratio),
                                                geoJSONFile: geoJSON)
        do {
            let snapshot = try example.snapshot()
            try snapshot.pngData().write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch let error as SnapshotError {
            if case .renderFailed = error { fail("\(error)", code: 1) }
            fail("\(error)", code: 2)
        } catch let error as GLMapError {
            fail("\(error)", code: error.kind.exitCode)
        } catch let error as DecodingError {
            fail("\(geoJSON.path): \(error)", code: 2)
        } catch {
            fail("\(error)", code: 1)
        }
    }
}
