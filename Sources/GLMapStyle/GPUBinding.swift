/// How a paint property reaches the GPU — the one declaration that ties a property-table row to
/// its shader input. A shader names the input once, `#pragma glmap: define <type> <name>` at file
/// scope and `#pragma glmap: initialize <type> <name>` in `main` (MapLibre's `#pragma mapbox`
/// scheme); the GL backend expands the pair, per program variant, into either
/// `uniform <type> u_<name>;` (the layer's value does not read the feature: one value per draw)
/// or `in <type> a_<name>;` (data-driven: one value per vertex or instance), and in `main` into a
/// local `<name>` read from whichever it is. Bucket vertex layouts follow from the same rows, and
/// a test checks every row against the GLSL the expansion produces.
public struct GPUBinding: Hashable, Sendable {
    /// The shader input's name (`color` → `a_color` / `u_color`).
    public let name: String
    /// Float components: 4 for colours (premultiplied RGBA), 1 for numbers.
    public let components: Int
    /// The programs (`ShaderSource.Program.name`) that read the input.
    public let programs: [String]

    /// Creates a binding of the shader input `name` with `components` floats, read by `programs`.
    public init(_ name: String, components: Int, programs: [String]) {
        self.name = name
        self.components = components
        self.programs = programs
    }

    /// The vertex attribute used when the value is data-driven.
    public var attribute: String { "a_" + name }
    /// The uniform used when the value is the same for every feature.
    public var uniform: String { "u_" + name }
    /// The GLSL type of the input (`float` or `vec4`).
    public var glslType: String { components == 1 ? "float" : "vec\(components)" }

    /// Every bound paint property of every layer type, in table order.
    public static func properties(of type: LayerType) -> [StyleProperty] {
        type.properties.filter { $0.gpu != nil }
    }

    /// The bound properties a program reads, in table order (its vertex layout order).
    public static func properties(program: String) -> [StyleProperty] {
        LayerType.allCases.flatMap { properties(of: $0) }.filter { $0.gpu!.programs.contains(program) }
    }
}
