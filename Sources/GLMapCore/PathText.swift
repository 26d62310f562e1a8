/// Path arithmetic on plain strings. Foundation's `NSString.deletingLastPathComponent` and
/// `lastPathComponent` trap on a one-character name without a slash (`"a"`, `"_"`, `"."`) in this
/// toolchain, so glmap never calls them on user input.
public enum PathText {
    /// The folder part: "" for a bare name, "/" for a file in the root, no trailing slashes.
    public static func directory(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var dir = p[..<slash]
        while dir.count > 1 && dir.hasSuffix("/") { dir = dir.dropLast() }
        return dir.isEmpty ? "/" : String(dir)
    }

    /// The last component ("" for "/").
    public static func lastComponent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        if p == "/" { return "" }
        guard let slash = p.lastIndex(of: "/") else { return String(p) }
        return String(p[p.index(after: slash)...])
    }

    /// The last component without its extension ("world.style" for "maps/world.style.json").
    public static func stem(of path: String) -> String {
        let name = lastComponent(of: path), ext = pathExtension(of: path)
        return ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
    }

    /// The extension of the last component without the dot ("" when none).
    public static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
