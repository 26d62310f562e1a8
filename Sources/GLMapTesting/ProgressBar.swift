// ProgressBar — the one-line progress display `glmap test` redraws on a terminal.

/// Formats a one-line progress bar.
public enum ProgressBar {
    /// `[#########...........]  45/192  circle-radius/literal` fitted to `columns`.
    public static func line(done: Int, total: Int, current: String, failed: Int, columns: Int = 80) -> String {
        let width = 24
        let filled = total == 0 ? width : min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var text = "[\(bar)] \(done)/\(total)"
        if failed > 0 { text += " \(failed) failed" }
        text += "  " + current
        if text.count > columns - 1 { text = String(text.prefix(max(columns - 1, 0))) }
        return text
    }
}
