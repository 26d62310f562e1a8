// Uniform image cache — contract
// Input: a worker's rendered frame (premultiplied RGBA). Output: its PNG, byte for byte what
// `PNGEncoder.encode(premultiplied:compression: .default)` writes for it (that call makes it).
// A frame of one colour throughout (open ocean, a land interior: most tiles of a deep pyramid)
// is encoded once per (size, colour) and its bytes reused: the encoder is deterministic, so the
// answer is the same; only the encode is skipped. At most `capacity` entries (oldest dropped).
// Threading: one per worker thread, never shared.
import Foundation
import GLMapCore
import GLMapPNG

/// Encoded PNGs of single-colour frames, per worker.
final class UniformImageCache {
    struct Key: Hashable { let width: Int; let height: Int; let pixel: UInt32 }
    private var entries: [Key: [UInt8]] = [:]
    private var order: [Key] = []
    let capacity: Int
    /// Frames answered from the cache (for metrics).
    private(set) var hits = 0

    init(capacity: Int = 64) { self.capacity = max(1, capacity) }

    /// The single colour of `image` as its four bytes in one word, or nil when it has two or more.
    static func uniformPixel(_ image: PremultipliedImage) -> UInt32? {
        let n = image.width * image.height
        guard n > 0, image.pixels.count >= 4 * n else { return nil }
        let w = image.width
        return image.pixels.withUnsafeBytes { raw -> UInt32? in
            guard let base = raw.baseAddress else { return nil }
            let first = raw.loadUnaligned(as: UInt32.self)
            // The first row word by word, then every other row against it (memcmp).
            for i in 1..<w where raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) != first { return nil }
            for y in 1..<image.height where memcmp(base, base + 4 * w * y, 4 * w) != 0 { return nil }
            return first
        }
    }

    /// The image's PNG (default compression), from the cache when it is one colour.
    func encode(_ image: PremultipliedImage) throws -> [UInt8] {
        guard let pixel = UniformImageCache.uniformPixel(image) else {
            return try PNGEncoder.encode(image, compression: .default)
        }
        let key = Key(width: image.width, height: image.height, pixel: pixel)
        if let png = entries[key] { hits += 1; return png }
        let png = try PNGEncoder.encode(image, compression: .default)
        if order.count >= capacity { entries[order.removeFirst()] = nil }
        entries[key] = png
        order.append(key)
        return png
    }
}
