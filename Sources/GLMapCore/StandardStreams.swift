#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard streams, written with `write(2)` so that every failure (a closed
/// stream, a reader that went away, a full disk) is an error the caller reports — never a trap.
public enum StandardStreams {
    /// Prepares a command-line process and returns the standard streams (0, 1, 2) that were
    /// closed when it started; glmap must never read or write those numbers (PNG bytes must not
    /// land in whatever took fd 1). A stream closed at start is either still closed — it is
    /// reopened on /dev/null so no file opened later takes its number — or already reused by the
    /// runtime (libdispatch opens descriptors before `main`): a descriptor inherited through
    /// `exec` never has FD_CLOEXEC set, so one that has it was opened by this process. SIGPIPE
    /// is ignored, so a reader that went away is an EPIPE error rather than a silent death.
    public static func prepareForCommandLine() -> Set<Int32> {
        var closed: Set<Int32> = []
        for fd: Int32 in 0...2 {
            let flags = fcntl(fd, F_GETFD)
            if flags == -1 && errno == EBADF {
                let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
                if null >= 0 && null != fd { dup2(null, fd); close(null) }
                closed.insert(fd)
            } else if flags >= 0 && flags & FD_CLOEXEC != 0 {
                closed.insert(fd)
            }
        }
        signal(SIGPIPE, SIG_IGN)
        return closed
    }

    /// Writes every byte to `fd` (retrying short writes and EINTR); throws `IOFailure` named
    /// `name` ("standard output") with the reason in words.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String = "standard output") throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw IOFailure(path: name, message: describeWriteError(code, written: offset, of: raw.count))
                }
                offset += n
            }
        }
    }

    /// "cannot write: <reason> (after N of M bytes)" with a hint for the common causes.
    public static func describeWriteError(_ code: Int32, written: Int, of total: Int) -> String {
        let reason: String
        switch code {
        case EBADF: reason = "it is closed"
        case EPIPE: reason = "the program reading it has exited (broken pipe)"
        case ENOSPC: reason = "no space left on the device"
        case EDQUOT: reason = "the disk quota is exhausted"
        default: reason = String(cString: strerror(code))
        }
        return "cannot write: \(reason) (\(written) of \(total) bytes written)"
    }
}
