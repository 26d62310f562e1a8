// Paint inputs of the shaders — one declaration per property (see GPUBinding in GLMapStyle):
//   #pragma glmap: define <type> <name>        at file scope
//   #pragma glmap: initialize <type> <name>    inside main()
// expand, for one program variant, to `in <type> a_<name>;` + `<type> <name> = a_<name>;` when
// the name is among the variant's attributes, else to `uniform <type> u_<name>;` +
// `<type> <name> = u_<name>;`. A composite input (data and zoom) is two attributes, the values
// at the tile zoom and the next, mixed by a uniform: `in <type> a_<name>; in <type> a_<name>_next;
// uniform float u_<name>_t;` + `<type> <name> = mix(a_<name>, a_<name>_next, u_<name>_t);`
// (MapLibre's composite-function binder). Anything else after `#pragma glmap:` is an error, and so is an
// attribute the variant asks for that the shader does not define. Pragmas belong in vertex
// shaders only (paint reaches the fragment shader through varyings).
import Foundation
import GLMapShaders

/// Expands the `#pragma glmap` paint inputs of a shader and lists the inputs a source declares.
enum ShaderPragmas {
    /// A paint input named by a `define` pragma.
    struct Input: Equatable {
        let type: String
        let name: String
    }

    /// The paint inputs a source defines, in order.
    static func inputs(_ source: String, file: String) throws -> [Input] {
        var out: [Input] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if let (kind, input) = try parse(line, file: file), kind == "define" { out.append(input) }
        }
        return out
    }

    /// The source with every pragma expanded; `attributes` are the inputs read per vertex.
    static func expand(_ source: String, attributes: Set<String>, composite: Set<String> = [], file: String) throws -> String {
        var lines: [String] = []
        var defined: Set<String> = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let (kind, input) = try parse(line, file: file) else { lines.append(String(line)); continue }
            let attribute = attributes.contains(input.name)
            let mixed = attribute && composite.contains(input.name)
            let (t, n) = (input.type, input.name)
            if kind == "define" {
                defined.insert(input.name)
                lines.append(mixed ? "in \(t) a_\(n); in \(t) a_\(n)_next; uniform float u_\(n)_t;"
                             : attribute ? "in \(t) a_\(n);" : "uniform \(t) u_\(n);")
            } else if mixed {
                lines.append("    \(t) \(n) = mix(a_\(n), a_\(n)_next, u_\(n)_t);")
            } else {
                guard defined.contains(input.name) else {
                    throw GLError(call: "glShaderSource", message: "Shaders/\(file): `#pragma glmap: initialize \(input.type) \(input.name)` has no define before it")
                }
                lines.append("    \(input.type) \(input.name) = \(attribute ? "a_" : "u_")\(input.name);")
            }
        }
        if let missing = attributes.subtracting(defined).sorted().first {
            throw GLError(call: "glShaderSource", message: "Shaders/\(file) has no paint input `\(missing)` (no `#pragma glmap: define … \(missing)`), but the bucket supplies attribute a_\(missing)")
        }
        return lines.joined(separator: "\n")
    }

    /// `(define|initialize, input)` for a pragma line, nil for any other line.
    static func parse(_ line: Substring, file: String) throws -> (String, Input)? {
        var text = line.drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("#pragma glmap:") else { return nil }
        text = text.dropFirst("#pragma glmap:".count)
        if let comment = text.range(of: "//") { text = text[..<comment.lowerBound] }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count == 3, words[0] == "define" || words[0] == "initialize",
              ["float", "vec2", "vec3", "vec4"].contains(words[1]) else {
            throw GLError(call: "glShaderSource", message: "Shaders/\(file): cannot read `\(line.trimmingCharacters(in: .whitespaces))`; expected `#pragma glmap: define|initialize float|vec2|vec3|vec4 name`")
        }
        return (words[0], Input(type: words[1], name: words[2]))
    }

    /// Names declared `in <type> <name>;` (the vertex inputs a source has; several
    /// declarations may share a line).
    static func declaredAttributes(_ source: String) -> Set<String> { declared(source, "in") }

    /// Names declared `uniform <type> <name>;`.
    static func declaredUniforms(_ source: String) -> Set<String> { declared(source, "uniform") }

    static func declared(_ source: String, _ qualifier: String) -> Set<String> {
        var out: Set<String> = []
        for line in source.split(separator: "\n") {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
            for statement in code.split(separator: ";") {
                let words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard words.count >= 3, words[0] == qualifier else { continue }
                out.insert(String(words[words.count - 1]))
            }
        }
        return out
    }
}
