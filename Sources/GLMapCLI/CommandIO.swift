import GLMap
import Foundation

/// Where a command reads and writes (the real process streams, or buffers in tests).
public struct CommandIO {
    public var readStdin: () -> [UInt8]
    public var writeStdout: ([UInt8]) -> Void
    public var writeStderr: (String) -> Void

    public init(readStdin: @escaping () -> [UInt8], writeStdout: @escaping ([UInt8]) -> Void, writeStderr: @escaping (String) -> Void) {
        self.readStdin = readStdin
        self.writeStdout = writeStdout
        self.writeStderr = writeStderr
    }

    /// The process's own standard streams.
    public static var process: CommandIO {
        CommandIO(readStdin: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
                  writeStdout: { FileHandle.standardOutput.write(Data($0)) },
                  writeStderr: { FileHandle.standardError.write(Data($0.utf8)) })
    }
}
