// Batch recovery from GL failures — contract
// Input: the frames of a GPU batch (BatchRenderer.run). Output: every frame drawn, read back and
// handed to the encoder pool, as before, plus a `BatchSummary` of what went wrong.
// When a frame fails with a GL failure (the renderer is then unusable: a GL error, a reset, a lost
// context — see GLMapGLES/RendererHealth.swift) the renderer and its uploaded scenes are dropped,
// a new renderer (new context) is created, the scenes are uploaded again as frames need them, and
// the frames in flight are drawn again: the failing one and the one whose pixels were still in the
// dead renderer's pixel buffer ring, so none is lost or written from a broken context. Before a
// frame that failed is drawn again, the healthy frame in flight is finished first, so a frame that
// keeps failing never holds others back.
// Invariants: a frame that fails a second time is reported failed (no output) and the batch goes
// on; a frame only reaches the encoder after its readback passed the health check; after
// `maxFailedRecreations` new renderers in a row fail before finishing a frame, the batch stops
// with `BatchGPUFailure`. A frame larger than one framebuffer is drawn in tiles and read back
// synchronously (it never enters the ring). Errors that are not GL failures (input errors, encoder/IO failures, an
// image over the GL limit) are rethrown unchanged. Threading: the GL thread of the BatchRenderer.
import GLMap
import GLMapCore
import GLMapGLES
import GLMapTessellation

extension BatchRenderer {
    /// New renderers that may fail in a row (each before finishing a frame) before a batch stops.
    public static let maxFailedRecreations = 3

    /// Drops the unusable renderer and its GPU scenes, then creates a new one. Throws the creation
    /// error (a GL failure too: the caller counts it).
    func replaceRenderer() throws {
        let tileSize = gl?.maxTileSize
        gl = nil
        gl = try GLRenderer()
        gl?.maxTileSize = tileSize
        replacements += 1
    }

    /// The GPU pipeline of `run`: draw frame n+1 while frame n is read back, with recovery.
    /// Longer than the house limit on purpose: it is one state machine (the frame in flight, the
    /// frames to redo, which failed once, failures in a row) whose draw step and recovery step
    /// read and write the same state; split apart they would pass all of it back and forth.
    func runOnGPU(count: Int, options: (Int) throws -> RenderOptions, pieces: (Int) -> [EncoderPool.Piece],
                  pool: EncoderPool, progress: BatchProgress?, summary: inout BatchSummary, noun: String) throws {
        if !(gl?.isUsable ?? false) {   // an earlier run or render left it broken
            try replaceRenderer()
            summary.recreations += 1
        }
        var next = 0
        var redo: [Int] = []                 // frames to draw again, in order, before going on
        var pending: (ticket: ReadbackTicket, index: Int)?
        var failedOnce: Set<Int> = []        // frames whose own draw or readback failed once
        var retried: Set<Int> = []
        var failuresInARow = 0               // GL failures since the last finished frame
        while true {
            var current: Int?                // the frame being drawn in this step
            var culprit: Int?                // the frame whose GL work is running
            /// Reads back the frame in flight (its GL work is now the one running) and encodes it.
            func finish(_ p: (ticket: ReadbackTicket, index: Int), _ gl: GLRenderer) throws {
                culprit = p.index
                let image = try gl.endReadback(p.ticket)
                pending = nil
                failuresInARow = 0
                try pool.submit(image, format: frameFormat?(p.index), pieces: pieces(p.index))
                summary.completed += 1
            }
            do {
                if let p = pending, let gl, let first = redo.first, failedOnce.contains(first) {
                    // About to retry a frame that failed: secure the healthy frame in flight first.
                    try finish(p, gl)
                } else if !redo.isEmpty || next < count {
                    let i: Int
                    if redo.isEmpty { i = next; next += 1 } else { i = redo.removeFirst() }
                    current = i
                    let o = try options(i)
                    try MapRenderer.checkImageSize(o)
                    let v = view(o)
                    culprit = i
                    guard let gl else { throw GLError(call: "GLRenderer", message: "no renderer (a bug in glmap)") }
                    let e = try frame(v, ratio: o.ratio)
                    testHookBeforeDraw?(i, gl)
                    try gl.draw(e.gpu!, view: v, ratio: o.ratio)
                    if gl.lastFrameWasTiled {   // larger than one framebuffer: read it back synchronously
                        let image = try gl.readback()
                        current = nil
                        failuresInARow = 0
                        try pool.submit(image, format: frameFormat?(i), pieces: pieces(i))
                        summary.completed += 1
                        progress?.update(pool.completed)
                        continue
                    }
                    let ticket = try gl.beginReadback()
                    if let p = pending {
                        try finish(p, gl)
                    }
                    pending = (ticket, i)
                    progress?.update(pool.completed)
                } else if let p = pending, let gl {
                    try finish(p, gl)
                } else {
                    break
                }
            } catch {
                guard let reason = gl?.unusableReason, let culprit else { throw error }
                // The renderer is gone: every frame in flight is drawn again on a new one.
                summary.glFailures.append(.init(index: culprit, reason: "\(reason)"))
                let inFlight = Set([pending?.index, current].compactMap { $0 })
                pending = nil
                var again: [Int] = []
                for f in inFlight.sorted() {
                    if f == culprit && failedOnce.contains(f) {
                        summary.failed.append(.init(index: f, reason: "\(reason)"))
                    } else {
                        if f == culprit { failedOnce.insert(f) }
                        again.append(f)
                        retried.insert(f)
                    }
                }
                redo = again + redo
                var lastReason = "\(reason)"
                while true {
                    failuresInARow += 1
                    if failuresInARow > BatchRenderer.maxFailedRecreations {
                        summary.retried = retried.sorted()
                        summary.failed.sort { $0.index < $1.index }
                        throw BatchGPUFailure(attempts: BatchRenderer.maxFailedRecreations, reason: lastReason, summary: summary, noun: noun)
                    }
                    do {
                        try replaceRenderer()
                        summary.recreations += 1
                        break
                    } catch {
                        lastReason = "\(error)"   // creating the renderer failed: that counts as a failure too
                    }
                }
            }
        }
        summary.retried = retried.sorted()
        summary.failed.sort { $0.index < $1.index }
    }
}
