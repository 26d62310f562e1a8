// RenderTestRunner — renders render-test cases and judges them by the render tests' rule.
//
// Inputs:  cases (RenderTestCase), a backend, a number of parallel jobs, an update mode, and
//          optionally a folder for each case's expected/actual/diff images (for the HTML report).
// Outputs: one RenderTestResult per case, in the order of the cases given.
// Invariants: a case is drawn by RenderTestSession (the style localized, its operations applied
//          through the Snapshotter's runtime styling API; a case without operations is drawn as
//          `glmap render --style style.json --width W --height H --ratio R` draws it, straight
//          alpha), compared as pixelmatch(actual, expected) with the case's
//          threshold, anti-aliased pixels not counted, the smallest difference over its
//          expected*.png winning, passing when difference <= allowed and the case asks for nothing
//          glmap does not do (an operation it does not implement, a feature it stores but does not
//          draw: those fail the case with the reason first in its message). Expected images are written
//          atomically and only in update mode. A failing case never stops the others.
// Threading: `jobs` worker threads, each with its own MapRenderer (one GL context per renderer per
//          thread, the library's threading contract); results are collected under a lock.
import Foundation
import GLMap
import GLMapCore
import GLMapPNG

/// The verdict on one case.
public struct RenderTestResult: Sendable {
    /// How a case ended.
    public enum Status: String, Sendable {
        /// Within `allowed` of an expected image.
        case passed
        /// Beyond `allowed`, or no expected image to compare with.
        case failed
        /// The case could not be rendered or compared (bad style, size mismatch, unreadable PNG).
        case error
        /// Update mode wrote its expected.png.
        case updated
    }
    /// The case.
    public var testCase: RenderTestCase
    /// How it ended.
    public var status: Status
    /// One line saying why (the difference against allowed, or the error).
    public var message: String
    /// Mismatching pixels against the best expected image, when compared.
    public var mismatched: Int?
    /// Pixels of the image, when compared.
    public var pixels: Int?
    /// The best expected image's file, when compared.
    public var expectedFile: String?
    /// Seconds spent on the case (render and compare).
    public var seconds: Double
    /// The case's images under the runner's artifacts folder, relative to it.
    public var artifacts: Artifacts?

    /// Paths of the images kept for a report, relative to the artifacts folder (nil: none).
    public struct Artifacts: Sendable {
        /// Copy of the best expected image.
        public var expected: String?
        /// The rendered image.
        public var actual: String?
        /// pixelmatch's diff image against the best expected image.
        public var diff: String?
    }

    /// mismatched / pixels, when compared.
    public var difference: Double? {
        guard let mismatched, let pixels, pixels > 0 else { return nil }
        return Double(mismatched) / Double(pixels)
    }
    /// Whether the case counts as passing (passed, or written by update mode).
    public var isPass: Bool { status == .passed || status == .updated }
}

/// Renders cases and judges them; see the file's contract.
public struct RenderTestRunner: Sendable {
    /// What update mode writes.
    public enum UpdateMode: Sendable, Equatable {
        /// Writes nothing; a case without expected images fails.
        case none
        /// Writes expected.png for cases that have no expected image.
        case missing
        /// Rewrites expected.png of every case run (left as is when already identical).
        case all
    }

    /// The renderer backend (auto: GPU through EGL, else CPU).
    public var backend: Backend
    /// Worker threads, each with its own renderer.
    public var jobs: Int
    /// What update mode writes.
    public var update: UpdateMode
    /// Folder for each case's expected/actual/diff PNGs (nil: keep none).
    public var artifactsDirectory: String?
    /// Whether passing cases' images are kept too (false: only failures').
    public var keepsPassingImages: Bool

    /// A runner; `jobs` below 1 counts as 1.
    public init(backend: Backend = .auto, jobs: Int = 1, update: UpdateMode = .none, artifactsDirectory: String? = nil,
                keepsPassingImages: Bool = true) {
        self.backend = backend
        self.jobs = max(1, jobs)
        self.update = update
        self.artifactsDirectory = artifactsDirectory
        self.keepsPassingImages = keepsPassingImages
    }

    /// How a message starts when the case asks for something glmap does not do.
    public static let unsupportedPrefix = "glmap does not support: "

    /// Runs every case on `jobs` threads; `progress` is called (serialised) after each case with
    /// the number done, the total and the result. Results come back in the cases' order.
    public func run(_ cases: [RenderTestCase],
                    progress: (@Sendable (_ done: Int, _ total: Int, _ result: RenderTestResult) -> Void)? = nil) -> [RenderTestResult] {
        let state = SharedState(count: cases.count)
        let workers = min(jobs, max(cases.count, 1))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                let renderer = MapRenderer(backend: backend)   // this thread's own GL context
                while let index = state.next() {
                    let result = run(cases[index], renderer: renderer, index: index)
                    let done = state.store(result, at: index)
                    progress?(done, cases.count, result)
                    state.unlockProgress()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return state.results()
    }

    /// Runs one case with `renderer` (which must be used from this thread only); `index` names its
    /// artifacts folder.
    public func run(_ c: RenderTestCase, renderer: MapRenderer, index: Int = 0) -> RenderTestResult {
        let start = Date()
        var result = RenderTestResult(testCase: c, status: .error, message: "", seconds: 0)
        do {
            let drawing = try RenderTestSession.draw(c, renderer: renderer)
            let actual = drawing.image
            // What glmap cannot do yet fails the case whatever the pixels say; refused operations are noted.
            let unsupported = drawing.unsupported.isEmpty ? "" : Self.unsupportedPrefix + drawing.unsupported.joined(separator: "; ") + "; "
            let notes = drawing.notes.isEmpty ? "" : " (" + drawing.notes.joined(separator: "; ") + ")"
            var expectedFiles = c.expectedImages()
            let mainExpected = (c.directory as NSString).appendingPathComponent("expected.png")
            var wrote: String?
            if update == .all || (update == .missing && expectedFiles.isEmpty) {
                let existing = FileManager.default.fileExists(atPath: mainExpected) ? try? PNGDecoder.decode(contentsOf: mainExpected) : nil
                if existing != actual {
                    try PNGEncoder.write(actual, to: mainExpected)
                    wrote = existing == nil ? "wrote expected.png" : "rewrote expected.png"
                }
                expectedFiles = c.expectedImages()
            }
            guard let best = try BestMatch.find(actual: actual, expectedFiles: expectedFiles, threshold: c.threshold) else {
                result.status = .failed
                result.message = unsupported + "no expected*.png in \(c.directory) (run with --update to write one from this render)"
                result.artifacts = try keep(index: index, c, expected: nil, actual: actual, diff: nil)
                result.seconds = Date().timeIntervalSince(start)
                return result
            }
            let cmp = best.comparison
            result.mismatched = cmp.mismatched
            result.pixels = cmp.pixels
            result.expectedFile = best.expectedFile
            let detail = String(format: "difference %.5f (%ld of %ld pixels) ", cmp.difference, cmp.mismatched, cmp.pixels)
                + (cmp.difference <= c.allowed ? "<=" : ">")
                + String(format: " allowed %.5f against ", c.allowed) + (best.expectedFile as NSString).lastPathComponent
            if let wrote {
                result.status = .updated
                result.message = wrote
            } else {
                result.status = cmp.difference <= c.allowed && unsupported.isEmpty ? .passed : .failed
                result.message = unsupported + detail + notes
            }
            if !result.isPass || keepsPassingImages {
                result.artifacts = try keep(index: index, c, expected: best.expectedFile, actual: actual, diff: cmp.diff)
            }
        } catch {
            result.status = .error
            result.message = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// Writes a case's images under the artifacts folder.
    private func keep(index: Int, _ c: RenderTestCase, expected: String?, actual: StraightImage, diff: StraightImage?) throws -> RenderTestResult.Artifacts? {
        guard let root = artifactsDirectory else { return nil }
        let rel = "cases/" + Self.folderName(index: index, name: c.name)
        let dir = (root as NSString).appendingPathComponent(rel)
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(path: dir, message: "cannot create the folder: \(error.localizedDescription)")
        }
        var a = RenderTestResult.Artifacts()
        if let expected {
            guard let bytes = FileManager.default.contents(atPath: expected) else {
                throw IOFailure(path: expected, message: "cannot read the file")
            }
            try AtomicFileWriter.write([UInt8](bytes), to: (dir as NSString).appendingPathComponent("expected.png"))
            a.expected = rel + "/expected.png"
        }
        try PNGEncoder.write(actual, to: (dir as NSString).appendingPathComponent("actual.png"))
        a.actual = rel + "/actual.png"
        if let diff {
            try PNGEncoder.write(diff, to: (dir as NSString).appendingPathComponent("diff.png"))
            a.diff = rel + "/diff.png"
        }
        return a
    }

    /// A file-system- and URL-safe folder name for case `index` (letters, digits, `-`, `_`, `.`).
    static func folderName(index: Int, name: String) -> String {
        let safe = String(name.unicodeScalars.map { s -> Character in
            let c = Character(s)
            return (s.isASCII && (c.isLetter || c.isNumber)) || c == "-" || c == "_" || c == "." ? c : "_"
        })
        return String(format: "%04ld-", index) + safe
    }
}

/// Work queue and results shared by the worker threads (every access under the lock).
private final class SharedState: @unchecked Sendable {
    private let lock = NSLock()
    private let progressLock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private var slots: [RenderTestResult?]

    init(count: Int) {
        self.count = count
        slots = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    /// Stores a result and returns how many are done; holds the progress lock until
    /// `unlockProgress()`, so progress callbacks never overlap.
    func store(_ result: RenderTestResult, at index: Int) -> Int {
        progressLock.lock()
        lock.lock(); defer { lock.unlock() }
        slots[index] = result
        done += 1
        return done
    }

    func unlockProgress() { progressLock.unlock() }

    func results() -> [RenderTestResult] {
        lock.lock(); defer { lock.unlock() }
        return slots.map { $0! }
    }
}
