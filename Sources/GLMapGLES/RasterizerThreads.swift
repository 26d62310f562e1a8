// Rasterizer threads — contract
// Mesa's llvmpipe rasterizes each frame on a pool of threads of its own (one per core by default,
// `LP_NUM_THREADS`), handing the frame over at every flush and waiting for it. A frame of many
// pixels gains from that pool. Two workloads only lose by it, and for them
// `rasterizeOnDrawingThread(for:)` sets LP_NUM_THREADS=0, so the thread that draws rasterizes
// itself:
// - render threads that cover the cores, each drawing on a context of its own (`glmap serve`):
//   every core already draws, and the pools only add hand-offs (a quarter of the server's CPU
//   time under load went to switching tasks);
// - a batch of small frames (at most `smallFramePixels` device pixels: 256² tiles and thumbnails),
//   where the hand-off costs more than the pool saves: on 2 cores a 256² fly-through ran 0–20 %
//   more frames a second on the drawing thread, while 512² and 1024² ran 25–50 % fewer on world
//   (Benchmarks/README.md, session 6).
// Limits: Mesa reads the variable once, when the process opens its first GL display, so the call
// only has an effect before any `HeadlessContext` exists, and it must be made while no other
// thread reads the environment (at start, before workers exist). A LP_NUM_THREADS the
// environment already sets always wins. Other drivers ignore the variable.
import Foundation

/// Chooses where Mesa's llvmpipe rasterizes, from what the process is about to draw.
public enum RasterizerThreads {
    /// What the process is about to draw.
    public enum Workload: Sendable {
        /// `count` threads, each drawing on a GL context of its own (the tile server's workers).
        case renderThreads(Int)
        /// One drawing thread whose frames have at most `framePixels` device pixels each (a batch
        /// or tile run, its PNGs encoded on a pool).
        case batch(framePixels: Int)
    }

    /// The largest frame (device pixels) a batch rasterizes on its drawing thread: between the
    /// 256² frames that gained and the 512² ones that lost.
    public static let smallFramePixels = 128 * 1024

    /// Whether LP_NUM_THREADS should be set to 0 for `workload` on `cores` cores: the workload is
    /// one that llvmpipe's pool slows down, the environment does not set the variable (`current`
    /// is its value, nil when unset) and no GL display has been opened yet.
    public static func shouldRasterizeOnDrawingThread(_ workload: Workload, cores: Int, current: String?, displayOpened: Bool) -> Bool {
        guard current == nil, !displayOpened else { return false }
        switch workload {
        case .renderThreads(let count): return count >= cores
        case .batch(let pixels): return pixels <= smallFramePixels
        }
    }

    /// Sets LP_NUM_THREADS=0 (llvmpipe rasterizes on the thread that draws) when
    /// `shouldRasterizeOnDrawingThread` says so for this process. Call it at start, before the
    /// first GL display is opened and before other threads exist; returns whether it set the
    /// variable.
    @discardableResult
    public static func rasterizeOnDrawingThread(for workload: Workload) -> Bool {
        let current = getenv("LP_NUM_THREADS").map { String(cString: $0) }
        guard shouldRasterizeOnDrawingThread(workload, cores: ProcessInfo.processInfo.activeProcessorCount,
                                             current: current, displayOpened: HeadlessContext.anyDisplayOpened) else { return false }
        return setenv("LP_NUM_THREADS", "0", 0) == 0
    }
}
