#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GLMapCore

/// Writes whole files so that readers see either the old content or the complete new content.
///
/// Contract: the bytes go to a new temporary file in the destination's directory (so the final
/// `rename` never crosses file systems), are `fsync`ed, and the temporary file is renamed over
/// `path`; the directory is then synced (best effort). On any failure the temporary file is
/// removed and `path` is left as it was (absent or with its old content). `"-"` means standard
/// output, written directly (no atomicity is possible there). New files get mode 0666 filtered
/// by the process umask, like any ordinary file creation.
///
/// Rules for an existing `path` (checked before anything is written; each refusal is an
/// `IOFailure`, exit 1): a symbolic link is followed and its target replaced (the link stays a
/// link); a link to nothing is refused; a directory, device, FIFO or socket is refused (glmap only
/// ever replaces regular files); a read-only file (no write bit set, whoever runs glmap) is refused
/// rather than silently replaced; a replaced file keeps its permission bits.
public enum AtomicFileWriter {
    /// Writes `bytes` to `path` atomically (temp file + fsync + rename); `"-"` writes to stdout.
    /// Throws `IOFailure` naming the path and the system error.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try StandardStreams.writeAll(bytes, to: STDOUT_FILENO)
            return
        }
        guard !path.isEmpty else { throw IOFailure(path: path, message: "empty output path") }
        guard !path.hasSuffix("/") else {
            throw IOFailure(path: path, message: "the output path names a directory; give a file name")
        }
        let (destination, keepMode) = try checkDestination(path)
        let (directory, name) = split(destination)
        let (fd, tempPath) = try createTemporaryFile(directory: directory, name: name, finalPath: path)
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
            InFlightFiles.unregister(tempPath)
        }
        do {
            try writeAll(bytes, to: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
        if let keepMode { _ = fchmod(fd, keepMode) }
        if fsync(fd) != 0 {
            let message = systemError("cannot flush the temporary file \(tempPath) to disk")
            close(fd)
            throw IOFailure(path: path, message: message)
        }
        if close(fd) != 0 {
            throw IOFailure(path: path, message: systemError("cannot close the temporary file \(tempPath)"))
        }
        if rename(tempPath, destination) != 0 {
            throw IOFailure(path: path, message: systemError("cannot move the temporary file \(tempPath) into place"))
        }
        ok = true
        syncDirectory(directory)
    }

    /// The file to replace (a symlink's target) and the mode to keep, or the refusal.
    private static func checkDestination(_ path: String) throws -> (String, mode_t?) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return (path, nil) }   // absent: created
        var destination = path
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw IOFailure(path: path, message: "is a symbolic link to a missing file; glmap does not create files through dangling links: create the target or remove the link")
            }
            destination = String(cString: resolved)
            free(resolved)
            guard stat(destination, &st) == 0 else { return (destination, nil) }
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw IOFailure(path: path, message: "is a directory; give a file name")
        default: throw IOFailure(path: path, message: "is not a regular file (a device, FIFO or socket); glmap only replaces regular files")
        }
        if st.st_mode & 0o222 == 0 {
            throw IOFailure(path: path, message: "is read-only (mode \(String(st.st_mode & 0o7777, radix: 8))); glmap does not replace read-only files: make it writable or remove it")
        }
        return (destination, st.st_mode & 0o7777)
    }

    /// Splits `path` into its directory ("." when there is none) and last component.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }

    /// Creates `<directory>/.<name>.tmp-<random>` exclusively; retries on a (very unlikely) name clash.
    private static func createTemporaryFile(directory: String, name: String, finalPath: String) throws -> (Int32, String) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<16 {
            let suffix = String(generator.next() as UInt64, radix: 36)
            let tempPath = (directory == "/" ? "" : directory) + "/.\(name).tmp-\(suffix)"
            let fd = InFlightFiles.create(tempPath, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o666)
            if fd >= 0 { return (fd, tempPath) }
            if errno == EEXIST { continue }
            let hint: String
            switch errno {
            case ENOENT: hint = " (does the directory exist?)"
            case EACCES, EPERM, EROFS: hint = " (is the directory writable?)"
            case ENOTDIR: hint = " (a component of the path is not a directory)"
            default: hint = ""
            }
            throw IOFailure(path: finalPath, message: systemError("cannot create a temporary file in \(directory)") + hint)
        }
        throw IOFailure(path: finalPath, message: "cannot create a unique temporary file in \(directory)")
    }

    /// Writes every byte, retrying on short writes and EINTR.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw IOFailure(path: path, message: StandardStreams.describeWriteError(errno, written: offset, of: raw.count))
                }
                offset += n
            }
        }
    }

    /// Makes the rename durable; failures are ignored (some file systems cannot sync directories).
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}

/// `write(2)`, reachable from inside `AtomicFileWriter` whose own `write` shadows the name.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// `context: strerror(errno)`.
func systemError(_ context: String) -> String {
    let code = errno
    return "\(context): \(String(cString: strerror(code)))"
}
