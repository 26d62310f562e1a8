import Foundation
import GLMapTestSupport
import GLMapTiles
import XCTest

/// A small HTTP server on 127.0.0.1 for the loader's tests (Python's http.server, threaded): fixed
/// routes with cache headers, a request counter per path, a slow route, and files of a folder
/// under /files/. It exits by itself after `lifetime` seconds; `stop()` ends it sooner.
final class TestHTTPServer {
    static let script = #"""
import sys, time, json, threading, os, gzip
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
root = sys.argv[1]
counts = {}
lock = threading.Lock()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers: self.send_header(k, v)
        if status not in (204, 304): self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status not in (204, 304): self.wfile.write(body)
    def do_GET(self):
        p = self.path.split("?")[0]
        if p.startswith("/__count"):
            with lock: return self.send(200, json.dumps(counts).encode())
        with lock: counts[p] = counts.get(p, 0) + 1
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        if p == "/fresh": return self.send(200, b"fresh body", [("Cache-Control", "public, max-age=600"), ("ETag", '"f1"')])
        if p == "/aged": return self.send(200, b"aged body", [("Cache-Control", "max-age=100"), ("Age", "100"), ("ETag", '"a1"')])
        if p == "/nocache":
            if inm == '"n1"': return self.send(304, headers=[("ETag", '"n1"'), ("Cache-Control", "no-cache")])
            return self.send(200, b"nocache body", [("Cache-Control", "no-cache"), ("ETag", '"n1"')])
        if p == "/lastmod":
            lm = "Wed, 21 Oct 2015 07:28:00 GMT"
            if ims == lm: return self.send(304)
            return self.send(200, b"lastmod body", [("Last-Modified", lm)])
        if p == "/nostore": return self.send(200, b"nostore body", [("Cache-Control", "no-store"), ("ETag", '"s1"')])
        if p == "/empty204": return self.send(204)
        if p == "/missing": return self.send(404, b"no")
        if p == "/gone": return self.send(410, b"gone")
        if p == "/broken": return self.send(500, b"oops")
        if p == "/encoded": return self.send(200, gzip.compress(b"decoded by curl"), [("Content-Encoding", "gzip")])
        if p == "/redirect": return self.send(302, b"", [("Location", "/fresh")])
        if p.startswith("/slow"):
            time.sleep(float(p.split("/")[2]))
            return self.send(200, b"slow body")
        if p.startswith("/files/"):
            f = os.path.join(root, p[len("/files/"):].split("?")[0])
            if not os.path.isfile(f): return self.send(404, b"")
            data = open(f, "rb").read()
            return self.send(200 if data else 204, data)
        self.send(404, b"")
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
s.daemon_threads = True
print(s.server_address[1], flush=True)
threading.Timer(float(sys.argv[2]), lambda: os._exit(0)).start()
s.serve_forever()
"""#

    let process = Process()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    init(root: String, lifetime: Double = 300) throws {
        let python = try OutsideTool.requirePython(["http.server"])
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.script, root, String(lifetime)]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = ""
        while !line.hasSuffix("\n") {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { break }
            line += String(decoding: d, as: UTF8.self)
        }
        guard let p = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw XCTSkip("the test HTTP server did not start: \(line)")
        }
        port = p
    }

    /// How many times each path was requested.
    func counts() throws -> [String: Int] {
        guard case .data(let d) = ResourceLoader().load(base + "/__count") else { return [:] }
        return (try JSONSerialization.jsonObject(with: Data(d)) as? [String: Int]) ?? [:]
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    deinit { stop() }
}
