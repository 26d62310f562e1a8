import Foundation
import XCTest

/// DESIGN.md's rule "public API has `///` one-line summaries", checked over every library module:
/// the test reads Sources/ and Shaders/ and fails listing file:line of each public declaration
/// that has no summary directly above it. The scanner's own cases come first.
final class PublicDocumentationTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func findings(_ text: String) -> [Int] {
        var count = 0
        return PublicDocumentationScanner.scan(text, file: "t.swift", declarations: &count).map(\.line)
    }

    func testAnUndocumentedPublicFunctionIsFound() {
        XCTAssertEqual(findings("public func f() {}\n"), [1])
    }

    func testASummaryAboveAttributesCounts() {
        XCTAssertEqual(findings("/// Does f.\n@discardableResult\n@inlinable\npublic func f() -> Int { 1 }\n"), [])
    }

    func testADocBlockCountsAndAPlainCommentDoesNot() {
        XCTAssertEqual(findings("/** Does f. */\npublic func f() {}\n// Not a summary.\npublic func g() {}\n"), [4])
    }

    func testInternalAndPrivateDeclarationsAreNotChecked() {
        XCTAssertEqual(findings("func f() {}\nprivate(set) var x = 1\nstruct S {\n    public var y = 2\n}\n"), [])
    }

    func testMembersOfAPublicTypeAreCheckedOnlyWhenPublic() {
        let text = "/// S.\npublic struct S {\n    var a = 1\n    public var b = 2\n    public private(set) var c = 3\n}\n"
        XCTAssertEqual(findings(text), [4, 5])
    }

    func testCasesOfAPublicEnumAreChecked() {
        let text = "/// E.\npublic enum E {\n    /// A.\n    case a\n    case b(Int)\n    func f() { switch self { case .a: break\n    case .b: break } }\n}\n"
        XCTAssertEqual(findings(text), [5])
    }

    func testRequirementsOfAPublicProtocolAreChecked() {
        let text = "/// P.\npublic protocol P {\n    var x: Int { get }\n    /// Does f.\n    func f()\n    associatedtype T\n}\n"
        XCTAssertEqual(findings(text), [3, 6])
    }

    func testMembersOfAPublicExtensionAreCheckedUnlessRestricted() {
        let text = "public extension Int {\n    var twice: Int { self * 2 }\n    private var hidden: Int { 0 }\n}\n"
        XCTAssertEqual(findings(text), [2])
    }

    func testDeclarationsInsideFunctionBodiesAndStringsAreIgnored() {
        let text = "/// F.\npublic func f() {\n    let s = \"{ public func g() {}\"\n    /* { */\n    struct Local { public var z = 0 }\n}\npublic var after = 1\n"
        XCTAssertEqual(findings(text), [7])
    }

    func testEveryPublicDeclarationInTheSourcesHasASummary() {
        var declarations = 0
        let result = PublicDocumentationScanner.scan(root: root, folders: ["Sources", "Shaders"], declarations: &declarations)
        XCTAssertGreaterThan(result.files, 100, "the sources were found")
        XCTAssertGreaterThan(declarations, 1000, "public declarations were found")
        let list = result.findings.map(\.description).joined(separator: "\n")
        XCTAssertTrue(result.findings.isEmpty,
                      "\(result.findings.count) of \(declarations) public declarations have no `///` summary:\n\(list)")
    }
}
