import Foundation
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference

/// A flat, unrotated view centred on (0°, 0°) where CSS-pixel screen positions map to unit-world
/// coordinates by a plain offset, so test shapes can be written in screen pixels.
struct TestView {
    var width: Double
    var height: Double
    var zoom: Double
    var bearing: Double = 0
    var pitch: Double = 0

    var view: ViewTransform {
        ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: zoom, bearing: bearing, pitch: pitch),
                      width: width, height: height)
    }

    /// Unit-world coordinates of a screen point (CSS px) in an unrotated, unpitched view.
    func unit(_ sx: Double, _ sy: Double) -> (Double, Double) {
        let ws = WebMercator.worldSize(zoom: zoom)
        return (0.5 + (sx - width / 2) / ws, 0.5 + (sy - height / 2) / ws)
    }

    /// Flat unit-world coordinates of screen points.
    func flat(_ pts: [(Double, Double)]) -> [Double] {
        pts.flatMap { p -> [Double] in let u = unit(p.0, p.1); return [u.0, u.1] }
    }
}

let white = Color(r: 1, g: 1, b: 1)

func fillLayer(_ polygons: [ProjectedPolygon], antialias: Bool = false, color: Color = white, opacity: Double = 1,
               outline: Color? = nil, translate: (Double, Double) = (0, 0), anchor: TranslateAnchor = .map) -> EvaluatedLayer {
    .fill(EvaluatedFillLayer(id: "fill", antialias: antialias, translate: translate, translateAnchor: anchor,
                             features: [EvaluatedFill(polygons: polygons, color: color, opacity: opacity,
                                                      outlineColor: outline ?? color)]))
}

func lineLayer(_ parts: [(coords: [Double], closed: Bool)], width: Double, join: LineJoin = .miter,
               cap: LineCap = .butt, miterLimit: Double = 2, gapWidth: Double = 0, offset: Double = 0,
               blur: Double = 0, opacity: Double = 1) -> EvaluatedLayer {
    .line(EvaluatedLineLayer(id: "line", cap: cap, miterLimit: miterLimit, roundLimit: 1.05, translate: (0, 0),
                             translateAnchor: .map, gradient: nil,
                             features: [EvaluatedLine(parts: parts, join: join, color: white, opacity: opacity,
                                                      width: width, gapWidth: gapWidth, offset: offset, blur: blur,
                                                      dasharray: nil)]))
}

func circleLayer(_ centers: [Double], radius: Double, blur: Double = 0, strokeWidth: Double = 0,
                 strokeColor: Color = .black, translate: (Double, Double) = (0, 0), anchor: TranslateAnchor = .map,
                 pitchAlignment: CirclePitchAlignment = .viewport, pitchScale: CirclePitchScale = .map) -> EvaluatedLayer {
    .circle(EvaluatedCircleLayer(id: "circle", translate: translate, translateAnchor: anchor, pitchScale: pitchScale,
                                 pitchAlignment: pitchAlignment,
                                 features: [EvaluatedCircle(centers: centers, radius: radius, color: white, blur: blur,
                                                            opacity: 1, strokeWidth: strokeWidth,
                                                            strokeColor: strokeColor, strokeOpacity: 1)]))
}

/// Alpha (0…255) at a pixel.
func alpha(_ img: PremultipliedImage, _ x: Int, _ y: Int) -> Int { Int(img[x, y].a) }

/// Sum of alpha over the image, in covered pixels (alpha / 255).
func coveredPixels(_ img: PremultipliedImage) -> Double {
    var s = 0
    var i = 3
    while i < img.pixels.count { s += Int(img.pixels[i]); i += 4 }
    return Double(s) / 255
}

/// Column sums of alpha / 255 between two columns.
func coveredPixels(_ img: PremultipliedImage, columns: Range<Int>) -> Double {
    var s = 0
    for y in 0..<img.height { for x in columns { s += alpha(img, x, y) } }
    return Double(s) / 255
}
