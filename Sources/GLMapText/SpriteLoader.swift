// SpriteLoader — contract
// Input: the style's `sprite` value (a URL string, or an array of {id, url}), the pixel ratio, and
// a fetch closure (URL → bytes; nil = not found).
// Output: every sprite image with its metadata (`StyleImage`), ids prefixed `ID:` except for the
// sprite `default` (a plain string sprite is `default`), in JavaScript key order per sprite, and
// one `SpriteError` warning per sprite that could not be used.
// Rules: GL JS's loadSprite — `@2x` JSON and PNG when the pixel ratio is above 1 (`url + "@2x" +
// ".json"`, before any query string), falling back to the 1× files when the @2x ones are not
// found; an array's duplicate {id, url} pairs are loaded once. Images are read through a
// browser-canvas round trip (`StyleImage.canvasRoundTrip`) as GL JS reads them.
// Errors: JSON that is not an object of image objects, an entry whose width/height/x/y are not
// non-negative integers, a metadata value of the wrong type, a PNG that cannot be decoded, or an
// image rectangle outside the PNG each cost the whole sprite (its other images too), with a
// warning naming the JSON path or image; other sprites are unaffected.
import GLMapCore
import GLMapPNG

/// One entry of a style's `sprite`.
public struct SpriteReference: Equatable, Sendable {
    /// The sprite id (`default` for a plain string).
    public var id: String
    /// The base URL (without `.json`/`.png`).
    public var url: String
    /// A reference.
    public init(id: String, url: String) { self.id = id; self.url = url }
}

/// What loading the sprites gave: images in load order and the sprites that failed.
public struct SpriteLoadResult: Sendable {
    /// `(image id, image)` in load order (sprites in style order, images in JavaScript key order).
    public var images: [(id: String, image: StyleImage)] = []
    /// One warning per sprite that could not be used.
    public var warnings: [SpriteError] = []
    /// An empty result.
    public init() {}
}

/// Loads and parses sprites (see the contract above).
public enum SpriteLoader {
    /// The style's `sprite` value as references (GL JS's `coerceSpriteToArray`): a string is the
    /// sprite `default`; an array's entries are `{id, url}` objects, duplicates dropped. Entries
    /// without a string `id` and `url` are left out.
    public static func references(_ sprite: JSONValue?) -> [SpriteReference] {
        switch sprite {
        case .string(let url)?: return [SpriteReference(id: "default", url: url)]
        case .array(let items)?:
            var out: [SpriteReference] = []
            var seen = Set<String>()
            for item in items {
                guard let o = item.objectValue, let id = o["id"]?.stringValue, let url = o["url"]?.stringValue else { continue }
                if seen.insert(id + "\u{0}" + url).inserted { out.append(SpriteReference(id: id, url: url)) }
            }
            return out
        default: return []
        }
    }

    /// `base` with `suffix` (`@2x` or empty) and `ext` (`.json`, `.png`) added to its path,
    /// before any query string (GL JS's `normalizeSpriteURL`).
    public static func fileURL(_ base: String, suffix: String, ext: String) -> String {
        if let q = base.firstIndex(of: "?") {
            return String(base[..<q]) + suffix + ext + String(base[q...])
        }
        return base + suffix + ext
    }

    /// Loads every sprite of `references` at `pixelRatio` through `fetch`.
    public static func load(_ references: [SpriteReference], pixelRatio: Double, fetch: ResourceFetch) -> SpriteLoadResult {
        var result = SpriteLoadResult()
        for ref in references {
            do {
                let images = try loadOne(ref, pixelRatio: pixelRatio, fetch: fetch)
                for (name, image) in images {
                    result.images.append((ref.id == "default" ? name : "\(ref.id):\(name)", image))
                }
            } catch let error as SpriteError {
                result.warnings.append(error)
            } catch {
                result.warnings.append(SpriteError(spriteID: ref.id, url: ref.url, message: "\(error)"))
            }
        }
        return result
    }

    private static func loadOne(_ ref: SpriteReference, pixelRatio: Double, fetch: ResourceFetch) throws -> [(String, StyleImage)] {
        func get(_ url: String) throws -> [UInt8]? {
            do { return try fetch(url) } catch { throw SpriteError(spriteID: ref.id, url: url, message: "could not be loaded: \(error)") }
        }
        var suffix = pixelRatio > 1 ? "@2x" : ""
        var jsonURL = fileURL(ref.url, suffix: suffix, ext: ".json")
        var pngURL = fileURL(ref.url, suffix: suffix, ext: ".png")
        var json = try get(jsonURL)
        var png = json == nil ? nil : try get(pngURL)
        if (json == nil || png == nil) && !suffix.isEmpty {
            suffix = ""
            jsonURL = fileURL(ref.url, suffix: suffix, ext: ".json")
            pngURL = fileURL(ref.url, suffix: suffix, ext: ".png")
            json = try get(jsonURL)
            png = json == nil ? nil : try get(pngURL)
        }
        guard let json else { throw SpriteError(spriteID: ref.id, url: jsonURL, message: "not found") }
        guard let png else { throw SpriteError(spriteID: ref.id, url: pngURL, message: "not found") }
        return try parse(spriteID: ref.id, json: json, jsonURL: jsonURL, png: png, pngURL: pngURL)
    }

    /// The images of one sprite from its JSON and PNG bytes.
    public static func parse(spriteID: String, json: [UInt8], jsonURL: String? = nil, png: [UInt8], pngURL: String? = nil) throws -> [(String, StyleImage)] {
        let doc: JSONValue
        do { doc = try JSONParser.parse(json) } catch {
            throw SpriteError(spriteID: spriteID, url: jsonURL, message: "not JSON: \(error)")
        }
        guard let object = doc.objectValue else {
            throw SpriteError(spriteID: spriteID, url: jsonURL, message: "expected a JSON object of images, found \(doc.kindName)")
        }
        let sheet: StraightImage
        do { sheet = try PNGDecoder.decode(png) } catch {
            throw SpriteError(spriteID: spriteID, url: pngURL, message: "not a PNG glmap can decode: \(error)")
        }
        let canvas = StyleImage.canvasRoundTrip(sheet)
        var out: [(String, StyleImage)] = []
        for name in JSKeyOrder.ordered(object.keys) {
            guard let entry = object[name]?.objectValue else {
                throw SpriteError(spriteID: spriteID, url: jsonURL, message: "\(name): expected an object")
            }
            func fail(_ message: String) -> SpriteError { SpriteError(spriteID: spriteID, url: jsonURL, message: "\(name).\(message)") }
            func integer(_ key: String) throws -> Int {
                guard let n = entry[key]?.numberValue, n >= 0, n == n.rounded(), n < 16_777_216 else {
                    throw fail("\(key): expected a non-negative integer")
                }
                return Int(n)
            }
            let x = try integer("x"), y = try integer("y"), w = try integer("width"), h = try integer("height")
            guard x + w <= sheet.width, y + h <= sheet.height else {
                throw SpriteError(spriteID: spriteID, url: pngURL,
                                  message: "image \"\(name)\" (\(w)×\(h) at \(x),\(y)) lies outside the \(sheet.width)×\(sheet.height) PNG: the JSON and PNG do not match")
            }
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            for row in 0..<h {
                let src = ((y + row) * sheet.width + x) * 4
                pixels.replaceSubrange(row * w * 4..<(row + 1) * w * 4, with: canvas.pixels[src..<src + w * 4])
            }
            var image = StyleImage(data: StraightImage(width: w, height: h, pixels: pixels))
            if let v = entry["pixelRatio"], !v.isNull {
                guard let r = v.numberValue, r > 0, r.isFinite else { throw fail("pixelRatio: expected a positive number") }
                image.pixelRatio = r
            }
            if let v = entry["sdf"], !v.isNull {
                guard let b = v.boolValue else { throw fail("sdf: expected a boolean") }
                image.sdf = b
            }
            image.stretchX = try zones(entry["stretchX"], fail: { fail("stretchX: \($0)") })
            image.stretchY = try zones(entry["stretchY"], fail: { fail("stretchY: \($0)") })
            if let v = entry["content"], !v.isNull {
                guard let a = v.arrayValue, a.count == 4, let c = Optional(a.compactMap(\.numberValue)), c.count == 4 else {
                    throw fail("content: expected [left, top, right, bottom]")
                }
                image.content = (c[0], c[1], c[2], c[3])
            }
            for (key, path) in [("textFitWidth", \StyleImage.textFitWidth), ("textFitHeight", \StyleImage.textFitHeight)] {
                guard let v = entry[key], !v.isNull else { continue }
                guard let s = v.stringValue, let fit = TextFit(rawValue: s) else {
                    throw fail("\(key): expected \"stretchOrShrink\", \"stretchOnly\" or \"proportional\"")
                }
                image[keyPath: path] = fit
            }
            out.append((name, image))
        }
        return out
    }

    static func zones(_ value: JSONValue?, fail: (String) -> SpriteError) throws -> [(Double, Double)]? {
        guard let value, !value.isNull else { return nil }
        guard let items = value.arrayValue else { throw fail("expected an array of [start, end] pairs") }
        return try items.map { item in
            guard let pair = item.arrayValue, pair.count == 2, let a = pair[0].numberValue, let b = pair[1].numberValue else {
                throw fail("expected an array of [start, end] pairs")
            }
            return (a, b)
        }
    }
}
