import XCTest
import Foundation
import GLMapCore
import GLMapShaders
@testable import GLMapStyle
@testable import GLMapTessellation
@testable import GLMapGLES

/// The GPU bindings, declared once by the shaders' `#pragma glmap: define` inputs (GPUBinding
/// derives the property from program and input names), against the spec's properties and the GLSL
/// the programs are built from: every input names a property of its program's layer type with
/// the matching type, every bound property is an input of each program it names, and expands to
/// `uniform u_<name>` when constant and `in a_<name>` when data-driven.
final class ShaderBindingTests: XCTestCase {
    /// Every program with paint inputs and its `#define` variants.
    static let programs: [(ShaderSource.Program, [[String]])] = [
        (ShaderSource.fill, [[]]),
        (ShaderSource.fillOutline, [[]]),
        (ShaderSource.line, [[], ["DASH"], ["GRADIENT"], ["DASH", "GRADIENT"], ["PATTERN"]]),
        (ShaderSource.circle, [[]]),
        (ShaderSource.fillExtrusion, [[]]),
        (ShaderSource.fillExtrusionPattern, [[]]),
        (ShaderSource.heatmap, [[]]),
        (ShaderSource.heatmapTexture, [[]]),
        (ShaderSource.fillPattern, [[]]),
        (ShaderSource.fillOutlinePattern, [[], ["AFFINE"]]),
        (ShaderSource.symbolText, [[]]),
        (ShaderSource.symbolIconSDF, [[]]),
        (ShaderSource.symbolIcon, [[]]),
        (ShaderSource.symbolTextAndIcon, [[]]),
    ]

    func testEveryShaderInputHasATableRowAndEveryRowAnInput() throws {
        for (program, _) in Self.programs {
            let rows = GPUBinding.properties(program: program.name)
            XCTAssertFalse(rows.isEmpty, "\(program.name): no property table row names this program")
            let inputs = try ShaderPragmas.inputs(program.vertex, file: "\(program.name).vert")
            XCTAssertEqual(inputs.map(\.name).sorted(), rows.map { $0.gpu!.name }.sorted(),
                           "\(program.name).vert: `#pragma glmap: define` inputs vs the table rows naming the program")
            for row in rows {
                let b = row.gpu!
                XCTAssertEqual(inputs.first { $0.name == b.name }?.type, b.glslType, "\(row.name): GLSL type in \(program.name).vert")
                XCTAssertEqual(b.components, row.spec.type == .color ? 4 : 1, "\(row.name): float components")
            }
        }
    }

    func testEveryShaderInputNamesAPropertyOfItsProgramsLayerType() throws {
        XCTAssertEqual(ShaderSource.all.map(\.name).sorted(), (Self.programs.map(\.0.name) + ["background", "clipping_mask", "background_pattern", "raster", "hillshade_prepare", "hillshade", "color_relief", "collision_box", "collision_circle"]).sorted(),
                       "every program is checked here")
        for program in ShaderSource.all {
            let inputs = try ShaderPragmas.inputs(program.vertex, file: "\(program.name).vert")
            XCTAssertEqual(inputs.map(\.name), program.paintInputs.map(\.name), "\(program.name): GLMapShaders reads the pragmas the GL backend expands")
            guard !inputs.isEmpty else { continue }
            let type = try XCTUnwrap(GPUBinding.layerType(program: program.name), "\(program.name): no layer type")
            for input in inputs {
                let name = try XCTUnwrap(GPUBinding.propertyName(program: program.name, input: input.name))
                guard let row = type.properties.first(where: { $0.name == name }) else {
                    XCTFail("\(program.name).vert: `#pragma glmap: define \(input.type) \(input.name)` names \(name), which is no property of \(type.rawValue) layers (spell the input after the property: `-` as `_`)")
                    continue
                }
                XCTAssertFalse(row.isLayout, "\(name): a paint property")
                XCTAssertEqual(input.type, row.spec.type == .color ? "vec4" : "float", "\(name): GLSL type of a \(row.spec.type)")
                XCTAssertEqual(row.gpu?.name, input.name)
                XCTAssertTrue(row.gpu?.programs.contains(program.name) ?? false)
            }
        }
        XCTAssertEqual(GPUBinding.layerType(program: "fill_outline"), .fill)
        XCTAssertEqual(GPUBinding.layerType(program: "fill_extrusion"), .fillExtrusion)
        XCTAssertEqual(GPUBinding.layerType(program: "color_relief"), .colorRelief)
        XCTAssertNil(GPUBinding.layerType(program: "debug"))
        XCTAssertEqual(LineProperties.lineGapWidth.gpu, GPUBinding("gap_width", components: 1, programs: ["line"]))
        XCTAssertEqual(FillProperties.fillOpacity.gpu?.programs, ["fill", "fill_outline", "fill_pattern", "fill_outline_pattern"])
        XCTAssertEqual(FillProperties.fillColor.gpu?.programs, ["fill"], "a patterned fill does not read fill-color")
        XCTAssertEqual(GPUBinding.properties(program: "fill_extrusion_pattern").map(\.name),
                       ["fill-extrusion-opacity", "fill-extrusion-height", "fill-extrusion-base"])
        XCTAssertEqual(GPUBinding.properties(program: "heatmap_texture").map(\.name), ["heatmap-opacity"])
        XCTAssertEqual(CircleProperties.circleStrokeColor.gpu?.components, 4)
        XCTAssertNil(LineProperties.lineTranslate.gpu, "no shader input: no binding")
        XCTAssertEqual(GPUBinding.properties(program: "fill_outline").map(\.name), ["fill-opacity", "fill-outline-color"])
        // Symbol programs read text-* or icon-* paint by the program's name.
        XCTAssertEqual(GPUBinding.propertyName(program: "symbol_text", input: "halo_color"), "text-halo-color")
        XCTAssertEqual(GPUBinding.propertyName(program: "symbol_icon_sdf", input: "halo_color"), "icon-halo-color")
        XCTAssertEqual(GPUBinding.properties(program: "symbol_icon").map(\.name), ["icon-opacity"])
        XCTAssertEqual(SymbolProperties.textColor.gpu?.programs, ["symbol_text", "symbol_text_and_icon"])
    }

    func testConstantPropertiesAreUniformsAndDataDrivenOnesAttributes() throws {
        for (program, variants) in Self.programs {
            let rows = GPUBinding.properties(program: program.name)
            let names = Set(rows.map { $0.gpu!.name })
            for defines in variants {
                let text = GLProgram.define(defines, in: program.vertex)
                let file = "\(program.name).vert \(defines)"
                let constant = try ShaderPragmas.expand(text, attributes: [], file: file)
                let dataDriven = try ShaderPragmas.expand(text, attributes: names, file: file)
                for row in rows {
                    let b = row.gpu!
                    XCTAssertTrue(ShaderPragmas.declaredUniforms(constant).contains(b.uniform), "\(file): constant \(row.name) → uniform \(b.uniform)")
                    XCTAssertFalse(ShaderPragmas.declaredAttributes(constant).contains(b.attribute), "\(file): constant \(row.name) is no attribute")
                    XCTAssertTrue(ShaderPragmas.declaredAttributes(dataDriven).contains(b.attribute), "\(file): data-driven \(row.name) → in \(b.attribute)")
                    XCTAssertFalse(ShaderPragmas.declaredUniforms(dataDriven).contains(b.uniform), "\(file): data-driven \(row.name) is no uniform")
                    XCTAssertTrue(dataDriven.contains("\(b.glslType) \(b.name) = \(b.attribute);"), "\(file): \(b.name) read from \(b.attribute)")
                    XCTAssertTrue(constant.contains("\(b.glslType) \(b.name) = \(b.uniform);"), "\(file): \(b.name) read from \(b.uniform)")
                }
                XCTAssertFalse(dataDriven.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#pragma glmap") },
                               "\(file): every pragma expanded")
            }
        }
    }

    func testAnAttributeTheShaderLacksIsAnError() {
        XCTAssertThrowsError(try ShaderPragmas.expand(ShaderSource.fill.vertex, attributes: ["width"], file: "fill.vert")) { e in
            XCTAssertTrue("\(e)".contains("a_width"), "\(e)")
        }
        XCTAssertThrowsError(try ShaderPragmas.inputs("#pragma glmap: define mat4 color\n", file: "x.vert"), "unknown type")
        XCTAssertThrowsError(try ShaderPragmas.expand("#pragma glmap: initialize vec4 color\n", attributes: [], file: "x.vert"),
                             "initialize without define")
    }

    func testBindingAVertexInputTheProgramLacksIsAnError() throws {
        let renderer = try GLRenderer()
        let layer = EvaluatedFillLayer(id: "f", antialias: false, translate: (0, 0), translateAnchor: .map, features: [])
        let paint = FillBucket(layer).paint
        let program = try renderer.fills.programs.program(ShaderSource.fill, paint: paint)
        XCTAssertThrowsError(try GLDrawing.bindAttributes(program, 0, [("a_pos", 2), ("a_width", 1)])) { e in
            XCTAssertTrue("\(e)".contains("a_width"), "\(e)")
        }
    }

    /// Two fills: different colours (attributes) and the same colour (uniforms) draw the same pixels.
    func testUniformAndAttributePaintDrawTheSameColours() throws {
        // Zoom 3: 4096 px per unit world; pixel p of the 64-px view is at 0.5 + (p − 32) / 4096.
        func w(_ px: Double) -> Double { 0.5 + (px - 32) / 4096 }
        func square(_ x0: Double, _ color: Color) -> EvaluatedFill {
            let c = [w(x0), w(20), w(x0 + 10), w(20), w(x0 + 10), w(40), w(x0), w(40)]
            return EvaluatedFill(polygons: [FlatPolygon(coords: c, holeIndices: [])], color: color, opacity: 0.5, outlineColor: color)
        }
        let red = Color(r: 1, g: 0, b: 0), blue = Color(r: 0, g: 0, b: 1)
        let renderer = try GLRenderer()
        let view = ViewTransform(camera: Camera(zoom: 3), width: 64, height: 64)
        func draw(_ features: [EvaluatedFill]) throws -> (PremultipliedImage, FillBucket) {
            let layer = EvaluatedFillLayer(id: "f", antialias: false, translate: (0, 0), translateAnchor: .map, features: features)
            let plan = singleTilePlan(.fill(layer), zoom: 3)
            guard case .tiled(_, _, let buckets) = plan.layers[0], case .fill(let bucket) = buckets[0].bucket else { fatalError("a fill plan") }
            return (try renderer.render(plan, view: view, ratio: 1), bucket)
        }
        func pixel(_ img: PremultipliedImage, _ x: Int, _ y: Int) -> [UInt8] { Array(img.pixels[((y * img.width + x) * 4)...].prefix(4)) }
        let (mixed, mixedBucket) = try draw([square(20, red), square(35, blue)])
        XCTAssertEqual(mixedBucket.paint.vertexProperties.map(\.name), ["fill-color"])
        let (same, sameBucket) = try draw([square(20, red), square(35, red)])
        XCTAssertTrue(sameBucket.paint.vertexProperties.isEmpty)
        XCTAssertEqual(pixel(mixed, 25, 30), [128, 0, 0, 128])
        XCTAssertEqual(pixel(mixed, 40, 30), [0, 0, 128, 128])
        XCTAssertEqual(pixel(mixed, 32, 30), [0, 0, 0, 0])
        XCTAssertEqual(pixel(same, 25, 30), [128, 0, 0, 128])
        XCTAssertEqual(pixel(same, 40, 30), [128, 0, 0, 128])
    }
}
