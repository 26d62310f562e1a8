// INTERIM: replaced by the `png` branch at merge. Same API.
import CPNG
import Foundation
import GLMapCore

public enum PNGEncoder {
    public static func encode(_ image: RGBAImage, compressionLevel: Int = 6) throws -> [UInt8] {
        var img = png_image()
        img.version = UInt32(PNG_IMAGE_VERSION)
        img.width = UInt32(image.width); img.height = UInt32(image.height)
        img.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size: Int = 0
        _ = image.pixels.withUnsafeBytes { png_image_write_to_memory(&img, nil, &size, 0, $0.baseAddress, 0, nil) }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { o in image.pixels.withUnsafeBytes { png_image_write_to_memory(&img, o.baseAddress, &size, 0, $0.baseAddress, 0, nil) } }
        guard ok != 0 else { throw IOFailure(path: "png", message: "encode failed") }
        return Array(out[0..<size])
    }
    public static func write(_ image: RGBAImage, to path: String, compressionLevel: Int = 6) throws {
        let bytes = try encode(image)
        if path == "-" { FileHandle.standardOutput.write(Data(bytes)); return }
        let tmp = path + ".tmp\(getpid())"
        guard FileManager.default.createFile(atPath: tmp, contents: Data(bytes)) else { throw IOFailure(path: path, message: "cannot write") }
        guard rename(tmp, path) == 0 else { unlink(tmp); throw IOFailure(path: path, message: "cannot rename") }
    }
}
