// HTMLReport — a page a person opens to see what a run drew.
//
// Output: DIR/index.html, self-contained (inline CSS, no script, no network), next to the images
// the runner kept in DIR/cases/<NNNN-name>/{expected,actual,diff}.png. Unexpected failures come
// first, then known failures (with their reasons), each as a row: name, status and mismatch, then
// expected, actual and diff side by side at a whole-number zoom (pixels stay sharp). Passing cases
// follow, folded in a <details> element. The page is written atomically.
import Foundation
import GLMapPNG

/// Writes the HTML report of a run.
public enum HTMLReport {
    /// The page for `summary`, whose image paths are relative to the report folder.
    public static func html(_ summary: RenderTestSummary, title: String = "glmap render tests") -> String {
        var body = ""
        body += "<h1>\(escape(title))</h1>\n<p class=\"total\">\(escape(summary.closingLine))</p>\n"
        if let problem = summary.floorProblem { body += "<p class=\"floor\">\(escape(problem))</p>\n" }
        let failing = summary.unexpected + summary.knownFailing
        for r in failing { body += row(r, summary) }
        let passing = summary.passed
        if !passing.isEmpty {
            body += "<details><summary>\(passing.count) passing case\(passing.count == 1 ? "" : "s")</summary>\n"
            for r in passing { body += row(r, summary) }
            body += "</details>\n"
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body { font: 14px/1.4 sans-serif; margin: 16px; background: #fff; color: #222; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        .total { margin: 0 0 16px; }
        .case { margin: 0 0 18px; padding: 8px 0 0; border-top: 1px solid #ddd; }
        .case h2 { font-size: 15px; margin: 0 0 2px; font-family: monospace; }
        .status { display: inline-block; padding: 0 6px; border-radius: 3px; color: #fff; font-size: 12px; margin-right: 6px; }
        .unexpected .status { background: #b3261e; } .known .status { background: #8a6d00; } .pass .status { background: #1e7a34; }
        .message, .reason { margin: 0 0 6px; font-family: monospace; font-size: 12px; }
        .images { display: flex; gap: 12px; align-items: flex-start; }
        figure { margin: 0; } figcaption { font-size: 12px; color: #555; }
        img { display: block; image-rendering: pixelated; border: 1px solid #999;
              background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .missing { display: flex; align-items: center; justify-content: center; border: 1px dashed #999; color: #777; font-size: 12px; }
        </style></head>
        <body>
        \(body)</body></html>

        """
    }

    /// Writes `index.html` for `summary` into `directory` (which holds the runner's images).
    public static func write(_ summary: RenderTestSummary, to directory: String, title: String = "glmap render tests") throws {
        let path = (directory as NSString).appendingPathComponent("index.html")
        try AtomicFileWriter.write(Array(html(summary, title: title).utf8), to: path)
    }

    static func row(_ r: RenderTestResult, _ summary: RenderTestSummary) -> String {
        let c = r.testCase
        let known = summary.knownReason(r)
        let kind = r.isPass ? "pass" : (known != nil ? "known" : "unexpected")
        let label = r.isPass ? (r.status == .updated ? "updated" : "passed")
                             : (known != nil ? "known failure" : (r.status == .error ? "error" : "failed"))
        var s = "<section class=\"case \(kind)\" id=\"\(escape(c.name))\">\n"
        s += "<h2><span class=\"status\">\(label)</span>\(escape(c.name))</h2>\n"
        s += "<p class=\"message\">\(escape(r.message))</p>\n"
        if let known, !r.isPass { s += "<p class=\"reason\">known: \(escape(known))</p>\n" }
        let w = Int((Double(c.width) * c.pixelRatio).rounded()), h = Int((Double(c.height) * c.pixelRatio).rounded())
        let (dw, dh) = displaySize(w, h)
        s += "<div class=\"images\">\n"
        for (caption, path) in [("expected", r.artifacts?.expected), ("actual", r.artifacts?.actual), ("diff", r.artifacts?.diff)] {
            s += "<figure>"
            if let path {
                let lazy = r.isPass ? " loading=\"lazy\"" : ""
                s += "<img src=\"\(escape(path))\" width=\"\(dw)\" height=\"\(dh)\" alt=\"\(caption) of \(escape(c.name))\"\(lazy)>"
            } else {
                s += "<div class=\"missing\" style=\"width:\(dw)px;height:\(dh)px\">no \(caption) image</div>"
            }
            s += "<figcaption>\(caption)</figcaption></figure>\n"
        }
        s += "</div>\n</section>\n"
        return s
    }

    /// On-screen size: small images magnified by a whole number up to 256 px, large ones shrunk to 384 px.
    static func displaySize(_ w: Int, _ h: Int) -> (Int, Int) {
        let side = max(w, h, 1)
        if side <= 128 {
            let k = max(1, 256 / side)
            return (w * k, h * k)
        }
        if side > 384 {
            let f = 384.0 / Double(side)
            return (max(1, Int(Double(w) * f)), max(1, Int(Double(h) * f)))
        }
        return (w, h)
    }

    /// HTML-escapes text for an attribute or element.
    static func escape(_ s: String) -> String { MarkupEscaping.html(s) }
}
