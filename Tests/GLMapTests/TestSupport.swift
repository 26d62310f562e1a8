import Foundation
import GLMapCore

/// Straight-alpha pixel at (x, y) as an array.
func pixel<Alpha>(_ img: RGBAImage<Alpha>, _ x: Int, _ y: Int) -> [Int] {
    let p = img[x, y]
    return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}

/// Whether two RGBA colours agree within `tolerance` per channel.
func close(_ a: [Int], _ b: [Int], tolerance: Int = 2) -> Bool {
    zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

/// A temporary directory removed by the caller.
func makeTempDir() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-test-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
