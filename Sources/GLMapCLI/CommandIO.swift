import GLMap
import Foundation
import GLMapCore

/// Where a command reads and writes (the real process streams, or buffers in tests).
public struct CommandIO {
    /// Reads all of standard input.
    public var readStdin: () -> [UInt8]
    /// Writes bytes to standard output.
    public var writeStdout: ([UInt8]) -> Void
    /// Writes text to standard error.
    public var writeStderr: (String) -> Void
    /// The first failure writing standard output, if any: the command then exits 1 with it.
    public var stdoutFailure: () -> IOFailure?

    /// Streams from closures; `stdoutFailure` reports nothing unless given.
    public init(readStdin: @escaping () -> [UInt8], writeStdout: @escaping ([UInt8]) -> Void, writeStderr: @escaping (String) -> Void,
                stdoutFailure: @escaping () -> IOFailure? = { nil }) {
        self.readStdin = readStdin
        self.writeStdout = writeStdout
        self.writeStderr = writeStderr
        self.stdoutFailure = stdoutFailure
    }

    /// The process's own standard streams; `closed` lists those that were closed at start
    /// (`StandardStreams.prepareForCommandLine()`): writing to a closed stdout is a failure.
    public static func process(closed: Set<Int32> = []) -> CommandIO {
        let sink = OutputFailure()
        return CommandIO(
            readStdin: { closed.contains(0) ? [] : [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
            writeStdout: { bytes in
                guard sink.failure == nil else { return }
                if closed.contains(1) { return sink.record(IOFailure(path: "standard output", message: "cannot write: it is closed")) }
                do { try StandardStreams.writeAll(bytes, to: 1) } catch let e as IOFailure { sink.record(e) } catch {}
            },
            writeStderr: { text in if !closed.contains(2) { try? StandardStreams.writeAll(Array(text.utf8), to: 2, name: "standard error") } },
            stdoutFailure: { sink.failure })
    }

    /// The process's own standard streams.
    public static var process: CommandIO { process() }
}

/// The first write failure of a stream (written from the command's thread, read at its end).
final class OutputFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: IOFailure?
    var failure: IOFailure? { lock.lock(); defer { lock.unlock() }; return first }
    func record(_ e: IOFailure) { lock.lock(); if first == nil { first = e }; lock.unlock() }
}
