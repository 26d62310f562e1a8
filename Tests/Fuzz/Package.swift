// swift-tools-version:6.0
// glmap fuzz targets: libFuzzer executables over GLMap's FuzzEntryPoints. Build and run them with
// run-fuzzers.sh (release, -sanitize=fuzzer,address); they have no main of their own, libFuzzer
// provides it, so a plain `swift build` of this package does not link.
import PackageDescription

let targets = ["geojson", "style", "expression", "tessellate", "cli", "glyphs", "mvt"]

let package = Package(
    name: "glmap-fuzz",
    dependencies: [.package(name: "glmap", path: "../..")],
    targets: targets.map { name in
        .executableTarget(name: "fuzz-\(name)",
                          dependencies: [.product(name: "GLMapFuzzing", package: "glmap")],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v5]
)
