import GLMapCore
import GLMapStyle

/// One paint value as the GPU receives it.
public enum PaintValue: Equatable, Sendable {
    case number(Double)
    case color(Color)

    /// Its float components (colours premultiplied RGBA).
    @inline(__always)
    public func append(to out: inout [Float]) {
        switch self {
        case .number(let v): out.append(Float(v))
        case .color(let c): out.append(Float(c.r)); out.append(Float(c.g)); out.append(Float(c.b)); out.append(Float(c.a))
        }
    }

    public var floats: [Float] { var a: [Float] = []; append(to: &a); return a }
}

/// The paint side of one bucket's program: which of the program's bound properties
/// (`GPUBinding.properties(program:)`, table order) are vertex attributes and which are uniforms,
/// and the uniforms' values. A property is an attribute when its value reads the feature
/// (`perFeature`, from evaluation) or when the bucket's features disagree on it; otherwise it is
/// one uniform for the draw, and the vertices do not carry it.
public struct PaintLayout: Sendable {
    /// The program name (`ShaderSource.Program.name`).
    public let program: String
    /// Per-vertex attributes in vertex order: binding and float offset within the paint block.
    public private(set) var attributes: [(binding: GPUBinding, offset: Int)] = []
    /// Uniform values of the constant properties.
    public private(set) var uniforms: [(binding: GPUBinding, value: [Float])] = []
    /// Floats of paint per vertex (after the geometry's own floats).
    public private(set) var floatsPerVertex = 0

    /// Decides the layout for `program` from the features' values (`value(feature, property)`).
    public init<F>(program: String, features: [F], perFeature: Set<String>,
                   value: (F, StyleProperty) -> PaintValue) {
        self.program = program
        var props: [StyleProperty] = []
        for p in GPUBinding.properties(program: program) {
            let b = p.gpu!
            let first = features.first.map { value($0, p) }
            var varies = perFeature.contains(p.name)
            if !varies, let first { varies = features.contains { value($0, p) != first } }
            if varies {
                attributes.append((b, floatsPerVertex))
                props.append(p)
                floatsPerVertex += b.components
            } else {
                uniforms.append((b, (first ?? PaintLayout.defaultValue(p)).floats))
            }
        }
        vertexProperties = props
    }

    /// The attribute properties, in vertex order.
    public let vertexProperties: [StyleProperty]

    /// A feature's per-vertex paint block (`floatsPerVertex` floats).
    public func vertexValues<F>(_ feature: F, value: (F, StyleProperty) -> PaintValue) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(floatsPerVertex)
        for p in vertexProperties { value(feature, p).append(to: &out) }
        return out
    }

    /// The spec default of a property, as a paint value.
    static func defaultValue(_ p: StyleProperty) -> PaintValue {
        let v = StyleEvaluator.defaultValue(p)
        if let c = v.color { return .color(c) }
        return .number(v.number ?? 0)
    }
}
