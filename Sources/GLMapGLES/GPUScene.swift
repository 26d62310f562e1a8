import Foundation
internal import CGLES3
import GLMapStyle
import GLMapTessellation

/// Buckets uploaded to GPU buffers (one set per layer). Created by `GLRenderer.upload`; must be
/// released on the thread that owns the renderer's context (it is, when it goes out of scope there).
/// It keeps that context alive and deletes its buffers there (never in another context, whose
/// objects may carry the same names); a lost context's buffers are simply gone.
public final class GPUScene {
    /// `ranges`/`outlineRanges`: the index buffers split for view culling (ViewCulling.swift);
    /// each carries its index range, so draws use glDrawRangeElements (the driver then need not
    /// scan the index buffer on every draw).
    struct Fill {
        let bucket: FillBucket
        let vertices, indices, outlineVertices, outlineIndices: GLuint
        var ranges: [DrawRange] = []
        var outlineRanges: [DrawRange] = []
    }
    /// A line layer's buffers; dashed/gradient layers add the fx buffer and their textures.
    struct Line {
        let bucket: LineBucket
        let vertices, indices: GLuint
        var ranges: [DrawRange] = []
        let paintBound: PaintBound
        var fxVertices: GLuint = 0
        var atlasTexture: GLuint = 0
        var rampTexture: GLuint = 0
    }
    struct Circle { let bucket: CircleBucket; let instances: GLuint; var ranges: [DrawRange]; let paintBound: PaintBound }
    enum Layer {
        case background(EvaluatedBackground)
        case fill(Fill)
        case line(Line)
        case circle(Circle)
    }

    let layers: [Layer]
    /// The context the buffers live in (set by `GLRenderer.upload`).
    var owner: HeadlessContext?

    init(layers: [Layer]) {
        self.layers = layers
        GPUScene.count(bufferNames.count + textureNames.count)
    }

    /// The GL buffer names this scene owns.
    var bufferNames: [GLuint] {
        layers.flatMap { l -> [GLuint] in
            switch l {
            case .background: return []
            case .fill(let f): return [f.vertices, f.indices, f.outlineVertices, f.outlineIndices]
            case .line(let l): return [l.vertices, l.indices, l.fxVertices]
            case .circle(let c): return [c.instances]
            }
        }.filter { $0 != 0 }
    }

    /// The GL texture names this scene owns (line atlases and gradient ramps).
    var textureNames: [GLuint] {
        layers.flatMap { l -> [GLuint] in
            if case .line(let line) = l { return [line.atlasTexture, line.rampTexture] }
            return []
        }.filter { $0 != 0 }
    }

    deinit {
        let names = bufferNames
        let textures = textureNames
        GPUScene.count(-(names.count + textures.count))
        if let owner, !owner.makeCurrentForTeardown() { return }
        if !names.isEmpty { glDeleteBuffers(GLsizei(names.count), names) }
        if !textures.isEmpty { glDeleteTextures(GLsizei(textures.count), textures) }
    }

    /// GL buffers and textures held by live scenes in this process (for soak tests: it must stay flat).
    public static var liveGLObjects: Int {
        counterLock.lock(); defer { counterLock.unlock() }
        return live
    }
    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var live = 0
    static func count(_ delta: Int) {
        counterLock.lock(); live += delta; counterLock.unlock()
    }
}
