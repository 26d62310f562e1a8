internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapTessellation

/// A drawer's compiled program variants: (source, `#define`s, paint attributes) → program,
/// compiled on first use.
final class ProgramCache {
    private var programs: [String: GLProgram] = [:]

    /// The variant of `source` with `defines` whose paint inputs follow `paint` (attributes for
    /// data-driven values, uniforms for the rest).
    func program(_ source: ShaderSource.Program, defines: [String] = [], paint: PaintLayout? = nil) throws -> GLProgram {
        let attributes = paint?.attributes.map { $0.binding.name + ($0.composite ? "~" : "") } ?? []
        let key = ([source.name] + defines + ["|"] + attributes).joined(separator: " ")
        if let p = programs[key] { return p }
        let p = try GLProgram(source, defines: defines, attributes: paint?.attributeNames ?? [], composite: paint?.compositeNames ?? [])
        programs[key] = p
        return p
    }
}

/// GL calls every drawer makes: buffers, textures, attribute pointers, paint uniforms.
enum GLDrawing {
    static func makeBuffer(_ target: Int32, _ bytes: UnsafeRawBufferPointer) -> GLuint {
        var b: GLuint = 0
        glGenBuffers(1, &b)
        glBindBuffer(GLenum(target), b)
        glBufferData(GLenum(target), bytes.count, bytes.baseAddress, GLenum(GL_STATIC_DRAW))
        return b
    }

    /// A vertex buffer of floats (0 when empty).
    static func vertexBuffer(_ data: [Float]) -> GLuint {
        data.isEmpty ? 0 : data.withUnsafeBytes { makeBuffer(GL_ARRAY_BUFFER, $0) }
    }

    /// An index buffer of UInt32 (0 when empty).
    static func indexBuffer(_ data: [UInt32]) -> GLuint {
        data.isEmpty ? 0 : data.withUnsafeBytes { makeBuffer(GL_ELEMENT_ARRAY_BUFFER, $0) }
    }

    /// A 2D texture with the given formats, filter and wrap mode.
    static func texture(width: Int, height: Int, format: Int32, pixelFormat: Int32, filter: Int32, wrap: Int32, pixels: [UInt8]) -> GLuint {
        var t: GLuint = 0
        glGenTextures(1, &t)
        glBindTexture(GLenum(GL_TEXTURE_2D), t)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format, GLsizei(width), GLsizei(height), 0,
                         GLenum(pixelFormat), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), wrap)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), wrap)
        return t
    }

    /// The geometry attributes of a layout followed by its paint attributes.
    static func layout(_ geometry: [(String, Int)], _ paint: PaintLayout) -> [(String, Int)] {
        geometry + paint.attributes.flatMap { a -> [(String, Int)] in
            let b = a.binding
            return a.composite ? [(b.attribute, b.components), (b.attribute + "_next", b.components)] : [(b.attribute, b.components)]
        }
    }

    /// Binds float attributes laid out as `(name, components)` in order, interleaved, from
    /// `buffer`. An attribute the program's source does not declare is an error (a layout that
    /// disagrees with its shader); one it declares but the compiler dropped as unused is skipped.
    /// `firstVertex`: the vertex (instance) the pointers start at.
    static func bindAttributes(_ program: GLProgram, _ buffer: GLuint, _ layout: [(String, Int)], divisor: GLuint = 0,
                               firstVertex: Int = 0) throws {
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = layout.reduce(0) { $0 + $1.1 } * 4
        var offset = firstVertex * stride
        for (name, n) in layout {
            guard program.declaredAttributes.contains(name) else {
                throw GLError(call: "glVertexAttribPointer", message: "program \(program.name) has no vertex input \(name), which the bucket's vertex layout supplies")
            }
            let loc = program.attribute(name)
            if loc >= 0 {
                glEnableVertexAttribArray(GLuint(loc))
                glVertexAttribPointer(GLuint(loc), GLint(n), GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                                      UnsafeRawPointer(bitPattern: offset))
                glVertexAttribDivisor(GLuint(loc), divisor)
            }
            offset += n * 4
        }
    }

    /// Sets a paint layout's uniforms for a frame at `zoom`: constants, camera values at the
    /// zoom, composite mix factors.
    static func setPaintUniforms(_ program: GLProgram, _ paint: PaintLayout, zoom: Double) {
        for (name, v) in paint.uniformValues(zoom: max(0, zoom)) {
            let loc = program.uniform(name)
            switch v.count {
            case 1: glUniform1f(loc, v[0])
            case 4: glUniform4f(loc, v[0], v[1], v[2], v[3])
            default: break
            }
        }
    }

    /// Disables every vertex attribute array a program may have left on (GLES 3 has at least 16).
    static func resetAttributes() {
        for i in 0..<GLuint(16) {
            glDisableVertexAttribArray(i)
            glVertexAttribDivisor(i, 0)
        }
    }

    /// Sets `u_matrix`.
    static func setMatrix(_ program: GLProgram, _ m: Matrix4) {
        glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), m.floats)
    }

    /// Draws `count` indices of the bound UInt32 index buffer as triangles.
    static func drawTriangles(count: Int, maxIndex: Int, stats: inout DrawStats) {
        guard count > 0 else { return }
        stats.triangles += count / 3
        stats.calls += 1
        glDrawRangeElements(GLenum(GL_TRIANGLES), 0, GLuint(max(0, maxIndex)), GLsizei(count), GLenum(GL_UNSIGNED_INT), nil)
    }
}
