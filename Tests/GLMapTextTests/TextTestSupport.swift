import Foundation
import GLMapTestSupport
import GLMapText
import XCTest

/// Paths and helpers the GLMapText tests share: the render suite's glyphs and sprites, a fetch
/// closure over folders (`local://` URLs as the suite's harness serves them), the system font.
enum TextFixtures {
    static let suite = SharedData.root.appendingPathComponent("render-suite")
    static let glyphs = suite.appendingPathComponent("glyphs")
    static let sprites = suite.appendingPathComponent("sprites")
    static let openSans = "Open Sans Semibold,Arial Unicode MS Bold"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Skips (fails under CI=true) when the render suite is absent.
    static func requireSuite() throws { try SharedData.require("MapLibre's render suite", at: suite) }

    /// Skips (fails under CI=true) when DejaVu Sans is not installed (`fonts-dejavu-core`).
    static func requireDejaVu() throws {
        try SharedData.require("DejaVu Sans (Debian fonts-dejavu-core)", at: URL(fileURLWithPath: dejaVu))
    }

    /// A fetch that maps `local://X` to `suite/X` (nil when the file is absent), logging URLs.
    static func localFetch(log: LockedLog? = nil) -> ResourceFetch {
        let root = suite.path
        return { url in
            log?.append(url)
            guard url.hasPrefix("local://") else { return nil }
            var path = String(url.dropFirst("local://".count))
            if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
            return [UInt8](data)
        }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

/// A thread-safe list of strings (URLs fetched).
final class LockedLog: @unchecked Sendable {
    private var items: [String] = []
    private let lock = NSLock()
    func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
