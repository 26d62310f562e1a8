// swift-tools-version:6.0
// glmap — headless map rendering with OpenGL ES 3 through EGL, and a CPU reference renderer.
// Module layout and dependency rules: docs/architecture.md.
import PackageDescription

let shaderFiles = [
    "background.vert", "background.frag",
    "fill.vert", "fill.frag",
    "fill_outline.vert", "fill_outline.frag",
    "line.vert", "line.frag",
    "circle.vert", "circle.frag",
    "clipping_mask.vert", "clipping_mask.frag",
    "fill_extrusion.vert", "fill_extrusion.frag",
    "fill_extrusion_pattern.vert", "fill_extrusion_pattern.frag",
    "heatmap.vert", "heatmap.frag",
    "heatmap_texture.vert", "heatmap_texture.frag",
    "fill_pattern.vert", "fill_pattern.frag",
    "fill_outline_pattern.vert", "fill_outline_pattern.frag",
    "background_pattern.vert", "background_pattern.frag",
    "raster.vert", "raster.frag",
    "hillshade_prepare.vert", "hillshade_prepare.frag",
    "hillshade.vert", "hillshade.frag",
    "color_relief.vert", "color_relief.frag",
    "symbol_sdf.vert", "symbol_sdf.frag",
    "symbol_icon.vert", "symbol_icon.frag",
    "symbol_text_and_icon.vert", "symbol_text_and_icon.frag",
    "collision_box.vert", "collision_box.frag",
    "collision_circle.vert", "collision_circle.frag",
]

let package = Package(
    name: "glmap",
    products: [
        .library(name: "GLMap", targets: ["GLMap"]),
        // Beside `import GLMap`: many frames, tile pyramids, image files, tile archives.
        .library(name: "GLMapBatch", targets: ["GLMapBatch"]),
        .library(name: "GLMapPyramid", targets: ["GLMapPyramid"]),
        .library(name: "GLMapImageFormats", targets: ["GLMapImageFormats"]),
        .library(name: "GLMapArchives", targets: ["GLMapArchives"]),
        // For Tests/Fuzz only: the libFuzzer entry points (not part of the GLMap API).
        .library(name: "GLMapFuzzing", targets: ["GLMapFuzzing"]),
        // Golden-image testing of styles (the runner behind `glmap test`), for CI users.
        .library(name: "GLMapTesting", targets: ["GLMapTesting"]),
        .executable(name: "glmap", targets: ["glmap"]),
        .executable(name: "glmap-bench", targets: ["glmap-bench"]),
        // The README's Swift API example (examples/multiple-geometries).
        .executable(name: "multiple-geometries", targets: ["MultipleGeometries"]),
    ],
    targets: [
        // System libraries (module map + pkg-config).
        .systemLibrary(name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
                       providers: [.apt(["libegl-dev"])]),
        .systemLibrary(name: "CGLES3", path: "Sources/CGLES3", pkgConfig: "glesv2",
                       providers: [.apt(["libgles-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
                       providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CISAL", path: "Sources/CISAL", pkgConfig: "libisal",
                       providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebp",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),

        // Pipeline stages.
        .target(name: "GLMapCore"),
        .target(name: "GLMapGeoJSON", dependencies: ["GLMapCore"]),
        .target(name: "GLMapStyle", dependencies: ["GLMapCore", "GLMapGeoJSON", "GLMapTiles", "GLMapShaders"]),
        // Tile archives: MBTiles and PMTiles reading and writing (the pyramid writer's and the tile sources' one codec).
        .target(name: "GLMapArchives", dependencies: ["GLMapCore", "CSQLite", "CDeflate"]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // The tile stage: tile ids, the tile model, tile cover, the GeoJSON tiler, vector and raster tile sources.
        .target(name: "GLMapTiles", dependencies: ["GLMapCore", "GLMapGeoJSON", "GLMapArchives", "GLMapPNG", "CCurl",
                                                   "CDeflate", "CTurboJPEG", "CWebP"]),
        .target(name: "GLMapTessellation", dependencies: ["GLMapCore", "GLMapStyle", "GLMapTiles", "GLMapText"]),
        // ICU (Debian libicu-dev) behind a C shim with plain C types: Foundation carries ICU headers of
        // its own, so Swift never imports ICU's types directly.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n")]),
        // Text and images for symbol layers: glyph ranges (PBF, FreeType SDF), sprites, atlases, shaping, bidi, quads.
        .target(name: "GLMapText", dependencies: ["GLMapCore", "GLMapPNG", "GLMapStyle", "GLMapTiles", "CFreeType", "CICU"]),
        .target(name: "GLMapShaders", path: "Shaders",
                exclude: ["README.md"],
                resources: shaderFiles.map { .embedInCode($0) }),
        .target(name: "GLMapGLES",
                dependencies: ["GLMapCore", "GLMapStyle", "GLMapTiles", "GLMapTessellation", "GLMapShaders",
                               "CEGL", "CGLES3"]),
        .target(name: "GLMapReference", dependencies: ["GLMapCore", "GLMapGeoJSON", "GLMapStyle", "GLMapTiles", "GLMapText"]),
        .target(name: "GLMapPNG", dependencies: ["GLMapCore", "CPNG", "CDeflate", "CISAL"]),
        // `import GLMap`: style, sources, the Snapshotter and the renderer.
        .target(name: "GLMap",
                dependencies: ["GLMapCore", "GLMapGeoJSON", "GLMapStyle", "GLMapTessellation",
                               "GLMapGLES", "GLMapReference", "GLMapPNG", "GLMapTiles", "GLMapText"]),
        // Image files: PNG, JPEG (libjpeg-turbo) and WebP (libwebp) from a rendered frame.
        .target(name: "GLMapImageFormats", dependencies: ["GLMapCore", "GLMapPNG", "CTurboJPEG", "CWebP"]),
        // Many frames: the batch renderer (GPU with CPU recovery), frames files, the encoder pool.
        .target(name: "GLMapBatch", dependencies: ["GLMap", "GLMapCore", "GLMapStyle", "GLMapTessellation", "GLMapGLES",
                                                   "GLMapReference", "GLMapPNG", "GLMapImageFormats"]),
        // Tile pyramids: addresses, scheduling, spooling and writing MBTiles, PMTiles or z/x/y folders.
        .target(name: "GLMapPyramid", dependencies: ["GLMap", "GLMapBatch", "GLMapCore", "GLMapStyle", "GLMapArchives",
                                                     "GLMapPNG", "GLMapImageFormats"]),
        // Golden-image testing: render-test cases, the pixelmatch rule, runner, JUnit and HTML reports.
        .target(name: "GLMapTesting", dependencies: ["GLMap", "GLMapCore", "GLMapPNG"]),
        // `glmap serve`: HTTP on libmicrohttpd, a pool of renderers, the encoded tile cache.
        .target(name: "GLMapServer", dependencies: ["GLMap", "GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapCore", "GLMapStyle", "GLMapPNG", "CMicroHTTPD"]),
        // The command line (one file per subcommand) and the fuzz entry points sit outside the
        // GLMap product, so a library user sees neither.
        .target(name: "GLMapCLI", dependencies: ["GLMap", "GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapCore", "GLMapStyle", "GLMapPNG", "GLMapTesting", "GLMapServer", "GLMapText"]),
        .target(name: "GLMapFuzzing",
                dependencies: ["GLMap", "GLMapCLI", "GLMapCore", "GLMapGeoJSON", "GLMapStyle", "GLMapTessellation", "GLMapTiles", "GLMapText", "GLMapArchives"]),
        .executableTarget(name: "glmap", dependencies: ["GLMapCLI"]),
        // The style-spec code generator (`swift run glmap-codegen ../shared/style-spec/v8.json`):
        // writes Sources/GLMapStyle/Generated and Sources/GLMap/StyleAPI/Generated. Not in the product.
        .target(name: "GLMapCodegen", dependencies: ["GLMapCore"]),
        .executableTarget(name: "glmap-codegen", dependencies: ["GLMapCodegen"]),
        .executableTarget(name: "glmap-bench", dependencies: ["GLMap", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapTesting", "GLMapTessellation", "GLMapTiles", "GLMapArchives"], path: "Benchmarks/glmap-bench"),
        // Depends on the GLMap product's target only: what a library user imports.
        .executableTarget(name: "MultipleGeometries", dependencies: ["GLMap"], path: "examples/multiple-geometries",
                          exclude: ["dc.geojson", "style.json"]),

        // What the test targets share: ../shared, outside tools, in-process glmap runs (test-only).
        .target(name: "GLMapTestSupport", dependencies: ["GLMapCore", "GLMapCLI", "GLMapTesting"],
                path: "Tests/GLMapTestSupport"),
        // Tests mirror the modules.
        .testTarget(name: "GLMapCoreTests", dependencies: ["GLMapCore"]),
        .testTarget(name: "GLMapGeoJSONTests", dependencies: ["GLMapGeoJSON", "GLMapTestSupport"]),
        .testTarget(name: "GLMapArchivesTests", dependencies: ["GLMapArchives", "CDeflate", "GLMapTestSupport"]),
        .testTarget(name: "GLMapTilesTests", dependencies: ["GLMapTiles", "GLMapArchives", "GLMapTestSupport"]),
        .testTarget(name: "GLMapTextTests", dependencies: ["GLMapText", "GLMapCore", "GLMapPNG", "GLMapTiles", "GLMapTesting", "GLMapTestSupport"]),
        .testTarget(name: "GLMapStyleTests", dependencies: ["GLMapStyle", "GLMapCodegen", "GLMapShaders", "GLMapTestSupport"],
                    exclude: ["SuiteStyleValidation-known-errors.txt"]),
        .testTarget(name: "GLMapTessellationTests", dependencies: ["GLMapTessellation", "GLMapTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "GLMapGLESTests", dependencies: ["GLMapGLES", "GLMapPNG", "GLMapTiles"]),
        .testTarget(name: "GLMapReferenceTests", dependencies: ["GLMapReference", "GLMapPNG", "GLMapTiles"]),
        .testTarget(name: "GLMapPNGTests", dependencies: ["GLMapPNG", "GLMapTestSupport"]),
        .testTarget(name: "GLMapTests", dependencies: ["GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMap", "GLMapCLI", "GLMapFuzzing", "GLMapTesting", "GLMapTestSupport"],
                    exclude: ["RenderConformance-known-failures.txt", "ReferenceConformance-known-failures.txt", "BackendAgreement-known-differences.txt",
                              "MapLibreNativeCases", "Differential-known-failures.txt", "DifferentialTiles-known-failures.txt", "RenderSuite-known-failures.txt",
                              "BackendAgreement-new-layers-known-differences.txt"]),
        .testTarget(name: "GLMapServerTests", dependencies: ["GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapServer", "GLMap", "GLMapCLI", "GLMapPNG", "GLMapGLES", "GLMapTestSupport"]),
        .testTarget(name: "GLMapTestingTests", dependencies: ["GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapTesting", "GLMap", "GLMapCore", "GLMapPNG", "GLMapTestSupport"]),
        .testTarget(name: "glmapCLITests", dependencies: ["GLMapArchives", "GLMapBatch", "GLMapPyramid", "GLMapImageFormats", "GLMapCLI", "GLMap", "GLMapCore", "GLMapTesting", "GLMapTestSupport"]),
        // The Swift API as a library user sees it: these tests import GLMap and nothing else.
        .testTarget(name: "GLMapAPITests", dependencies: ["GLMap"]),
    ],
    swiftLanguageModes: [.v6]
)
