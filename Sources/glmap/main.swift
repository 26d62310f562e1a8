// glmap — headless map rendering. The command logic lives in the GLMap library (GLMapCommand).
import GLMapCLI
#if canImport(Glibc)
import Glibc
#endif

import GLMapCore

// Frame-sized buffers stay in the heap between frames (see AllocatorTuning).
AllocatorTuning.keepFrameBuffersInHeap()
// SIGINT/SIGTERM: delete the output being written (finished ones stay) and exit 130/143.
// `glmap serve` handles them itself (it drains the requests in flight, then exits 0).
if CommandLine.arguments.dropFirst().first != "serve" { InFlightFiles.installSignalCleanup() }
let code = GLMapCommand.run(Array(CommandLine.arguments.dropFirst()))
InFlightFiles.exitIfInterrupted()
exit(code)
