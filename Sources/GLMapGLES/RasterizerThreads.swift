// Rasterizer threads — contract
// Mesa's llvmpipe rasterizes each frame on a pool of threads of its own (one per core by default,
// `LP_NUM_THREADS`), handing the frame over at every flush and waiting for it. A single image gains
// from that pool: nothing else runs while it draws. A batch, a tile run or a server whose encoder
// (or render) threads already cover the cores only loses by it: the pool's threads compete with the
// encoders for the same cores and every frame pays the hand-offs (on 2 cores, a 256² fly-through
// ran 15–30 % more frames a second with the drawing thread rasterizing itself; 1024² the same;
// Benchmarks/README.md, session 6). `rasterizeOnDrawingThread(workers:)` chooses that for such
// processes by setting LP_NUM_THREADS=0.
// Limits: Mesa reads the variable once, when the process opens its first GL display, so the call
// only has an effect before any `HeadlessContext` exists, and it must be made while no other
// thread reads the environment (at start, before workers exist). A LP_NUM_THREADS the
// environment already sets always wins. Other drivers ignore the variable.
import Foundation

/// Chooses where Mesa's llvmpipe rasterizes, for processes that keep every core busy themselves.
public enum RasterizerThreads {
    /// Whether LP_NUM_THREADS should be set to 0: `workers` threads of the process's own (PNG
    /// encoders, render workers) cover the `cores`, the environment does not set the variable
    /// (`current` is its value, nil when unset) and no GL display has been opened yet.
    public static func shouldRasterizeOnDrawingThread(workers: Int, cores: Int, current: String?, displayOpened: Bool) -> Bool {
        workers >= cores && current == nil && !displayOpened
    }

    /// Sets LP_NUM_THREADS=0 (llvmpipe rasterizes on the thread that draws) when
    /// `shouldRasterizeOnDrawingThread` says so for this process. Call it at start, before the
    /// first GL display is opened and before other threads exist; returns whether it set the
    /// variable.
    @discardableResult
    public static func rasterizeOnDrawingThread(workers: Int) -> Bool {
        let current = getenv("LP_NUM_THREADS").map { String(cString: $0) }
        guard shouldRasterizeOnDrawingThread(workers: workers, cores: ProcessInfo.processInfo.activeProcessorCount,
                                             current: current, displayOpened: HeadlessContext.anyDisplayOpened) else { return false }
        return setenv("LP_NUM_THREADS", "0", 0) == 0
    }
}
