import Foundation

/// The check every writer makes before it writes a file: the file's folder must exist.
public enum OutputFolder {
    /// Throws `IOFailure` ("the directory DIR does not exist", exit 1) when the folder that would
    /// hold `path` is missing or not a folder; a bare name (the working directory) always passes.
    public static func requireParent(of path: String) throws {
        let dir = PathText.directory(of: path)
        var isDir: ObjCBool = false
        if !dir.isEmpty && !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw IOFailure(path: path, message: "the directory \(dir) does not exist")
        }
    }
}
