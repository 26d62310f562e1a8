// Encoder pool — contract
// Input: premultiplied frames from the GL thread, each with its pieces: a delivery closure for the
// whole frame, or one for each rectangle cut from it (the tiles of a metatile). Output: each piece
// cut, encoded (PNG by default, or the pool's or the job's `ImageFormat`) and handed to its
// delivery closure (which writes the file or the MBTiles row) on one of `workers` threads; the
// pieces of a frame share its pixels and are encoded in parallel. Invariants: `submit` blocks
// while `capacity` pieces wait, so memory stays flat however many frames there are;
// after the first failure no new work starts, and `submit`/`finish` rethrow that failure.
// Sharing the cores: worker i takes a frame only while more than i frames wait (or once the pool
// is finishing), so the second and later encoders join only when encoding falls behind the GL
// thread. An encoder with nothing to catch up only takes CPU from llvmpipe's threads and the GL
// thread (a 256² fly-through on 2 cores runs 3–38 % more frames a second with one encoder).
// Encoder threads also run at a lower priority (nice `niceness`): drawing is the pipeline's
// critical path, so llvmpipe's rasterizer threads and the GL thread get the cores first and the
// encoders fill the gaps (binning, waits); when they fall behind, the full queue blocks the GL
// thread and they get the cores. A 1024² fly-through on 2 cores ran 10–26 % more frames a second
// (montreal, nyc_boroughs, world), 256² the same within the noise (Benchmarks/README.md, session 6).
// Threading: `submit` and `finish` from one producer thread; deliveries run concurrently.
import GLMap
import Foundation
import GLMapImageFormats
import GLMapCore
import GLMapPNG

/// A fixed set of threads that encode frames (PNG, JPEG or WebP) and deliver the bytes, behind a bounded queue.
public final class EncoderPool: @unchecked Sendable {
    /// Receives a frame's encoded bytes on a worker thread.
    public typealias Delivery = @Sendable ([UInt8]) throws -> Void

    /// One image to encode from a frame: the pixels inside `crop` (nil: the whole frame), and
    /// where its bytes go.
    public struct Piece: Sendable {
        /// The rectangle of the frame to encode, in device pixels (nil: the whole frame).
        public var crop: PixelRect?
        /// Receives the encoded bytes.
        public var deliver: Delivery
        /// The piece `crop` of a frame (nil: all of it), delivered to `deliver`.
        public init(crop: PixelRect? = nil, deliver: @escaping Delivery) { self.crop = crop; self.deliver = deliver }
    }

    private struct Job { let image: PremultipliedImage; let crop: PixelRect?; let format: ImageFormat?; let deliver: Delivery }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var closed = false
    private var running = 0
    private var failure: Error?
    private var done = 0
    private var threads: [Thread] = []
    private let capacity: Int
    private let format: ImageFormat

    /// The nice value (Linux, per thread) encoder threads run at: below drawing, above idle work.
    public static let niceness: Int32 = 10

    /// The most encoder threads a pool starts (`--jobs` above it is refused).
    public static let maxWorkers = 256

    /// Starts `workers` encoder threads with room for `capacity` waiting frames.
    public convenience init(workers: Int, capacity: Int? = nil, compression: PNGCompression = .default) {
        self.init(workers: workers, capacity: capacity, format: .png(compression))
    }

    /// Starts `workers` encoder threads writing `format` (unless a job names its own).
    public init(workers: Int, capacity: Int? = nil, format: ImageFormat) {
        let n = min(max(1, workers), EncoderPool.maxWorkers)
        self.capacity = max(1, capacity ?? n * 2)
        self.format = format
        for i in 0..<n {
            let t = Thread { [unowned self] in self.work(index: i) }
            t.name = "glmap-encoder-\(i)"
            t.stackSize = 1 << 20
            threads.append(t)
        }
        running = n
        threads.forEach { $0.start() }
    }

    /// Pieces (frames, or the tiles cut from them) encoded and delivered so far.
    public var completed: Int {
        condition.lock(); defer { condition.unlock() }
        return done
    }

    /// Queues a whole frame (blocks while the queue is full); rethrows an earlier worker failure.
    public func submit(_ image: PremultipliedImage, format: ImageFormat? = nil, deliver: @escaping Delivery) throws {
        try submit(image, format: format, pieces: [Piece(deliver: deliver)])
    }

    /// Queues the pieces of a frame (blocks while the queue is full); rethrows an earlier worker failure.
    public func submit(_ image: PremultipliedImage, format: ImageFormat? = nil, pieces: [Piece]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head >= capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        precondition(!closed, "EncoderPool.submit after finish")
        queue += pieces.map { Job(image: image, crop: $0.crop, format: format, deliver: $0.deliver) }
        condition.broadcast()
    }

    /// Waits for every queued frame, stops the threads, and rethrows the first failure.
    public func finish() throws {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        let f = failure
        condition.unlock()
        if let f { throw f }
    }

    /// Worker `index`'s loop: it takes a frame while more than `index` wait (any once finishing).
    private func work(index: Int) {
        // Linux: who 0 with PRIO_PROCESS is the calling thread only; failing leaves the default.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, EncoderPool.niceness)
        condition.lock()
        while true {
            while queue.count - head <= (closed ? 0 : index) && !(closed && head == queue.count) && failure == nil {
                condition.wait()
            }
            if failure != nil || head == queue.count { break }
            let job = queue[head]
            queue[head] = Job(image: PremultipliedImage(width: 0, height: 0, pixels: []), crop: nil, format: nil, deliver: { _ in })
            head += 1
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            condition.unlock()
            var error: Error?
            do {
                try job.deliver(try (job.format ?? format).encode(job.crop.map(job.image.cropped) ?? job.image))
            } catch let e {
                error = e
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            if error == nil { done += 1 }
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
