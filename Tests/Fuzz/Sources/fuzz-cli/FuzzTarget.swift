// libFuzzer target: feeds each input to FuzzEntryPoints.commandLine (an argument vector and a
// frames file built from the real flags; exit codes 0/1/2 with a message are expected, a trap or a
// broken invariant is a finding).
import GLMapFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzEntryPoints.commandLine(bytes)
    return 0
}
