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
    /// Hands over what a command has finished with: dropped at once in-process (the default),
    /// kept for the process's own streams, whose command `_exit`s right after, so a large scene
    /// is not torn down object by object before the exit (14 % of a cold `glmap render` of a
    /// 100,000-point GeoJSON source went to freeing it).
    public var keepUntilExit: (AnyObject) -> Void = { _ in }

    /// Streams from closures; `stdoutFailure` reports nothing unless given.
    public init(readStdin: @escaping () -> [UInt8], writeStdout: @escaping ([UInt8]) -> Void, writeStderr: @escaping (String) -> Void,
                stdoutFailure: @escaping () -> IOFailure? = { nil }) {
        (self.readStdin, self.writeStdout, self.writeStderr) = (readStdin, writeStdout, writeStderr)
        self.stdoutFailure = stdoutFailure
    }

    /// The process's own standard streams; `closed` lists those that were closed at start
    /// (`StandardStreams.prepareForCommandLine()`): writing to a closed stdout is a failure.
    public static func process(closed: Set<Int32> = []) -> CommandIO {
        let firstFailure = Locked<IOFailure?>(nil)   // the first write failure of standard output
        return CommandIO(
            readStdin: { closed.contains(0) ? [] : [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
            writeStdout: { bytes in
                guard firstFailure.value == nil else { return }
                if closed.contains(1) { return firstFailure.withLock { $0 = $0 ?? IOFailure(path: "standard output", message: "cannot write: it is closed") } }
                do { try StandardStreams.writeAll(bytes, to: 1) } catch let e as IOFailure { firstFailure.withLock { $0 = $0 ?? e } } catch {}
            },
            writeStderr: { text in if !closed.contains(2) { try? StandardStreams.writeAll(Array(text.utf8), to: 2, name: "standard error") } },
            stdoutFailure: { firstFailure.value }).keepingUntilExit()
    }

    /// The same streams with `keepUntilExit` holding on to what it is given.
    private func keepingUntilExit() -> CommandIO {
        var io = self
        io.keepUntilExit = { object in CommandIO.keptUntilExit.withLock { $0.append(object) } }
        return io
    }

    private static let keptUntilExit = Locked<[AnyObject]>([])

    /// The process's own standard streams.
    public static var process: CommandIO { process() }
}

extension CommandIO {
    /// Says on stderr why the GPU could not be had when `--backend auto` falls back to the CPU
    /// (nothing when `reason` is nil: the GPU draws).
    func noteCPUFallback(_ reason: String?) {
        guard let reason else { return }
        writeStderr("glmap: no usable EGL/GLES (\(reason)); rendering on the CPU\n")
    }
}
