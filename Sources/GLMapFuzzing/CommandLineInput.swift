// Command-line fuzz input — contract
// Input: arbitrary bytes, read as `ARGS 0x00 FRAMES`: ARGS is a little token language for an
// argument vector (each byte picks a token: a subcommand, a real flag of render/tiles/info in its
// long or short form, or a value — extreme numbers, empty strings, "-", zoom ranges, shards,
// boxes, paths — with escapes: 0xF0 LEN BYTES a raw string, 0xF1 A B the token "A=B", 0xF2 the
// last two tokens again, a repeated option); FRAMES (everything after
// the first 0x00) is the frames file and also standard input. Output: the argument vector and the
// bytes, with placeholders (@STYLE, @BADSTYLE, @FRAMES, @APNG, @BPNG, @DIR, @MBTILES, @MISSING)
// bound to files of a private workspace (a small style, the frames file,
// an output folder). Paths never leave the workspace: raw strings lose their slashes, and the
// workspace is the current folder while the command runs. To keep every run fast the command
// renders on the CPU and tiles stop at 16 (`--backend cpu` first, `--max-tiles 16` last; later
// flags win, so the fuzzed vector can still say otherwise only through a parse error).
import Foundation
import GLMapCLI

/// An argument vector and a frames file decoded from fuzz bytes (see the contract above).
struct CommandLineInput {
    var args: [String]
    var frames: [UInt8]

    static let commands = ["render", "tiles", "info", "help", "version", "--version", "--help", "rendr", ""]
    static let flags: [String] = {
        var out: [String] = []
        for o in RenderCommand.options + TilesCommand.options + InfoCommand.options {
            out.append("--\(o.long)")
            if let s = o.short { out.append("-\(s)") }
        }
        return out + ["--", "-", "---style", "-style", "--STYLE"]
    }()
    static let values = [
        "@STYLE", "@STYLE", "@BADSTYLE", "@FRAMES", "@FRAMES", "@APNG", "@BPNG", "@DIR", "@MBTILES", "@MISSING",
        "-", "", "=", " ", "out.png", "x.jpg", "tiles.png", "dir/", ".", "..",
        "0", "1", "-1", "2", "3", "7", "8", "16", "17", "24", "25", "30", "64", "256", "512", "1000",
        "1e21", "-1e21", "1e300", "-1e300", "1e-300", "nan", "inf", "-inf", "0x10", "1.5", "-0", "+3", "1_000",
        "99999999999999999999", "9223372036854775807", "-9223372036854775808", "2147483648", "16385",
        "0-2", "2-0", "0-25", "24-24", "-1-3", "3-", "0--1", "0/1", "1/2", "2/2", "0/0", "-1/3", "1/-2",
        "-10,35,30,60", "1,2,3", "180,-90,-180,90", ",,,", "-180,-90,180,90",
        "cpu", "CPU", "fast", "default", "slow", "256", "512",
    ]
    static var tokens: [String] { commands + flags + values }

    init(_ bytes: [UInt8], workspace: String) {
        let split = bytes.firstIndex(of: 0) ?? bytes.count
        frames = split < bytes.count ? Array(bytes[(split + 1)...]) : []
        let table = CommandLineInput.tokens
        var raw: [String] = []
        var i = 0
        func next() -> String? {
            guard i < split else { return nil }
            let b = bytes[i]
            i += 1
            switch b {
            case 0xF0:   // raw string: length, bytes (slashes removed)
                guard i < split else { return "" }
                let n = Int(bytes[i]) % 48
                i += 1
                let end = min(split, i + n)
                let text = String(decoding: bytes[i..<end], as: UTF8.self).replacingOccurrences(of: "/", with: "_")
                i = end
                return text
            case 0xF1:   // flag=value
                let flag = next() ?? ""
                return flag + "=" + (next() ?? "")
            default:
                return table[Int(b) % table.count]
            }
        }
        while i < split {
            if bytes[i] == 0xF2 {   // repeat the last flag and value
                i += 1
                raw += raw.suffix(2)
                continue
            }
            guard let t = next() else { break }
            raw.append(t)
        }
        let out = workspace + "/cwd"
        let bound = raw.map { arg -> String in
            var a = arg
            for (key, value) in [("@BADSTYLE", workspace + "/bad.json"), ("@STYLE", workspace + "/style.json"),
                                 ("@FRAMES", workspace + "/frames.jsonl"), ("@APNG", out + "/a.png"), ("@BPNG", out + "/b.png"),
                                 ("@DIR", out + "/t"), ("@MBTILES", out + "/x.mbtiles"), ("@MISSING", out + "/none/x.png")] {
                a = a.replacingOccurrences(of: key, with: value)
            }
            // The CPU only: a GL context per input would make every run slow.
            if a == "gpu" || a == "auto" || a.hasSuffix("=gpu") || a.hasSuffix("=auto") { a = "cpu" }
            return a
        }
        guard let command = bound.first else { args = []; return }
        var vector = [command]
        if ["render", "tiles", "info"].contains(command) { vector += ["--backend", "cpu"] }
        vector += bound.dropFirst()
        if command == "tiles" { vector += ["--max-tiles", "16"] }
        args = vector
    }
}
