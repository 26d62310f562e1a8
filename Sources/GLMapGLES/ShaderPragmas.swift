// Paint inputs of the shaders — one declaration per property (see GPUBinding in GLMapStyle):
//   #pragma glmap: define <type> <name>        at file scope
//   #pragma glmap: initialize <type> <name>    inside main()
// expand, for one program variant, to `in <type> a_<name>;` + `<type> <name> = a_<name>;` when
// the name is among the variant's attributes, else to `uniform <type> u_<name>;` +
// `<type> <name> = u_<name>;`. Anything else after `#pragma glmap:` is an error, and so is an
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
    static func expand(_ source: String, attributes: Set<String>, file: String) throws -> String {
        var lines: [String] = []
        var defined: Set<String> = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let (kind, input) = try parse(line, file: file) else { lines.append(String(line)); continue }
            let attribute = attributes.contains(input.name)
            if kind == "define" {
                defined.insert(input.name)
                lines.append(attribute ? "in \(input.type) a_\(input.name);" : "uniform \(input.type) u_\(input.name);")
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

    /// Names declared `in <type> <name>;` at the start of a line (the vertex inputs a source has).
    static func declaredAttributes(_ source: String) -> Set<String> {
        var out: Set<String> = []
        for line in source.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" })
            guard words.count >= 3, words[0] == "in" else { continue }
            out.insert(String(words[2]))
        }
        return out
    }

    /// Names declared `uniform <type> <name>;` at the start of a line.
    static func declaredUniforms(_ source: String) -> Set<String> {
        var out: Set<String> = []
        for line in source.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" })
            guard words.count >= 3, words[0] == "uniform" else { continue }
            out.insert(String(words[2]))
        }
        return out
    }
}
