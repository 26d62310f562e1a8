import Foundation

/// Temporary files being written right now (atomic writers register them until they are renamed
/// into place or deleted), so an interrupted process can delete them: finished outputs stay,
/// the unfinished one leaves nothing behind.
public enum InFlightFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths = Set<String>()

    public static func register(_ path: String) {
        lock.lock(); paths.insert(path); lock.unlock()
    }

    public static func unregister(_ path: String) {
        lock.lock(); paths.remove(path); lock.unlock()
    }

    /// Deletes every registered temporary file (on SIGINT/SIGTERM).
    public static func removeAll() {
        lock.lock()
        for p in paths { unlink(p) }
        paths.removeAll()
        lock.unlock()
    }

    /// Installs SIGINT/SIGTERM handling for a command-line process: on either signal, delete the
    /// in-flight temporary files and exit with 128 + the signal number (130 / 143).
    public static func installSignalCleanup() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                removeAll()
                FileHandle.standardError.write(Data("glmap: interrupted (signal \(sig)); unfinished outputs removed\n".utf8))
                exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
}
