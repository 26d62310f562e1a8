import GLMapShaders

/// How a paint property reaches the GPU. The shader is the one declaration: a vertex shader names
/// the input once, `#pragma glmap: define <type> <name>` at file scope and
/// `#pragma glmap: initialize <type> <name>` in `main` (MapLibre's `#pragma mapbox` scheme), and
/// the property follows from the names: program `fill`, `fill_outline` → layer type `fill` (the
/// longest layer type the program name starts with, `_` read as `-`), input `gap_width` →
/// property suffix `gap-width`, so `gap_width` in program `line` is `line-gap-width`. The GL
/// backend expands the pair, per program variant, into either `uniform <type> u_<name>;` (the
/// layer's value does not read the feature: one value per draw) or `in <type> a_<name>;`
/// (data-driven: one value per vertex or instance), and in `main` into a local `<name>` read from
/// whichever it is. Bucket vertex layouts follow from the same bindings; a test checks that every
/// input names a property of the spec with the matching type.
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

    /// The binding of the property named `property` (`line-gap-width`), if a shader reads it.
    public static func binding(of property: String) -> GPUBinding? { declared[property] }

    /// Every bound paint property of a layer type, in table order.
    public static func properties(of type: LayerType) -> [StyleProperty] {
        type.properties.filter { declared[$0.name] != nil }
    }

    /// The bound properties a program reads, in table order (its vertex layout order).
    public static func properties(program: String) -> [StyleProperty] {
        byProgram[program] ?? boundProperties(program: program)
    }

    static func boundProperties(program: String) -> [StyleProperty] {
        guard let type = layerType(program: program) else { return [] }
        return properties(of: type).filter { declared[$0.name]!.programs.contains(program) }
    }

    /// `properties(program:)` of every embedded program, worked out once (buckets ask per tile).
    static let byProgram: [String: [StyleProperty]] = {
        var out: [String: [StyleProperty]] = [:]
        for program in ShaderSource.all where out[program.name] == nil {
            out[program.name] = boundProperties(program: program.name)
        }
        return out
    }()

    /// The layer type a program draws: the longest layer type whose name, `-` written `_`, is the
    /// program's name or starts it followed by `_` (`fill_outline` → fill, `fill_extrusion` →
    /// fill-extrusion).
    public static func layerType(program: String) -> LayerType? {
        LayerType.allCases.filter { t in
            let stem = t.rawValue.replacing("-", with: "_")
            return program == stem || program.hasPrefix(stem + "_")
        }.max { $0.rawValue.count < $1.rawValue.count }
    }

    /// The property a program's input stands for (`line`, `gap_width` → `line-gap-width`). Symbol
    /// programs read `text-*` or `icon-*` properties: `symbol_icon…` programs the icon ones
    /// (`symbol_icon_sdf`, `halo_color` → `icon-halo-color`), the others the text ones.
    public static func propertyName(program: String, input: String) -> String? {
        guard let type = layerType(program: program) else { return nil }
        let prefix = type == .symbol ? (program.hasPrefix("symbol_icon") ? "icon" : "text") : type.rawValue
        return prefix + "-" + input.replacing("_", with: "-")
    }

    /// Bindings by property name, from every program's `#pragma glmap: define` inputs.
    static let declared: [String: GPUBinding] = {
        var out: [String: GPUBinding] = [:]
        for program in ShaderSource.all {
            for input in program.paintInputs {
                guard let property = propertyName(program: program.name, input: input.name) else { continue }
                let programs = (out[property]?.programs ?? []) + [program.name]
                out[property] = GPUBinding(input.name, components: input.components, programs: programs)
            }
        }
        return out
    }()
}
