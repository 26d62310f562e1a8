// glmap — headless map rendering. The command logic lives in the GLMap library (GLMapCommand).
import GLMap
#if canImport(Glibc)
import Glibc
#endif

exit(GLMapCommand.run(Array(CommandLine.arguments.dropFirst())))
