// The on-disk HTTP cache of ResourceLoader: one body file and one metadata file (JSON: URL,
// ETag, Last-Modified, expiry time, whether to revalidate) per URL, named by two 64-bit FNV-1a
// hashes of the URL; the metadata's URL is checked on read, so a collision is a miss. Written to
// temporary files and renamed into place, so readers never see half an entry. Freshness follows
// Cache-Control: max-age (less Age), no-cache (always revalidate), no-store (never kept); a
// response with validators and no max-age is kept and revalidated on each use.
import Foundation
import GLMapCore

/// One cached response.
struct HTTPCacheEntry: Sendable {
    var url: String
    var body: [UInt8]
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970 until which the entry may be used without asking (0: always revalidate).
    var expires: Double

    func isFresh(now: Double) -> Bool { now < expires }
}

/// The cache folder.
struct HTTPCache: Sendable {
    let directory: String

    init(directory: String) { self.directory = directory }

    private func name(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var a: UInt64 = 0xcbf29ce484222325, b: UInt64 = 0x84222325cbf29ce4
        for c in bytes { a = (a ^ UInt64(c)) &* 0x100000001b3; b = (b &+ UInt64(c)) &* 0x9E3779B97F4A7C15 }
        return String(a, radix: 16) + "-" + String(b, radix: 16)
    }

    func entry(for url: String) -> HTTPCacheEntry? {
        let base = directory + "/" + name(url)
        guard let meta = FileManager.default.contents(atPath: base + ".json"),
              let json = try? JSONParser.parse([UInt8](meta)),
              json["url"]?.stringValue == url,
              let body = FileManager.default.contents(atPath: base + ".body") else { return nil }
        return HTTPCacheEntry(url: url, body: [UInt8](body), etag: json["etag"]?.stringValue,
                              lastModified: json["lastModified"]?.stringValue, expires: json["expires"]?.numberValue ?? 0)
    }

    /// Keeps a 2xx response as its Cache-Control allows.
    func store(url: String, response: HTTPResponse, now: Double) {
        let policy = CachePolicy(headers: response.headers, now: now)
        let base = directory + "/" + name(url)
        guard policy.storable else {
            unlink(base + ".json"); unlink(base + ".body")
            return
        }
        write(HTTPCacheEntry(url: url, body: response.body, etag: response.headers["etag"],
                             lastModified: response.headers["last-modified"], expires: policy.expires))
    }

    /// After a 304: the kept body with the new validators and freshness.
    func refresh(_ entry: HTTPCacheEntry, with response: HTTPResponse, now: Double) {
        let policy = CachePolicy(headers: response.headers, now: now)
        var e = entry
        e.expires = policy.expires
        if let t = response.headers["etag"] { e.etag = t }
        if let l = response.headers["last-modified"] { e.lastModified = l }
        guard policy.storable || response.headers["cache-control"] == nil else {
            let base = directory + "/" + name(entry.url)
            unlink(base + ".json"); unlink(base + ".body")
            return
        }
        write(e)
    }

    private func write(_ e: HTTPCacheEntry) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = directory + "/" + name(e.url)
        var o: [(String, JSONValue)] = [("url", .string(e.url)), ("expires", .number(e.expires))]
        if let t = e.etag { o.append(("etag", .string(t))) }
        if let l = e.lastModified { o.append(("lastModified", .string(l))) }
        let tag = ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        // Body first, then the metadata that makes the entry visible.
        guard FileManager.default.createFile(atPath: base + ".body" + tag, contents: Data(e.body)),
              rename(base + ".body" + tag, base + ".body") == 0 else { unlink(base + ".body" + tag); return }
        guard FileManager.default.createFile(atPath: base + ".json" + tag, contents: Data(JSONValue.object(JSONObject(o)).jsonText.utf8)),
              rename(base + ".json" + tag, base + ".json") == 0 else { unlink(base + ".json" + tag); return }
    }
}

/// What a response's headers allow the cache to do.
struct CachePolicy {
    var storable: Bool
    var expires: Double

    init(headers: [String: String], now: Double) {
        let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var maxAge: Double?
        var noCache = false, noStore = false
        for d in directives {
            if d == "no-store" { noStore = true }
            if d == "no-cache" || d.hasPrefix("no-cache=") { noCache = true }
            if d.hasPrefix("max-age="), let v = Double(d.dropFirst(8).trimmingCharacters(in: CharacterSet(charactersIn: "\""))) { maxAge = v }
        }
        let age = headers["age"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let validators = headers["etag"] != nil || headers["last-modified"] != nil
        if noStore {
            storable = false; expires = 0
        } else if noCache {
            storable = validators; expires = 0
        } else if let maxAge, maxAge - age > 0 {
            storable = true; expires = now + maxAge - age
        } else {
            storable = validators; expires = 0
        }
    }
}
