import Foundation

/// Temporary files being written right now (atomic writers register them until they are renamed
/// into place or deleted), so an interrupted process can delete them: finished outputs stay,
/// the unfinished one leaves nothing behind.
public enum InFlightFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths = Set<String>()
    nonisolated(unsafe) private static var interrupted = false

    /// Creates a temporary file (`open` with `flags`/`mode`) and registers it, atomically with
    /// respect to `removeAll`: after an interruption nothing new is created (returns -1, EINTR).
    public static func create(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
        lock.lock(); defer { lock.unlock() }
        if interrupted { errno = EINTR; return -1 }
        let fd = open(path, flags, mode)
        if fd >= 0 { paths.insert(path) }
        return fd
    }

    /// Registers a temporary file created by someone else (e.g. SQLite); false after an interruption.
    @discardableResult
    public static func register(_ path: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if interrupted { return false }
        paths.insert(path)
        return true
    }

    public static func unregister(_ path: String) {
        lock.lock(); paths.remove(path); lock.unlock()
    }

    /// Deletes every registered temporary file (on SIGINT/SIGTERM).
    public static func removeAll() {
        lock.lock()
        interrupted = true
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
