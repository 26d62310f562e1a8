import GLMapCore
import GLMapStyle

/// One paint value as the GPU receives it.
public enum PaintValue: Equatable, Sendable {
    /// A number: one float.
    case number(Double)
    /// A premultiplied colour: four floats (r, g, b, a).
    case color(Color)

    /// A style value as a paint value of the property's type (colours premultiplied).
    init(_ v: Value, _ p: StyleProperty) {
        if p.spec.type == .color { self = .color(v.color ?? StyleEvaluator.defaultValue(p).color ?? .black) }
        else { self = .number(v.number ?? StyleEvaluator.defaultValue(p).number ?? 0) }
    }

    /// Appends its float components (colours premultiplied RGBA).
    @inline(__always)
    public func append(to out: inout [Float]) {
        switch self {
        case .number(let v): out.append(Float(v))
        case .color(let c): out.append(Float(c.r)); out.append(Float(c.g)); out.append(Float(c.b)); out.append(Float(c.a))
        }
    }

    /// The value's floats, as a vertex attribute or a uniform holds them.
    public var floats: [Float] { var a: [Float] = []; append(to: &a); return a }
}

/// The paint side of one bucket's program, as MapLibre's program configuration binds it: each of
/// the program's bound properties (`GPUBinding.properties(program:)`, table order) is
/// - a uniform with one value, when it reads neither feature nor zoom, or when it reads only the
///   feature but every feature of the bucket has the same value;
/// - a uniform evaluated per frame at the frame zoom, when it reads only the zoom ("camera");
/// - a vertex attribute `a_<name>`, when it reads the feature ("source");
/// - two vertex attributes `a_<name>` and `a_<name>_next` (the values at the tile zoom z and
///   z + 1) mixed in the shader by the uniform `u_<name>_t`, when it reads feature and zoom
///   ("composite").
/// So the vertices depend on the tile zoom only: another fractional zoom costs uniforms.
public struct PaintLayout: Sendable {
    /// How one property reaches the program.
    public enum Mode: Sendable, Equatable {
        /// A uniform with these floats for the whole bucket (constant, or equal for every feature).
        case uniform([Float])
        /// A uniform evaluated per frame at the frame zoom (zoom-only value).
        case camera
        /// A vertex attribute `a_<name>` (feature-dependent value).
        case attribute
        /// Two attributes (`a_<name>`, `a_<name>_next`) mixed by `u_<name>_t` (feature and zoom).
        case composite
    }

    /// The program name (`ShaderSource.Program.name`).
    public let program: String
    /// Every bound property of the program with its mode, in table order.
    public private(set) var entries: [(property: StyleProperty, mode: Mode)] = []
    /// Per-vertex attributes in vertex order: binding, float offset in the paint block, and
    /// whether it is composite (then `a_<name>_next` follows it).
    public private(set) var attributes: [(binding: GPUBinding, offset: Int, composite: Bool)] = []
    /// Floats of paint per vertex (after the geometry's own floats).
    public private(set) var floatsPerVertex = 0
    /// The expressions uniforms are evaluated from per frame.
    public let source: PaintSource

    /// Decides the layout for `program` from the layer's paint source and its features' values.
    public init<F>(program: String, features: [F], source: PaintSource, value: (F, StyleProperty) -> PaintValue) {
        self.program = program
        self.source = source
        for p in GPUBinding.properties(program: program) {
            let b = p.gpu!
            let mode: Mode
            switch source.variation(p) {
            case .camera: mode = .camera
            case .composite: mode = .composite
            case .constant, .source:
                let first = features.first.map { value($0, p) }
                if let first, features.contains(where: { value($0, p) != first }) {
                    mode = .attribute
                } else {
                    mode = .uniform((first ?? PaintValue(StyleEvaluator.defaultValue(p), p)).floats)
                }
            }
            entries.append((p, mode))
            if mode == .attribute || mode == .composite {
                attributes.append((b, floatsPerVertex, mode == .composite))
                floatsPerVertex += b.components * (mode == .composite ? 2 : 1)
            }
        }
    }

    /// Names of the inputs read per vertex, and of those among them that are composite.
    public var attributeNames: Set<String> { Set(attributes.map(\.binding.name)) }
    /// Names of the composite inputs among the attributes.
    public var compositeNames: Set<String> { Set(attributes.filter(\.composite).map(\.binding.name)) }

    /// The attribute properties, in vertex order.
    public var vertexProperties: [StyleProperty] {
        entries.filter { $0.mode == .attribute || $0.mode == .composite }.map(\.property)
    }

    /// The uniforms of the constant properties (spec name → floats), as a frame at any zoom has them.
    public var uniforms: [(binding: GPUBinding, value: [Float])] {
        entries.compactMap { e in if case .uniform(let v) = e.mode { return (e.property.gpu!, v) }; return nil }
    }

    /// A feature's per-vertex paint block (`floatsPerVertex` floats). `next` is the same feature
    /// evaluated at the tile zoom + 1 (composite values; nil: the same as `feature`).
    public func vertexValues<F>(_ feature: F, next: F?, value: (F, StyleProperty) -> PaintValue) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(floatsPerVertex)
        for e in entries {
            switch e.mode {
            case .attribute:
                value(feature, e.property).append(to: &out)
            case .composite:
                value(feature, e.property).append(to: &out)
                value(next ?? feature, e.property).append(to: &out)
            case .uniform, .camera:
                break
            }
        }
        return out
    }

    /// Every uniform the paint needs for a frame at `zoom`: constant values, camera values
    /// evaluated at `zoom`, and `u_<name>_t` of composite ones.
    public func uniformValues(zoom: Double) -> [(name: String, value: [Float])] {
        entries.compactMap { e in
            let b = e.property.gpu!
            switch e.mode {
            case .uniform(let v): return (b.uniform, v)
            case .camera: return (b.uniform, PaintValue(source.value(e.property, zoom: zoom), e.property).floats)
            case .composite: return (b.uniform + "_t", [Float(source.mixFactor(e.property, zoom: zoom))])
            case .attribute: return nil
            }
        }
    }
}
