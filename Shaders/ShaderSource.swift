/// GLSL ES 3.00 sources of glmap's programs, embedded into the binary at build time
/// (`.embedInCode`), so the `glmap` executable can be copied anywhere.
public enum ShaderSource {
    /// A program's vertex and fragment source.
    public struct Program: Sendable {
        /// The program's name (`fill_outline`), as `GPUBinding.programs` lists it.
        public let name: String
        /// The GLSL ES 3.00 vertex shader.
        public let vertex: String
        /// The GLSL ES 3.00 fragment shader.
        public let fragment: String
    }

    /// The `background` program: one colour over the viewport.
    public static let background = Program(name: "background", vertex: text(PackageResources.background_vert), fragment: text(PackageResources.background_frag))
    /// The `fill` program: triangulated polygons.
    public static let fill = Program(name: "fill", vertex: text(PackageResources.fill_vert), fragment: text(PackageResources.fill_frag))
    /// The `fill_outline` program: the 1-pixel antialiased outline of fills.
    public static let fillOutline = Program(name: "fill_outline", vertex: text(PackageResources.fill_outline_vert), fragment: text(PackageResources.fill_outline_frag))
    /// The `line` program: extruded lines with joins, caps, dashes and gradients.
    public static let line = Program(name: "line", vertex: text(PackageResources.line_vert), fragment: text(PackageResources.line_frag))
    /// The `circle` program: one instanced quad per circle, with stroke and blur.
    public static let circle = Program(name: "circle", vertex: text(PackageResources.circle_vert), fragment: text(PackageResources.circle_frag))

    /// The `clipping_mask` program: a tile's square, into the stencil buffer only.
    public static let clippingMask = Program(name: "clipping_mask", vertex: text(PackageResources.clipping_mask_vert), fragment: text(PackageResources.clipping_mask_frag))

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
