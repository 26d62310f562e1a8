import Foundation

/// Temporary files being written right now (atomic writers register them until they are renamed
/// into place or deleted), so an interrupted process can delete them: finished outputs stay,
/// the unfinished one leaves nothing behind.
public enum InFlightFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths = Set<String>()
    nonisolated(unsafe) private static var interrupted = false
    nonisolated(unsafe) private static var signalNumber: Int32 = 0

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

    /// Forgets `path` once it was renamed into place or deleted.
    public static func unregister(_ path: String) {
        lock.lock(); paths.remove(path); lock.unlock()
    }

    /// The signal that interrupted the process (set before its files are removed), if any.
    public static var interruptingSignal: Int32? {
        lock.lock(); defer { lock.unlock() }
        return interrupted ? signalNumber : nil
    }

    /// Deletes every registered temporary file (on SIGINT/SIGTERM).
    public static func removeAll(signal: Int32 = SIGTERM) {
        lock.lock()
        interrupted = true
        signalNumber = signal
        for p in paths { unlink(p) }
        paths.removeAll()
        lock.unlock()
    }

    /// Installs SIGINT/SIGTERM handling for a command-line process: on either signal, delete the
    /// in-flight temporary files and exit with 128 + the signal number (130 / 143). The exit is
    /// `_exit`: the GL and encoder threads are still running, and `exit`'s atexit handlers and
    /// library destructors (Mesa's among them) would tear state down under them and crash.
    public static func installSignalCleanup() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                removeAll(signal: sig)
                let message = Array("glmap: interrupted (signal \(sig)); unfinished outputs removed\n".utf8)
                _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// For the command's main thread when it finishes: if a signal interrupted the run (its work
    /// then fails with "interrupted" errors), exit with the signal's code, not the failure's.
    public static func exitIfInterrupted() {
        if let sig = interruptingSignal { _exit(128 + sig) }
    }
}
