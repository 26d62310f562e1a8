// One libcurl easy handle, reused for consecutive requests on one thread (so connections are
// kept alive): GET with optional validators, redirects (http/https only), decoded
// Content-Encoding, a whole-request timeout, a body size cap, and the headers the cache needs.
import CCurl
import Foundation
import GLMapCore

/// A completed HTTP exchange.
struct HTTPResponse: Sendable {
    var status: Int
    var reason: String
    var body: [UInt8]
    /// Response headers of the final response (after redirects), names lowercased.
    var headers: [String: String]
}

/// Initialises libcurl once, before any handle (curl_global_init is not thread-safe).
private let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// A libcurl easy handle for one thread.
final class HTTPClient {
    let options: ResourceLoaderOptions
    private var handle: UnsafeMutableRawPointer?

    init(options: ResourceLoaderOptions) {
        self.options = options
        if curlReady { handle = curl_easy_init() }
    }

    deinit { if let handle { curl_easy_cleanup(handle) } }

    /// What the callbacks fill in (passed to libcurl as an opaque pointer).
    final class Transfer {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        var reason = ""
        var tooLarge = false
        let maxBytes: Int
        init(maxBytes: Int) { self.maxBytes = maxBytes }
    }

    func get(_ url: String, etag: String?, lastModified: String?) -> Result<HTTPResponse, HTTPFailure> {
        guard let curl = handle else { return .failure(HTTPFailure("libcurl could not be initialised")) }
        curl_easy_reset(curl)
        let transfer = Transfer(maxBytes: options.maxBytes)
        let box = Unmanaged.passRetained(transfer)
        defer { box.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        if let etag { headerList = curl_slist_append(headerList, "If-None-Match: \(etag)") }
        if let lastModified { headerList = curl_slist_append(headerList, "If-Modified-Since: \(lastModified)") }
        defer { curl_slist_free_all(headerList) }
        _ = glmap_curl_set_string(curl, CURLOPT_URL, url)
        _ = glmap_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = glmap_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = glmap_curl_set_long(curl, CURLOPT_MAXREDIRS, 10)
        _ = glmap_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = glmap_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = glmap_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        _ = glmap_curl_set_string(curl, CURLOPT_USERAGENT, options.userAgent)
        _ = glmap_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, Int(options.timeout * 1000)))
        _ = glmap_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(options.timeout * 1000)))
        if let headerList { _ = glmap_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)) }
        _ = glmap_curl_set_pointer(curl, CURLOPT_WRITEDATA, box.toOpaque())
        _ = glmap_curl_set_pointer(curl, CURLOPT_HEADERDATA, box.toOpaque())
        _ = glmap_curl_set_callback(curl, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            let t = Unmanaged<HTTPClient.Transfer>.fromOpaque(user!).takeUnretainedValue()
            let n = size * count
            guard t.body.count + n <= t.maxBytes else { t.tooLarge = true; return 0 }
            if n > 0, let data { t.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: n)) }
            return n
        }
        _ = glmap_curl_set_callback(curl, CURLOPT_HEADERFUNCTION) { data, size, count, user in
            let t = Unmanaged<HTTPClient.Transfer>.fromOpaque(user!).takeUnretainedValue()
            let n = size * count
            guard let data else { return n }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                // A new response (after a redirect or a 100 Continue): start over.
                t.headers = [:]
                let parts = line.split(separator: " ", maxSplits: 2)
                t.reason = parts.count == 3 ? String(parts[2]) : ""
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                t.headers[name] = t.headers[name].map { $0 + ", " + value } ?? value
            }
            return n
        }
        let rc = curl_easy_perform(curl)
        if transfer.tooLarge {
            return .failure(HTTPFailure("the response is larger than \(options.maxBytes) bytes (maxBytes of the resource loader)"))
        }
        guard rc == CURLE_OK else {
            let what = String(cString: curl_easy_strerror(rc))
            if rc == CURLE_OPERATION_TIMEDOUT { return .failure(HTTPFailure("timed out after \(options.timeout) s (\(what))")) }
            return .failure(HTTPFailure(what))
        }
        let status = glmap_curl_info_long(curl, CURLINFO_RESPONSE_CODE)
        return .success(HTTPResponse(status: status, reason: transfer.reason, body: transfer.body, headers: transfer.headers))
    }
}

/// A transfer that failed before an HTTP status arrived.
struct HTTPFailure: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
