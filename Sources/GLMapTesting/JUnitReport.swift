// JUnitReport — the run as JUnit XML (the dialect CI systems read: GitHub Actions test reporters,
// GitLab's `artifacts:reports:junit`, Jenkins).
//
// One <testsuite> per run, one <testcase> per case (classname: the group, name: the case id).
// An unexpected failure is <failure>; a case that could not run is <error>; a known failure is
// <skipped> with its reason, so it neither breaks the build nor disappears.
import Foundation
import GLMapPNG

/// Writes JUnit XML for a run.
public enum JUnitReport {
    /// The XML document for `summary`; `suiteName` names the <testsuite>.
    public static func xml(_ summary: RenderTestSummary, suiteName: String = "glmap render tests") -> String {
        let results = summary.results
        let failures = summary.unexpected.filter { $0.status == .failed }.count
        let errors = summary.unexpected.filter { $0.status == .error }.count
        let skipped = summary.knownFailing.count
        let time = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\""
        out += "<testsuites name=\"\(escape(suiteName))\" \(counts)>\n"
        out += "  <testsuite name=\"\(escape(suiteName))\" \(counts)>\n"
        for r in results {
            let c = r.testCase
            out += "    <testcase classname=\"\(escape(c.group))\" name=\"\(escape(c.name))\" time=\"\(seconds(r.seconds))\""
            if let reason = summary.knownReason(r), !r.isPass {
                out += ">\n      <skipped message=\"\(escape("known failure: " + reason))\">\(escape(r.message))</skipped>\n    </testcase>\n"
            } else if r.status == .failed {
                out += ">\n      <failure message=\"\(escape(r.message))\" type=\"mismatch\">\(escape(r.message))</failure>\n    </testcase>\n"
            } else if r.status == .error {
                out += ">\n      <error message=\"\(escape(r.message))\" type=\"error\">\(escape(r.message))</error>\n    </testcase>\n"
            } else {
                out += "/>\n"
            }
        }
        if let problem = summary.floorProblem {
            out += "    <testcase classname=\"glmap\" name=\"pass floor\" time=\"0\">\n      <failure message=\"\(escape(problem))\" type=\"floor\"/>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// Writes the XML for `summary` to `path` atomically.
    public static func write(_ summary: RenderTestSummary, to path: String, suiteName: String = "glmap render tests") throws {
        try AtomicFileWriter.write(Array(xml(summary, suiteName: suiteName).utf8), to: path)
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// XML-escapes text for an attribute or element; characters XML 1.0 forbids become U+FFFD.
    static func escape(_ s: String) -> String { MarkupEscaping.xml(s) }
}
