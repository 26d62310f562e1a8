import Foundation

/// Process-wide allocator settings for long-running renderers (the `glmap` and `glmap-bench`
/// executables call `keepFrameBuffersInHeap()` at start; a library never changes them by itself).
///
/// Every frame allocates a few buffers of width × height × 4 bytes (readback, unpremultiplied
/// pixels, PNG rows, the compressed stream). glibc serves blocks that large with fresh `mmap`s, or
/// trims them off the heap top when freed, so each frame page-faults and zero-fills its buffers
/// again: about 12 ms of a 1024² frame on the world scene (Benchmarks/README.md). Raising the mmap
/// threshold to 64 MiB and the trim threshold to 256 MiB keeps freed frame buffers in the heap for
/// the next frame; larger blocks (16384² images) still come from `mmap` and go back at once.
/// Work spread over the cores (tessellation runs, PNG bands, simplification) allocates on worker
/// threads, and glibc gives each thread an arena of its own, every one keeping up to the trim
/// threshold of freed memory: one arena for all threads keeps cities' peak RSS at 159 MiB,
/// against 159–199 MiB (by which thread allocates first) with two and 197 MiB with one per thread.
/// Small blocks still come from each thread's cache without the arena's lock.
public enum AllocatorTuning {
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    /// glibc's `M_TRIM_THRESHOLD`, `M_MMAP_THRESHOLD` and `M_ARENA_MAX` (malloc.h).
    private static let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3, arenaMax: Int32 = -8

    /// Applies the settings; returns false where the C library has no `mallopt` (not glibc).
    @discardableResult
    public static func keepFrameBuffersInHeap() -> Bool {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        return mallopt(mmapThreshold, 64 << 20) == 1 && mallopt(trimThreshold, 256 << 20) == 1 && mallopt(arenaMax, 1) == 1
    }
}
