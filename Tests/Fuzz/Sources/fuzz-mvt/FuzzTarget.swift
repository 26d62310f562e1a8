// libFuzzer target: feeds each input to FuzzEntryPoints.vectorTile (typed errors are expected; a trap is a finding).
import GLMapFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? FuzzEntryPoints.vectorTile(bytes)
    return 0
}
