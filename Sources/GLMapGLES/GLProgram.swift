import CGLES3
import GLMapShaders

/// A linked GLSL ES program with its attribute and uniform locations looked up by name.
final class GLProgram {
    let id: GLuint
    let name: String
    private var uniforms: [String: GLint] = [:]

    init(_ source: ShaderSource.Program) throws {
        name = source.name
        let vs = try GLProgram.compile(GLenum(GL_VERTEX_SHADER), source.vertex, "\(source.name).vert")
        defer { glDeleteShader(vs) }
        let fs = try GLProgram.compile(GLenum(GL_FRAGMENT_SHADER), source.fragment, "\(source.name).frag")
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
            throw GLError(call: "glLinkProgram", message: "program \(source.name) did not link: \(log)")
        }
        id = p
    }

    deinit { glDeleteProgram(id) }

    static func compile(_ type: GLenum, _ text: String, _ file: String) throws -> GLuint {
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
            throw GLError(call: "glCompileShader", message: "Shaders/\(file) did not compile: \(log)")
        }
        return s
    }

    static func infoLog(_ id: GLuint, program: Bool) -> String {
        var len: GLint = 0
        if program { glGetProgramiv(id, GLenum(GL_INFO_LOG_LENGTH), &len) } else { glGetShaderiv(id, GLenum(GL_INFO_LOG_LENGTH), &len) }
        guard len > 0 else { return "(no log)" }
        var buf = [GLchar](repeating: 0, count: Int(len))
        if program { glGetProgramInfoLog(id, len, nil, &buf) } else { glGetShaderInfoLog(id, len, nil, &buf) }
        return String(cString: buf).trimmingCharacters(in: .whitespacesAndNewlines)
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
