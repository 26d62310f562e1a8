// glmap-codegen — writes the Swift files generated from the style spec (see Sources/GLMapCodegen).
// Usage, from the package root: swift run glmap-codegen ../shared/style-spec/v8.json
import Foundation
import GLMapCodegen

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: glmap-codegen PATH/TO/v8.json   (run from the package root)\n".utf8))
    exit(2)
}
let root = FileManager.default.currentDirectoryPath
guard FileManager.default.fileExists(atPath: root + "/Package.swift") else {
    FileHandle.standardError.write(Data("glmap-codegen: \(root) has no Package.swift; run it from the package root\n".utf8))
    exit(2)
}
do {
    guard let data = FileManager.default.contents(atPath: arguments[0]) else {
        throw CodegenError.unreadable(arguments[0])
    }
    let files = try Codegen.generate(spec: [UInt8](data))
    let report = try Codegen.write(files, root: root)
    print("glmap-codegen: \(files.count) files, \(report.changed.count) changed, \(report.removed.count) removed")
    for p in report.changed { print("  wrote \(p)") }
    for p in report.removed { print("  removed \(p)") }
} catch {
    FileHandle.standardError.write(Data("glmap-codegen: \(error)\n".utf8))
    exit(1)
}
