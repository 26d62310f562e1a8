/// glmap's version, as `glmap --version` and `glmap info` print it.
public enum GLMapVersion {
    /// The release this source tree is (semantic versioning).
    public static let current = "0.1.0"
    /// "glmap 0.1.0".
    public static var line: String { "glmap \(current)" }
}
