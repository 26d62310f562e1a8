// libFuzzer target: feeds each input to FuzzEntryPoints.tessellate (a trap is a finding).
import GLMapFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzEntryPoints.tessellate(bytes)
    return 0
}
