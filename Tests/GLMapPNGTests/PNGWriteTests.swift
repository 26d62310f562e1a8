#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GLMapCore
@testable import GLMapPNG
import XCTest

/// A fresh directory under the system temp folder, removed when the value is released.
final class TemporaryDirectory {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/glmap-png-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw IOFailure(path: "tmp", message: "mkdtemp failed") }
        path = String(cString: made)
    }
    func contents(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + sub)) ?? []).sorted()
    }
    deinit {
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }
}

final class PNGWriteTests: XCTestCase {
    let image = randomImage(width: 23, height: 9, seed: 77)

    func testWriteThenReadBackLeavesOnlyTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.png"
        try PNGEncoder.write(image, to: path)
        XCTAssertEqual(dir.contents(), ["out.png"], "no temporary file may be left behind")
        XCTAssertTrue(try PNGDecoder.decode(contentsOf: path) == image)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertNotEqual(info.st_mode & 0o044, 0, "the file is readable by others as with a normal creation (umask permitting)")
    }

    func testOverwriteReplacesTheOldFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.png"
        try AtomicFileWriter.write(Array("old content".utf8), to: path)
        try PNGEncoder.write(image, to: path, compression: .small)
        XCTAssertEqual(dir.contents(), ["out.png"])
        XCTAssertTrue(try PNGDecoder.decode(contentsOf: path) == image)
    }

    func testMissingDirectoryFailsClearlyAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/no/such/dir/out.png"
        XCTAssertThrowsError(try PNGEncoder.write(image, to: path)) { error in
            guard let e = error as? PNGError else { return XCTFail("not a PNGError: \(error)") }
            XCTAssertEqual(e.operation, .write)
            XCTAssertEqual(e.kind, .renderOrIO)
            XCTAssertEqual(e.path, path)
            XCTAssertTrue(e.description.contains("No such file or directory"), e.description)
            XCTAssertTrue(e.description.contains("does the directory exist"), e.description)
        }
        XCTAssertEqual(dir.contents(), [])
    }

    func testParentThatIsAFileFails() throws {
        let dir = try TemporaryDirectory()
        try AtomicFileWriter.write([1, 2, 3], to: dir.path + "/plain")
        XCTAssertThrowsError(try PNGEncoder.write(image, to: dir.path + "/plain/out.png")) { error in
            XCTAssertEqual((error as? GLMapError)?.kind, .renderOrIO)
            XCTAssertTrue(String(describing: error).contains("Not a directory"), String(describing: error))
        }
        XCTAssertEqual(dir.contents(), ["plain"])
    }

    func testTargetThatIsADirectoryFailsAndRemovesTheTemporaryFile() throws {
        // A directory in the way is refused before any temporary file is created; none is left.
        let dir = try TemporaryDirectory()
        XCTAssertEqual(mkdir(dir.path + "/target.png", 0o755), 0)
        XCTAssertThrowsError(try PNGEncoder.write(image, to: dir.path + "/target.png")) { error in
            XCTAssertEqual((error as? PNGError)?.operation, .write)
            XCTAssertEqual(String(describing: error), "\(dir.path)/target.png: cannot write PNG: is a directory; give a file name")
        }
        XCTAssertEqual(dir.contents(), ["target.png"], "temporary file left behind")
        XCTAssertEqual(dir.contents("/target.png"), [])
    }

    func testReadOnlyDirectoryFailsAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let sub = dir.path + "/ro"
        XCTAssertEqual(mkdir(sub, 0o555), 0)
        if geteuid() == 0 {
            // Root ignores directory permissions; the failure path is covered by the other tests.
            print("note: testReadOnlyDirectoryFailsAndLeavesNothing runs as root, where a 0555 directory is writable; checking only that a successful write leaves no temporary file")
            try PNGEncoder.write(image, to: sub + "/out.png")
            XCTAssertEqual(dir.contents("/ro"), ["out.png"])
            return
        }
        XCTAssertThrowsError(try PNGEncoder.write(image, to: sub + "/out.png")) { error in
            XCTAssertEqual((error as? GLMapError)?.kind, .renderOrIO)
            XCTAssertTrue(String(describing: error).contains("Permission denied"), String(describing: error))
        }
        XCTAssertEqual(dir.contents("/ro"), [])
    }

    func testDirectoryPathAndEmptyPathAreRejected() {
        XCTAssertThrowsError(try AtomicFileWriter.write([1], to: "")) { error in
            XCTAssertTrue(error is IOFailure)
        }
        XCTAssertThrowsError(try AtomicFileWriter.write([1], to: "/tmp/")) { error in
            XCTAssertTrue(String(describing: error).contains("directory"), String(describing: error))
        }
    }

    func testDashWritesToStandardOutput() throws {
        let bytes = try PNGEncoder.encode(StraightImage(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)))
        XCTAssertLessThan(bytes.count, 4096, "fits a pipe buffer")
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        dup2(fds[1], STDOUT_FILENO)
        close(fds[1])
        let thrown: Error?
        do { try PNGEncoder.write(StraightImage(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)), to: "-"); thrown = nil } catch { thrown = error }
        dup2(saved, STDOUT_FILENO) // restores stdout and closes the pipe's last write end
        close(saved)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        close(fds[0])
        XCTAssertNil(thrown)
        XCTAssertEqual(received, bytes)
    }
}
