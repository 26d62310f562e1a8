// Encoded tile cache — contract
// An LRU of encoded images (PNG bytes + ETag) keyed by `ServerRoute.cacheKey`, bounded by the
// total bytes held (`capacityBytes`; 0 disables it). Inserting past the bound evicts the least
// recently used entries first; an entry larger than an eighth of the capacity is not kept (one
// huge static image must not flush every tile). Threading: every method locks; safe from any thread.
import Foundation

/// A thread-safe LRU of encoded images bounded in bytes.
public final class EncodedTileCache: @unchecked Sendable {
    /// One cached image.
    public struct Entry: Sendable {
        /// The encoded PNG bytes.
        public let png: [UInt8]
        /// The image's HTTP `ETag`: the bytes' 64-bit FNV-1a hash and their count, quoted.
        public let etag: String
    }

    private final class Node {
        let key: String
        let entry: Entry
        var prev: Node?
        var next: Node?
        init(key: String, entry: Entry) { self.key = key; self.entry = entry }
    }

    private let lock = NSLock()
    private var nodes: [String: Node] = [:]
    private var head: Node?   // most recently used
    private var tail: Node?   // least recently used
    /// The most bytes of image data held; the least recently used entries go first.
    public let capacityBytes: Int
    private var bytes = 0

    /// An empty cache holding at most `capacityBytes` (0 or less: it keeps nothing).
    public init(capacityBytes: Int) { self.capacityBytes = max(0, capacityBytes) }

    /// Bytes of PNG data held now.
    public var byteCount: Int { lock.lock(); defer { lock.unlock() }; return bytes }
    /// Entries held now.
    public var count: Int { lock.lock(); defer { lock.unlock() }; return nodes.count }

    /// The entry for `key` (and marks it most recently used), or nil.
    public func get(_ key: String) -> Entry? {
        lock.lock(); defer { lock.unlock() }
        guard let n = nodes[key] else { return nil }
        unlink(n); pushFront(n)
        return n.entry
    }

    /// Stores `entry` under `key`, evicting least recently used entries to stay within the bound.
    public func put(_ key: String, _ entry: Entry) {
        let size = entry.png.count + key.utf8.count
        guard capacityBytes > 0, size <= capacityBytes / 8 else { return }
        lock.lock(); defer { lock.unlock() }
        if let old = nodes.removeValue(forKey: key) { unlink(old); bytes -= old.entry.png.count + old.key.utf8.count }
        let n = Node(key: key, entry: entry)
        nodes[key] = n
        pushFront(n)
        bytes += size
        while bytes > capacityBytes, let last = tail {
            unlink(last)
            nodes.removeValue(forKey: last.key)
            bytes -= last.entry.png.count + last.key.utf8.count
        }
    }

    private func unlink(_ n: Node) {
        if let p = n.prev { p.next = n.next } else { head = n.next }
        if let x = n.next { x.prev = n.prev } else { tail = n.prev }
        n.prev = nil; n.next = nil
    }

    private func pushFront(_ n: Node) {
        n.next = head
        head?.prev = n
        head = n
        if tail == nil { tail = n }
    }
}
