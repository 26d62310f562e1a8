// Asynchronous readback — contract
// Input: the frame a `GLRenderer` last drew. Output: the same premultiplied RGBA8 image
// `readback()` returns (rows top to bottom), but in two steps: `beginReadback()` queues
// glReadPixels into a pixel buffer object (GL_PIXEL_PACK_BUFFER) and returns at once, so the
// caller can issue the next frame's draws; `endReadback(_:)` maps that buffer (waiting for the
// copy if it has not finished) and copies it out with the rows flipped in the same pass.
// Invariants: at most `AsyncReadback.slots` readbacks are in flight; each ticket is ended exactly
// once, in any order; a ticket stays valid across later draws (it owns its buffer until ended).
// Limits: buffers are reused while the frame size stays the same and reallocated when it changes.
// A ticket belongs to the ring that issued it: ending it on another renderer's ring is refused, so
// after a renderer is replaced its in-flight frames must be drawn again, never read from the new one.
// Failures go through the renderer's health checks (RendererHealth.swift): a GL error or a lost
// context while reading marks the renderer unusable, and the frame is not returned.
// Threading: GL thread only, like the renderer.
internal import CGLES3
import GLMapCore

/// A readback in flight: which pixel buffer holds the frame and its size.
public struct ReadbackTicket {
    let slot: Int
    let ring: ObjectIdentifier
    /// Device pixel size of the frame being read.
    public let width: Int
    /// Device pixel height of the frame being read.
    public let height: Int
}

/// A ring of pixel buffer objects for double-buffered, asynchronous framebuffer reads.
final class AsyncReadback {
    /// Pixel buffers in the ring (two: the GPU fills one while the CPU copies the other).
    static let slots = 2
    private var buffers: [GLuint] = Array(repeating: 0, count: AsyncReadback.slots)
    private var capacity: [Int] = Array(repeating: 0, count: AsyncReadback.slots)
    private var busy: [Bool] = Array(repeating: false, count: AsyncReadback.slots)
    private var next = 0

    init() {
        glGenBuffers(GLsizei(AsyncReadback.slots), &buffers)
    }

    deinit {
        glDeleteBuffers(GLsizei(AsyncReadback.slots), buffers)
    }

    /// Queues a read of `framebuffer` into the next free pixel buffer.
    func begin(_ framebuffer: Framebuffer) throws -> ReadbackTicket {
        guard let slot = (0..<AsyncReadback.slots).lazy.map({ (self.next + $0) % AsyncReadback.slots }).first(where: { !self.busy[$0] }) else {
            throw GLError(call: "glReadPixels", message: "more than \(AsyncReadback.slots) readbacks in flight (a bug in glmap: end one first)")
        }
        next = (slot + 1) % AsyncReadback.slots
        let bytes = framebuffer.width * framebuffer.height * 4
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[slot])
        if capacity[slot] != bytes {
            glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), bytes, nil, GLenum(GL_STREAM_READ))
            capacity[slot] = bytes
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer.fbo)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(framebuffer.width), GLsizei(framebuffer.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        try GLState.check("glReadPixels (into a pixel buffer object)")
        glFlush()
        busy[slot] = true
        return ReadbackTicket(slot: slot, ring: ObjectIdentifier(self), width: framebuffer.width, height: framebuffer.height)
    }

    /// Waits for the ticket's copy, maps the buffer and returns the image (rows top to bottom).
    func end(_ ticket: ReadbackTicket) throws -> PremultipliedImage {
        guard ticket.ring == ObjectIdentifier(self) else {
            throw GLError(call: "glMapBufferRange", message: "readback ticket from another renderer (a bug in glmap: draw the frame again on this one)")
        }
        guard busy[ticket.slot] else {
            throw GLError(call: "glMapBufferRange", message: "readback ticket ended twice (a bug in glmap)")
        }
        busy[ticket.slot] = false
        let row = ticket.width * 4, bytes = row * ticket.height
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[ticket.slot])
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, bytes, GLbitfield(GL_MAP_READ_BIT)) else {
            try GLState.check("glMapBufferRange")
            throw GLError(call: "glMapBufferRange", code: "GL_NO_ERROR", message: "GL returned no mapping of the pixel buffer and no error")
        }
        let height = ticket.height
        let pixels = [UInt8](unsafeUninitializedCapacity: bytes) { out, initialized in
            // GL rows are bottom-up: copy each row to its flipped place.
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            for y in 0..<height {
                dst.advanced(by: (height - 1 - y) * row).copyMemory(from: mapped.advanced(by: y * row), byteCount: row)
            }
            initialized = bytes
        }
        glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        try GLState.check("glUnmapBuffer")
        return PremultipliedImage(width: ticket.width, height: height, pixels: pixels)
    }
}

extension GLRenderer {
    /// Starts reading the last drawn frame into a pixel buffer and returns without waiting.
    /// Draw the next frame, then call `endReadback` (at most two readbacks may be in flight).
    public func beginReadback() throws -> ReadbackTicket {
        try guarded("GLRenderer.beginReadback") {
            guard let fb = framebuffer else { throw GLError(call: "glReadPixels", message: "nothing has been drawn yet") }
            guard tiledFrame == nil else {
                throw GLError(call: "glReadPixels", message: "the last frame was drawn in tiles: read it with readback(), not through the pixel buffer ring (a bug in glmap)")
            }
            try context.makeCurrent()
            if asyncReadback == nil { asyncReadback = AsyncReadback() }
            return try asyncReadback!.begin(fb)
        }
    }

    /// Finishes a readback started by `beginReadback` (premultiplied RGBA, rows top to bottom).
    /// The frame is returned only if the once-a-frame check (glGetError, reset status) passes after the copy.
    public func endReadback(_ ticket: ReadbackTicket) throws -> PremultipliedImage {
        try guarded("GLRenderer.endReadback", checkFrame: true) {
            guard let r = asyncReadback else { throw GLError(call: "glMapBufferRange", message: "no readback was started") }
            try context.makeCurrent()
            return try r.end(ticket)
        }
    }
}
