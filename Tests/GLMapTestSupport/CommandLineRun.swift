import Foundation
import GLMapCLI
import GLMapCore
import XCTest

/// What one in-process run of `glmap` gave: its exit code and both streams.
public struct CommandLineRun: Sendable {
    /// The exit code (0 ok, 1 render/IO failure, 2 invalid input or usage).
    public let code: Int32
    /// Everything written to standard output.
    public let stdout: [UInt8]
    /// Everything written to standard error.
    public let stderr: String
    /// Standard output as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// Runs `glmap ARGS` in this process (as `GLMapCommand.run` does for the executable), with
    /// `stdin` as standard input and both output streams captured (writes may come from any thread).
    public init(_ args: [String], stdin: [UInt8] = []) {
        let out = Locked<[UInt8]>([]), err = Locked("")
        let io = CommandIO(readStdin: { stdin }, writeStdout: { bytes in out.withLock { $0 += bytes } },
                           writeStderr: { text in err.withLock { $0 += text } })
        code = GLMapCommand.run(args, io: io)
        stdout = out.value
        stderr = err.value
    }
}

/// A fresh temporary folder for one test, and files in it.
public struct TestFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Makes `<tmp>/<prefix>-<UUID>`.
    public init(_ prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder and everything in it, gone.
    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let p = path(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    /// The names directly in the folder, sorted.
    public func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Every path below the folder (relative to it), sorted.
    public func allFiles() -> [String] { ((try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

/// A test case with a fresh temporary folder for each test (`folder`, `tmp`), removed after it.
open class FolderTestCase: XCTestCase {
    /// This test's folder.
    public private(set) var folder: TestFolder!
    /// This test's folder, as a URL.
    public var tmp: URL { folder.url }
    /// The folder's name prefix (`glmap-test` unless a suite names its own).
    open var folderPrefix: String { "glmap-test" }

    open override func setUp() {
        super.setUp()
        folder = TestFolder(folderPrefix)
    }

    open override func tearDown() {
        folder.remove()
        super.tearDown()
    }
}
