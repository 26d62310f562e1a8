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
// A closed stdin/stdout/stderr is reopened on /dev/null (and remembered); SIGPIPE becomes EPIPE.
let closedStreams = StandardStreams.prepareForCommandLine()
let code = GLMapCommand.run(Array(CommandLine.arguments.dropFirst()), io: .process(closed: closedStreams))
InFlightFiles.exitIfInterrupted()
fflush(nil); _exit(code)
