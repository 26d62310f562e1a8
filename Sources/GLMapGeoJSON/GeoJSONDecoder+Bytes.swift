import GLMapCore

// ASCII bytes the decoder looks for.
private let quote = UInt8(ascii: "\"")
private let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
private let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), minus = UInt8(ascii: "-")

/// The members of a GeoJSON object that the decoder reads; everything else is `.other`.
private enum Member {
    case type, coordinates, geometries, geometry, features, properties, id, other

    /// Recognises a key from its raw bytes (no escapes).
    static func named(_ p: UnsafePointer<UInt8>, _ n: Int) -> Member {
        @inline(__always) func eq(_ s: StaticString) -> Bool {
            let q = s.utf8Start
            for i in 0..<n where p[i] != q[i] { return false }
            return true
        }
        switch n {
        case 2: return eq("id") ? .id : .other
        case 4: return eq("type") ? .type : .other
        case 8: return eq("features") ? .features : eq("geometry") ? .geometry : .other
        case 10: return eq("geometries") ? .geometries : eq("properties") ? .properties : .other
        case 11: return eq("coordinates") ? .coordinates : .other
        default: return .other
        }
    }

    static func named(_ s: String) -> Member {
        var s = s
        return s.withUTF8 { buf in buf.baseAddress.map { named($0, buf.count) } ?? .other }
    }
}

/// Coordinates decoded by their nesting depth, before (or without) knowing the geometry type.
enum GeoJSONCoordinates {
    case one(Position)
    case two([Position])
    case three([[Position]])
    case four([[[Position]]])

    /// The geometry of `type` when the nesting depth fits it; nil otherwise.
    func geometry(as type: GeoJSONType) -> Geometry? {
        switch (self, type) {
        case (.one(let p), .point): return .point(p)
        case (.two(let l), .multiPoint): return .multiPoint(l)
        case (.two(let l), .lineString): return .lineString(l)
        case (.three(let r), .multiLineString): return .multiLineString(r)
        case (.three(let r), .polygon): return .polygon(r)
        case (.four(let p), .multiPolygon): return .multiPolygon(p)
        default: return nil
        }
    }
}

extension GeoJSONDecoder {
    typealias Failure = GeoJSONFailure

    /// The one-pass byte decoder. `p` holds the bytes, the cursor (`p.index`) and the nesting depth.
    /// Keys, numbers, positions and skipping are read here (the position fast path is in
    /// GeoJSONDecoder+Numbers.swift); strings with escapes, literals, properties and the wording
    /// of syntax errors come from `JSONByteParser`.
    struct ByteDecoder {
        var p: JSONByteParser
        let base: UnsafePointer<UInt8>
        let end: Int
        /// Exact powers of ten for the number fast paths.
        let powers = PowersOfTen.shared
        /// Reused storage for the positions of one array, copied out at its exact size.
        private var scratch: UnsafeMutablePointer<Position>
        private var scratchCapacity = 1024
        /// Positions decoded so far that count towards `maxPositionsPerSource` (members decoded
        /// before `type` that turn out foreign, or are decoded again, are taken back out).
        private(set) var positions = 0

        var limits: InputLimits { p.limits }

        /// Nil for an empty buffer (no base address). Call `release()` when done.
        init?(_ bytes: UnsafeBufferPointer<UInt8>, limits: InputLimits) {
            guard let base = bytes.baseAddress else { return nil }
            p = JSONByteParser(bytes, limits: limits)
            self.base = base
            end = bytes.count
            scratch = .allocate(capacity: scratchCapacity)
        }

        /// Frees the decoder's own buffers.
        func release() {
            scratch.deallocate()
        }

        // MARK: Document and objects

        mutating func decodeDocument() throws(Failure) -> FeatureCollection {
            skipWhitespace()
            let o = p.index
            guard o < end, base[o] == openBrace else { throw expected(GeoJSONMessage.notAnObject, at: o) }
            let object = try decodeObject(.any)
            skipWhitespace()
            if p.index < end { throw syntaxError("expected end of input after the JSON value", at: p.index) }
            return object.asCollection
        }

        /// Decodes a GeoJSON object starting at its `{`, accepting only what `expect` allows.
        ///
        /// Members whose meaning depends on `type` and that come before it are decoded with the
        /// only reading they can have in a valid document (`features` of a FeatureCollection,
        /// `geometry` of a Feature, `geometries` of a GeometryCollection; `coordinates` by their
        /// bracket depth). A structural failure there is kept and reported only if `type` then
        /// says the member is not a foreign one; coordinates of the wrong depth are decoded again
        /// (they hold no objects, so this is linear).
        mutating func decodeObject(_ expect: GeoJSONExpectation) throws(Failure) -> GeoJSONObject {
            let start = p.index, depth = p.depth, positionsBefore = positions
            do throws(GeoJSONFailure) {
                return try decodeObjectInOnePass(expect)
            } catch {
                // One pass reads members in order, so a repeated `type` (the first one invalid, or
                // another type whose members don't fit) fails it. JSON.parse keeps the last of
                // repeated members (so MapLibre does, and so does the tree decoder for inline data):
                // such an object is decoded again from its parsed tree; if that fails too, the
                // one-pass error stands. Only failing objects pay for the check.
                guard !error.isSyntax, typeMemberCount(objectAt: start) > 1 else { throw error }
                p.index = start
                p.depth = depth
                positions = positionsBefore
                guard let json = try? parserValue(), case .object(let o) = json else { throw error }
                let tree = TreeDecoder(limits: limits, positions: positionsBefore)
                guard let object = try? tree.decodeObject(o, expect, depth: depth + 1) else { throw error }
                positions = tree.positions
                return object
            }
        }

        /// How many `type` members the object at `start` has (its other members are skipped).
        private mutating func typeMemberCount(objectAt start: Int) -> Int {
            let index = p.index, depth = p.depth
            defer { p.index = index; p.depth = depth }
            p.index = start + 1
            var count = 0
            do throws(GeoJSONFailure) {
                while true {
                    skipWhitespace()
                    guard p.index < end, base[p.index] == quote else { return count }
                    if try readKey() == .type { count += 1 }
                    skipWhitespace()
                    guard p.index < end, base[p.index] == colon else { return count }
                    p.index += 1
                    skipWhitespace()
                    try skipValue()
                    skipWhitespace()
                    guard p.index < end, base[p.index] == comma else { return count }
                    p.index += 1
                }
            } catch {
                return count
            }
        }

        /// The single pass of `decodeObject`: every member through its handler (`readMember`),
        /// then the object its `type` says (`finish`).
        private mutating func decodeObjectInOnePass(_ expect: GeoJSONExpectation) throws(Failure) -> GeoJSONObject {
            let start = p.index
            try enter(at: start)
            p.index = start + 1
            let memberDepth = p.depth
            var members = ObjectMembers()
            skipWhitespace()
            if p.index < end && base[p.index] == closeBrace {
                p.index += 1
                p.depth -= 1
            } else {
                while true {
                    try readMemberEntry(expect, memberDepth: memberDepth, into: &members)
                    skipWhitespace()
                    guard p.index < end else { throw syntaxError("expected ',' or '}' in object", at: p.index) }
                    let b = base[p.index]
                    p.index += 1
                    if b == comma { continue }
                    if b == closeBrace { break }
                    throw syntaxError("expected ',' or '}' in object", at: p.index - 1)
                }
                p.depth -= 1
            }
            guard let t = members.type else { throw Failure(GeoJSONMessage.missingType, at: start) }
            positions -= members.counted.foreign(to: t)
            return try finish(members, as: t, objectAt: start, memberDepth: memberDepth)
        }

        /// One `"key": value` of an object: the key, its handler, and the positions it added.
        private mutating func readMemberEntry(_ expect: GeoJSONExpectation, memberDepth: Int,
                                              into members: inout ObjectMembers) throws(Failure) {
            skipWhitespace()
            let keyAt = p.index
            guard keyAt < end, base[keyAt] == quote else { throw syntaxError("expected a string key", at: keyAt) }
            let member = try readKey()
            skipWhitespace()
            guard p.index < end, base[p.index] == colon else {
                throw syntaxError("expected ':' after object key", at: p.index)
            }
            p.index += 1
            skipWhitespace()
            positions -= members.counted.take(member)  // a repeated member replaces the earlier value
            let positionsBefore = positions
            do throws(GeoJSONFailure) {
                try readMember(member, expect, memberDepth: memberDepth, into: &members)
            } catch {
                throw error.inside(.key(memberName(member, keyAt: keyAt)))
            }
            members.counted.record(member, positions - positionsBefore)
        }

        /// The handler of each member, its value at the cursor.
        private mutating func readMember(_ member: Member, _ expect: GeoJSONExpectation, memberDepth: Int,
                                         into m: inout ObjectMembers) throws(Failure) {
            let at = p.index
            switch member {
            case .type:
                m.type = try readTypeMember(previous: m.type, expect)
            case .coordinates:
                try readCoordinatesMember(memberDepth: memberDepth, into: &m)
            case .geometry:
                if let g = try readOwnedMember(of: .feature, m.type, memberDepth: memberDepth, { (d: inout ByteDecoder) throws(Failure) in
                    try d.readFeatureGeometry()
                }) { m.geometry = g }
            case .geometries:
                if let g = try readOwnedMember(of: .geometryCollection, m.type, memberDepth: memberDepth, { (d: inout ByteDecoder) throws(Failure) in
                    try d.readGeometries()
                }) { m.geometries = g }
            case .features:
                if let f = try readOwnedMember(of: .featureCollection, m.type, memberDepth: memberDepth, { (d: inout ByteDecoder) throws(Failure) in
                    try d.readFeatures()
                }) { m.features = f }
            case .properties:
                if m.type == .feature || m.type == nil {
                    m.properties = try parserValue()
                    m.propertiesAt = at
                } else {
                    try skipValue()
                }
            case .id:
                if m.type == .feature || m.type == nil { m.id = try parserValue() } else { try skipValue() }
            case .other:
                try skipValue()
            }
        }

        /// `type`: a known name, the same as any earlier `type`, and one `expect` accepts.
        private mutating func readTypeMember(previous: GeoJSONType?, _ expect: GeoJSONExpectation) throws(Failure) -> GeoJSONType {
            let at = p.index
            let t = try readType()
            if let old = previous, old != t { throw Failure(GeoJSONMessage.conflictingType(old, t), at: at) }
            if !expect.accepts(t) { throw Failure(expect.mismatch(t), at: at) }
            return t
        }

        /// `coordinates`: at the depth `type` needs, or (type not known yet) at the depth its
        /// leading brackets show, speculatively; skipped when neither is possible.
        private mutating func readCoordinatesMember(memberDepth: Int, into m: inout ObjectMembers) throws(Failure) {
            let at = p.index
            m.coordinatesAt = at
            m.coordinates = nil
            if let t = m.type {
                if t.coordinateLevels > 0 {
                    m.coordinates = .value(try readCoordinates(levels: t.coordinateLevels))
                } else {
                    try skipValue()
                }
                return
            }
            m.guessedLevels = coordinateLevelsGuess()
            guard m.guessedLevels > 0 else { return try skipValue() }
            let levels = m.guessedLevels
            m.coordinates = try speculate(at: at, depth: memberDepth) { (d: inout ByteDecoder) throws(Failure) in
                try d.readCoordinates(levels: levels)
            }
        }

        /// A member that only objects of type `owner` have: read when `type` is `owner`, read
        /// speculatively while `type` is not known yet, skipped (nil) when `type` is another.
        private mutating func readOwnedMember<T>(of owner: GeoJSONType, _ type: GeoJSONType?, memberDepth: Int,
                                                 _ read: (inout ByteDecoder) throws(Failure) -> T) throws(Failure) -> Speculation<T>? {
            if type == owner { return .value(try read(&self)) }
            if type == nil { return try speculate(at: p.index, depth: memberDepth, read) }
            try skipValue()
            return nil
        }

        /// The object of type `t` from its members (they are all read).
        private mutating func finish(_ m: ObjectMembers, as t: GeoJSONType, objectAt start: Int,
                                     memberDepth: Int) throws(Failure) -> GeoJSONObject {
            switch t {
            case .featureCollection:
                return .collection(try m.features.required("features", in: t, objectAt: start))
            case .feature:
                let g = try m.geometry.required("geometry", in: t, objectAt: start)
                var props = JSONObject()
                switch m.properties {
                case .object(let o)?: props = o
                case .null?, nil: break
                case let other?:
                    throw Failure("\(GeoJSONMessage.properties), found \(describeKind(other))", at: m.propertiesAt)
                        .inside(.key("properties"))
                }
                return .feature(Feature(id: featureID(m.id), properties: props, geometry: g))
            case .geometryCollection:
                return .geometry(.geometryCollection(try m.geometries.required("geometries", in: t, objectAt: start)))
            case .point, .multiPoint, .lineString, .multiLineString, .polygon, .multiPolygon:
                return .geometry(try finishCoordinates(m, as: t, objectAt: start, memberDepth: memberDepth))
            }
        }

        /// The geometry of type `t` from `coordinates`: as read, or (read before `type` with another
        /// depth than `t` needs, or not guessable, e.g. `[]`) decoded again as `t`, which gives its
        /// geometry or the precise error.
        private mutating func finishCoordinates(_ m: ObjectMembers, as t: GeoJSONType, objectAt start: Int,
                                                memberDepth: Int) throws(Failure) -> Geometry {
            switch m.coordinates {
            case .value(let c)?:
                if let g = c.geometry(as: t) { return g }
            case .failed(let e)?:
                if m.guessedLevels == t.coordinateLevels { throw e.inside(.key("coordinates")) }
            case nil:
                guard m.coordinatesAt >= 0 else { throw Failure(GeoJSONMessage.missing("coordinates", in: t), at: start) }
            }
            let (index, savedDepth) = (p.index, p.depth)
            p.index = m.coordinatesAt
            p.depth = memberDepth
            positions -= m.counted.coordinates
            defer { p.index = index; p.depth = savedDepth }
            let c: GeoJSONCoordinates
            do throws(GeoJSONFailure) {
                c = try readCoordinates(levels: t.coordinateLevels)
            } catch {
                throw error.inside(.key("coordinates"))
            }
            guard let g = c.geometry(as: t) else {
                throw Failure(GeoJSONMessage.coordinateArray(levels: t.coordinateLevels), at: m.coordinatesAt)
                    .inside(.key("coordinates"))
            }
            return g
        }

        /// A member decoded before `type` was known: its value, or the structural failure to
        /// report if `type` shows the member is not a foreign one.
        enum Speculation<T> {
            case value(T)
            case failed(Failure)
        }

        /// Decodes `body` at the cursor. On a structural failure, skips the value and keeps the
        /// failure; errors in the JSON text itself are thrown at once.
        private mutating func speculate<T>(at: Int, depth: Int,
                                           _ body: (inout ByteDecoder) throws(Failure) -> T) throws(Failure) -> Speculation<T> {
            let positionsBefore = positions
            do throws(GeoJSONFailure) {
                return .value(try body(&self))
            } catch {
                if error.isSyntax { throw error }
                positions = positionsBefore
                p.index = at
                p.depth = depth
                try skipValue()
                return .failed(error)
            }
        }

        /// A Feature's `geometry`: null or a geometry object.
        mutating func readFeatureGeometry() throws(Failure) -> Geometry? {
            skipWhitespace()
            let o = p.index
            if o < end && base[o] == openBrace {
                guard case .geometry(let g) = try decodeObject(.geometry) else {
                    throw expected(GeoJSONMessage.geometryOrNull, at: o)
                }
                return g
            }
            if o < end && base[o] == UInt8(ascii: "n") {
                _ = try parserValue()  // checks the literal is exactly `null`
                return nil
            }
            throw expected(GeoJSONMessage.geometryOrNull, at: o)
        }

        /// A FeatureCollection's `features`.
        mutating func readFeatures() throws(Failure) -> [Feature] {
            try readElements(GeoJSONMessage.features) { (d: inout ByteDecoder, k: Int) throws(Failure) in
                d.skipWhitespace()
                let o = d.p.index
                if k >= d.limits.maxFeaturesPerSource { throw Failure(d.limits.featuresMessage, at: o) }
                guard o < d.end, d.base[o] == openBrace else { throw d.expected(GeoJSONMessage.featureObject, at: o) }
                guard case .feature(let f) = try d.decodeObject(.feature) else {
                    throw d.expected(GeoJSONMessage.featureObject, at: o)
                }
                return f
            }
        }

        /// A GeometryCollection's `geometries`.
        mutating func readGeometries() throws(Failure) -> [Geometry] {
            try readElements(GeoJSONMessage.geometries) { (d: inout ByteDecoder, _: Int) throws(Failure) in
                d.skipWhitespace()
                let o = d.p.index
                guard o < d.end, d.base[o] == openBrace else { throw d.expected(GeoJSONMessage.geometryObject, at: o) }
                guard case .geometry(let g) = try d.decodeObject(.geometry) else {
                    throw d.expected(GeoJSONMessage.geometryObject, at: o)
                }
                return g
            }
        }

        /// The elements of the array at the cursor, each through `element` (which gets its
        /// index); a failure is located at that index. No array there: `expectation`, found ….
        @inline(__always)
        private mutating func readElements<T>(_ expectation: String,
                                              _ element: (inout ByteDecoder, Int) throws(Failure) -> T) throws(Failure) -> [T] {
            try enterArray(expectation)
            var out: [T] = []
            if closeIfEmpty() { return out }
            var k = 0
            repeat {
                do throws(GeoJSONFailure) { out.append(try element(&self, k)) } catch { throw error.inside(.index(k)) }
                k += 1
            } while try nextElement()
            return out
        }

        // MARK: Keys and type

        /// Reads an object key at its opening quote.
        private mutating func readKey() throws(Failure) -> Member {
            let start = p.index + 1
            let (stop, closed) = JSONStringLexer.scan(base, from: start, end: end)
            if closed {
                try checkStringLength(from: start, to: stop)
                p.index = stop + 1
                return Member.named(base + start, stop - start)
            }
            return Member.named(try parserString())  // escapes, or the parser's error
        }

        /// The key text of a member, for error paths.
        private func memberName(_ member: Member, keyAt: Int) -> String {
            switch member {
            case .type: return "type"
            case .coordinates: return "coordinates"
            case .geometries: return "geometries"
            case .geometry: return "geometry"
            case .features: return "features"
            case .properties: return "properties"
            case .id: return "id"
            case .other:
                var q = p
                q.index = keyAt
                return (try? q.parseString()) ?? "?"
            }
        }

        /// Reads the value of `type`.
        private mutating func readType() throws(Failure) -> GeoJSONType {
            let o = p.index
            guard o < end, base[o] == quote else { throw expected(GeoJSONMessage.typeNotString, at: o) }
            let (stop, closed) = JSONStringLexer.scan(base, from: o + 1, end: end)
            if closed {
                try checkStringLength(from: o + 1, to: stop)
                p.index = stop + 1
                let text = UnsafeBufferPointer(start: base + o + 1, count: stop - o - 1)
                if let t = GeoJSONType.named(text) { return t }
                throw Failure(GeoJSONMessage.unknownType(String(decoding: text, as: UTF8.self)), at: o)
            }
            let name = try parserString()
            if let t = GeoJSONType.named(name) { return t }
            throw Failure(GeoJSONMessage.unknownType(name), at: o)
        }

        // MARK: Coordinates

        /// Coordinates of a known nesting depth (1: a position … 4: polygons).
        mutating func readCoordinates(levels: Int) throws(Failure) -> GeoJSONCoordinates {
            switch levels {
            case 1:
                skipWhitespace()
                if positions >= limits.maxPositionsPerSource { throw Failure(limits.positionsMessage, at: p.index) }
                let position = try readPosition()
                positions += 1
                return .one(position)
            case 2: return .two(try readPositions())
            case 3: return .three(try readPositionArrays())
            default: return .four(try readPolygons())
            }
        }

        /// The nesting depth of the coordinates at the cursor read off their leading brackets
        /// (1: a position … 4: polygons), or 0 when that is not possible (empty arrays, too deep,
        /// not an array, no number inside).
        func coordinateLevelsGuess() -> Int {
            var i = p.index
            var levels = 0
            while i < end {
                let b = base[i]
                if b == openBracket { levels += 1 } else if !isWhitespace(b) { break }
                i += 1
            }
            guard levels <= 4, i < end, isNumberStart(base[i]) else { return 0 }
            return levels
        }

        /// `[lon, lat, …]`: at least two numbers; the first two are kept.
        @inline(__always)
        mutating func readPosition() throws(Failure) -> Position {
            skipWhitespace()
            let o = p.index
            guard o < end, base[o] == openBracket else { throw expected(GeoJSONMessage.position, at: o) }
            try enter(at: o)
            p.index = o + 1
            // Fast path: `number,number]` with no whitespace, the common case.
            let lon: Double?
            do throws(GeoJSONFailure) { lon = try tryNumber() } catch { throw error.inside(.index(0)) }
            if let lon = lon, p.index < end, base[p.index] == comma {
                p.index += 1
                let lat: Double?
                do throws(GeoJSONFailure) { lat = try tryNumber() } catch { throw error.inside(.index(1)) }
                if let lat = lat, p.index < end, base[p.index] == closeBracket {
                    p.index += 1
                    p.depth -= 1
                    return Position(lon, lat)
                }
            }
            p.index = o + 1
            return try readPositionSlowly(at: o)
        }

        /// The general position grammar (whitespace, extra coordinates, errors).
        private mutating func readPositionSlowly(at o: Int) throws(Failure) -> Position {
            var lon = 0.0, lat = 0.0
            var count = 0
            if !closeIfEmpty() {
                repeat {
                    skipWhitespace()
                    let v: Double
                    do throws(GeoJSONFailure) {
                        let at = p.index
                        guard at < end, isNumberStart(base[at]) else { throw expected(GeoJSONMessage.number, at: at) }
                        v = try readNumber()
                    } catch {
                        throw error.inside(.index(count))
                    }
                    if count == 0 { lon = v } else if count == 1 { lat = v }
                    count += 1
                } while try nextElement()
            }
            if count < 2 { throw Failure(GeoJSONMessage.shortPosition(count), at: o) }
            return Position(lon, lat)
        }

        /// A number at the cursor if one starts there (cursor after it), else nil (cursor unmoved).
        @inline(__always)
        private mutating func tryNumber() throws(Failure) -> Double? {
            guard p.index < end, isNumberStart(base[p.index]) else { return nil }
            return try readNumber()
        }

        /// `[[lon, lat], …]`. Runs of `[number, number]` positions with plain decimal numbers of up
        /// to 15 digits are read by `fastPositions`; anything else (exponents, long numbers,
        /// altitude, the last bytes of the input, errors) goes through `readPosition`.
        mutating func readPositions() throws(Failure) -> [Position] {
            try enterArray(GeoJSONMessage.coordinateArray(levels: 2))
            if closeIfEmpty() { return [] }
            let fastDepthOK = p.depth < p.maxDepth  // room for the positions' own brackets
            let base = self.base, end = self.end, powers = self.powers
            let budget = limits.maxPositionsPerSource - positions  // positions this array may add
            var count = 0
            var i = p.index
            while true {
                // `i` is at the start of an element.
                var afterElement = false
                if fastDepthOK {
                    let room = min(scratchCapacity, budget) - count
                    let run = fastPositions(base, end, &i, powers, scratch + count, max(0, room))
                    count += run.count
                    afterElement = run.afterElement
                }
                if !afterElement {
                    if count >= budget {
                        skipSpace(base, end, &i)
                        throw Failure(limits.positionsMessage, at: i).inside(.index(count))
                    }
                    if count == scratchCapacity {
                        growScratch()
                        if fastDepthOK { continue }
                    }
                    p.index = i
                    scratch[count] = try readPositionElement(count)
                    i = p.index
                    count += 1
                }
                // `i` is right after an element.
                if i < end && base[i] <= 0x20 { skipSpace(base, end, &i) }
                if i < end && base[i] == comma { i &+= 1; continue }
                if i < end && base[i] == closeBracket { i &+= 1; break }
                p.index = i
                _ = try nextElement()  // throws the syntax error
            }
            p.index = i
            p.depth -= 1
            positions += count
            let scratch = self.scratch
            return [Position](unsafeUninitializedCapacity: count) { buffer, initialized in
                buffer.baseAddress!.initialize(from: scratch, count: count)
                initialized = count
            }
        }

        /// Element `index` of a position array, through the general path.
        @inline(never)
        private mutating func readPositionElement(_ index: Int) throws(Failure) -> Position {
            do throws(GeoJSONFailure) { return try readPosition() } catch { throw error.inside(.index(index)) }
        }

        private mutating func growScratch() {
            let bigger = UnsafeMutablePointer<Position>.allocate(capacity: scratchCapacity * 2)
            bigger.initialize(from: scratch, count: scratchCapacity)
            scratch.deallocate()
            scratch = bigger
            scratchCapacity *= 2
        }

        mutating func readPositionArrays() throws(Failure) -> [[Position]] {
            try readElements(GeoJSONMessage.coordinateArray(levels: 3)) { (d: inout ByteDecoder, _: Int) throws(Failure) in
                try d.readPositions()
            }
        }

        mutating func readPolygons() throws(Failure) -> [[[Position]]] {
            try readElements(GeoJSONMessage.coordinateArray(levels: 4)) { (d: inout ByteDecoder, _: Int) throws(Failure) in
                try d.readPositionArrays()
            }
        }

        // MARK: Numbers

        /// Reads a JSON number at the cursor (which holds '-' or a digit) with `JSONNumberLexer`;
        /// its failures are worded as `JSONByteParser` words them.
        @inline(__always)
        mutating func readNumber() throws(Failure) -> Double {
            let start = p.index
            guard let (value, stop) = JSONNumberLexer.read(base, from: start, end: end, powers) else {
                throw Failure(p.numberError(at: start))
            }
            p.index = stop
            return value
        }

        // MARK: Scanning

        @inline(__always)
        private func isWhitespace(_ b: UInt8) -> Bool {
            b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
        }

        @inline(__always)
        private func isNumberStart(_ b: UInt8) -> Bool { b == minus || b &- 0x30 < 10 }

        @inline(__always)
        mutating func skipWhitespace() {
            var i = p.index
            while i < end {
                let b = base[i]
                if b > 0x20 || !isWhitespace(b) { break }
                i += 1
            }
            p.index = i
        }

        @inline(__always)
        private mutating func enter(at o: Int) throws(Failure) {
            p.depth += 1
            if p.depth > p.maxDepth { throw Failure(p.plainError(limits.nestingMessage, at: o)) }
        }

        /// Consumes `[` (after whitespace) or fails with `expectation`, found ….
        @inline(__always)
        private mutating func enterArray(_ expectation: String) throws(Failure) {
            skipWhitespace()
            let o = p.index
            guard o < end, base[o] == openBracket else { throw expected(expectation, at: o) }
            try enter(at: o)
            p.index = o + 1
        }

        /// Right after `[`: consumes `]` and returns true when the array is empty.
        @inline(__always)
        private mutating func closeIfEmpty() -> Bool {
            skipWhitespace()
            if p.index < end && base[p.index] == closeBracket {
                p.index += 1
                p.depth -= 1
                return true
            }
            return false
        }

        /// After an array element: true after `,`, false after the closing `]`.
        @inline(__always)
        private mutating func nextElement() throws(Failure) -> Bool {
            skipWhitespace()
            let i = p.index
            if i < end {
                let b = base[i]
                if b == comma { p.index = i + 1; return true }
                if b == closeBracket { p.index = i + 1; p.depth -= 1; return false }
            }
            throw syntaxError("expected ',' or ']' in array", at: i)
        }

        /// Skips one JSON value, checking its syntax, without building it.
        mutating func skipValue() throws(Failure) {
            skipWhitespace()
            let o = p.index
            guard o < end else { throw syntaxError("expected a JSON value", at: o) }
            switch base[o] {
            case openBrace:
                try enter(at: o)
                p.index = o + 1
                skipWhitespace()
                if p.index < end && base[p.index] == closeBrace {
                    p.index += 1
                    p.depth -= 1
                    return
                }
                while true {
                    skipWhitespace()
                    guard p.index < end, base[p.index] == quote else { throw syntaxError("expected a string key", at: p.index) }
                    try skipString()
                    skipWhitespace()
                    guard p.index < end, base[p.index] == colon else {
                        throw syntaxError("expected ':' after object key", at: p.index)
                    }
                    p.index += 1
                    try skipValue()
                    skipWhitespace()
                    guard p.index < end else { throw syntaxError("expected ',' or '}' in object", at: p.index) }
                    let b = base[p.index]
                    if b == comma { p.index += 1; continue }
                    if b == closeBrace { p.index += 1; p.depth -= 1; return }
                    throw syntaxError("expected ',' or '}' in object", at: p.index)
                }
            case openBracket:
                try enter(at: o)
                p.index = o + 1
                if closeIfEmpty() { return }
                repeat { try skipValue() } while try nextElement()
            case quote:
                try skipString()
            case minus, UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try readNumber()
            default:
                _ = try parserValue()  // true, false, null, or the parser's error
            }
        }

        /// Fails when the string whose text spans `start..<stop` (after its opening quote) is
        /// longer than `maxStringBytes`, as `JSONByteParser.parseString` does.
        @inline(__always)
        private func checkStringLength(from start: Int, to stop: Int) throws(Failure) {
            if stop - start > limits.maxStringBytes { throw Failure(p.plainError(limits.stringMessage, at: start - 1)) }
        }

        /// Skips a string at its opening quote.
        private mutating func skipString() throws(Failure) {
            let (stop, closed) = JSONStringLexer.scan(base, from: p.index + 1, end: end)
            if closed { try checkStringLength(from: p.index + 1, to: stop); p.index = stop + 1; return }
            _ = try parserString()  // escapes are checked by the parser
        }

        // MARK: JSONByteParser bridges and errors

        /// A JSON value parsed by `JSONByteParser` (properties, ids, literals).
        mutating func parserValue() throws(Failure) -> JSONValue {
            do {
                return try p.parseValue()
            } catch let e as JSONSyntaxError {
                throw Failure(e)
            } catch {
                throw Failure("\(error)", at: p.index)
            }
        }

        /// A string parsed by `JSONByteParser` from its opening quote.
        private mutating func parserString() throws(Failure) -> String {
            do {
                return try p.parseString()
            } catch let e as JSONSyntaxError {
                throw Failure(e)
            } catch {
                throw Failure("\(error)", at: p.index)
            }
        }

        /// A JSON syntax error at `offset`, worded as `JSONByteParser` words them.
        private func syntaxError(_ message: String, at offset: Int) -> Failure {
            Failure(p.error(message, at: offset))
        }

        /// "expected …, found a string" for the value at `offset`.
        private func expected(_ expectation: String, at offset: Int) -> Failure {
            Failure("\(expectation), found \(found(at: offset))", at: offset)
        }

        /// What the value at `offset` is, in words.
        private func found(at offset: Int) -> String {
            guard offset < end else { return "end of input" }
            let b = base[offset]
            switch b {
            case openBrace: return "an object"
            case openBracket: return "an array"
            case quote: return "a string"
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
            case UInt8(ascii: "n"): return "null"
            case minus, UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
            default:
                return b >= 0x20 && b < 0x7F ? "'\(Character(UnicodeScalar(b)))'" : "byte 0x\(String(b, radix: 16))"
            }
        }

        /// The public error for a failure, with line:column resolved from the byte offset.
        func publicError(_ failure: Failure, file: String?) -> GeoJSONError {
            let (line, column) = failure.offset >= 0 ? p.location(of: failure.offset) : (failure.line, failure.column)
            return GeoJSONError(file: file, line: line, column: column, path: failure.pathText(prefix: ""),
                                message: failure.message)
        }
    }
}

/// What one object's members held, as its members are read (see `decodeObjectInOnePass`).
private struct ObjectMembers {
    typealias Speculation = GeoJSONDecoder.ByteDecoder.Speculation
    var type: GeoJSONType? = nil
    var coordinates: Speculation<GeoJSONCoordinates>? = nil
    /// Where the last `coordinates` value starts (-1: none), and the depth guessed for it.
    var coordinatesAt = -1, guessedLevels = 0
    var geometry: Speculation<Geometry?>? = nil
    var geometries: Speculation<[Geometry]>? = nil
    var features: Speculation<[Feature]>? = nil
    var properties: JSONValue? = nil, propertiesAt = -1
    var id: JSONValue? = nil
    /// Positions each geometry-bearing member added to the decoder's count.
    var counted = CountedPositions()
}

extension Optional {
    /// The value of the member `name` an object of `type` needs: its failure, or "missing" at the
    /// object's start when it was not given.
    fileprivate func required<T>(_ name: String, in type: GeoJSONType, objectAt start: Int) throws(GeoJSONFailure) -> T
    where Wrapped == GeoJSONDecoder.ByteDecoder.Speculation<T> {
        switch self {
        case .value(let v)?: return v
        case .failed(let e)?: throw e.inside(.key(name))
        case nil: throw GeoJSONFailure(GeoJSONMessage.missing(name, in: type), at: start)
        }
    }
}

/// How many positions each geometry-bearing member of one object added to the decoder's count,
/// so members that `type` shows to be foreign, or that are decoded again, can be taken back out.
private struct CountedPositions {
    var coordinates = 0, geometry = 0, geometries = 0, features = 0

    /// The positions counted for `member` so far, reset to 0 (it is being decoded again).
    mutating func take(_ member: Member) -> Int {
        let old = self[member]
        if old != 0 { self[member] = 0 }
        return old
    }

    /// Records the positions `member`'s value added.
    mutating func record(_ member: Member, _ added: Int) {
        if added != 0 { self[member] = added }
    }

    private subscript(member: Member) -> Int {
        get {
            switch member {
            case .coordinates: return coordinates
            case .geometry: return geometry
            case .geometries: return geometries
            case .features: return features
            case .type, .properties, .id, .other: return 0
            }
        }
        set {
            switch member {
            case .coordinates: coordinates = newValue
            case .geometry: geometry = newValue
            case .geometries: geometries = newValue
            case .features: features = newValue
            case .type, .properties, .id, .other: break
            }
        }
    }

    /// Positions of the members that an object of `type` does not use.
    func foreign(to type: GeoJSONType) -> Int {
        switch type {
        case .featureCollection: return coordinates + geometry + geometries
        case .feature: return coordinates + geometries + features
        case .geometryCollection: return coordinates + geometry + features
        case .point, .multiPoint, .lineString, .multiLineString, .polygon, .multiPolygon:
            return geometry + geometries + features
        }
    }
}
