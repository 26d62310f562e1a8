internal import CGLES3
import GLMapShaders

/// A linked GLSL ES program with its attribute and uniform locations looked up by name.
final class GLProgram {
    let id: GLuint
    let name: String
    private var uniforms: [String: GLint] = [:]
    /// The vertex inputs the expanded vertex source declares (`in <type> <name>;`).
    let declaredAttributes: Set<String>

    /// Compiles and links a program; `defines` are inserted as `#define NAME` after the
    /// `#version` line of both shaders (variants of one source, e.g. the line program's DASH);
    /// `attributes` are the paint inputs read per vertex (ShaderPragmas: the rest are uniforms).
    init(_ source: ShaderSource.Program, defines: [String] = [], attributes: Set<String> = [], composite: Set<String> = []) throws {
        var label = defines
        if !attributes.isEmpty { label.append("attributes " + attributes.sorted().joined(separator: " ")) }
        if !composite.isEmpty { label.append("composite " + composite.sorted().joined(separator: " ")) }
        name = label.isEmpty ? source.name : "\(source.name) (\(label.joined(separator: ", ")))"
        let vertexText = try ShaderPragmas.expand(GLProgram.define(defines, in: source.vertex), attributes: attributes,
                                                  composite: composite, file: "\(source.name).vert")
        guard try ShaderPragmas.inputs(source.fragment, file: "\(source.name).frag").isEmpty else {
            throw GLError(call: "glShaderSource", message: "Shaders/\(source.name).frag: `#pragma glmap` paint inputs belong in the vertex shader")
        }
        declaredAttributes = ShaderPragmas.declaredAttributes(vertexText)
        let vs = try GLProgram.compile(GLenum(GL_VERTEX_SHADER), vertexText, "\(source.name).vert", name)
        defer { glDeleteShader(vs) }
        let fs = try GLProgram.compile(GLenum(GL_FRAGMENT_SHADER), GLProgram.define(defines, in: source.fragment), "\(source.name).frag", name)
        defer { glDeleteShader(fs) }
        let p = glCreateProgram()
        glAttachShader(p, vs)
        glAttachShader(p, fs)
        glLinkProgram(p)
        var ok: GLint = 0
        glGetProgramiv(p, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            let log = GLProgram.infoLog(p, program: true)
            glDeleteProgram(p)
            throw GLError(call: "glLinkProgram", message: "program \(name) did not link: \(log)")
        }
        id = p
    }

    deinit { glDeleteProgram(id) }

    /// The source with `#define` lines after its first (`#version`) line.
    static func define(_ names: [String], in text: String) -> String {
        guard !names.isEmpty else { return text }
        let lines = names.map { "#define \($0)\n" }.joined()
        guard let nl = text.firstIndex(of: "\n") else { return text + "\n" + lines }
        return String(text[...nl]) + lines + String(text[text.index(after: nl)...])
    }

    static func compile(_ type: GLenum, _ text: String, _ file: String, _ program: String) throws -> GLuint {
        let s = glCreateShader(type)
        text.withCString { ptr in
            var p: UnsafePointer<GLchar>? = ptr
            glShaderSource(s, 1, &p, nil)
        }
        glCompileShader(s)
        var ok: GLint = 0
        glGetShaderiv(s, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = infoLog(s, program: false)
            glDeleteShader(s)
            throw GLError(call: "glCompileShader", message: "Shaders/\(file) did not compile for program \(program): \(log)")
        }
        return s
    }

    static func infoLog(_ id: GLuint, program: Bool) -> String {
        var len: GLint = 0
        if program { glGetProgramiv(id, GLenum(GL_INFO_LOG_LENGTH), &len) } else { glGetShaderiv(id, GLenum(GL_INFO_LOG_LENGTH), &len) }
        guard len > 0 else { return "(no log)" }
        var buf = [GLchar](repeating: 0, count: Int(len))
        if program { glGetProgramInfoLog(id, len, nil, &buf) } else { glGetShaderInfoLog(id, len, nil, &buf) }
        let bytes = buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }   // up to the NUL
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func attribute(_ name: String) -> GLint { glGetAttribLocation(id, name) }

    func uniform(_ name: String) -> GLint {
        if let u = uniforms[name] { return u }
        let u = glGetUniformLocation(id, name)
        uniforms[name] = u
        return u
    }
}

import Foundation
