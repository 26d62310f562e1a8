/// GLSL ES 3.00 sources of glmap's programs, embedded into the binary at build time
/// (`.embedInCode`), so the `glmap` executable can be copied anywhere.
public enum ShaderSource {
    /// A program's vertex and fragment source.
    public struct Program: Sendable {
        public let name: String
        public let vertex: String
        public let fragment: String
    }

    public static let background = Program(name: "background", vertex: text(PackageResources.background_vert), fragment: text(PackageResources.background_frag))
    public static let fill = Program(name: "fill", vertex: text(PackageResources.fill_vert), fragment: text(PackageResources.fill_frag))
    public static let fillOutline = Program(name: "fill_outline", vertex: text(PackageResources.fill_outline_vert), fragment: text(PackageResources.fill_outline_frag))
    public static let line = Program(name: "line", vertex: text(PackageResources.line_vert), fragment: text(PackageResources.line_frag))
    public static let circle = Program(name: "circle", vertex: text(PackageResources.circle_vert), fragment: text(PackageResources.circle_frag))

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
