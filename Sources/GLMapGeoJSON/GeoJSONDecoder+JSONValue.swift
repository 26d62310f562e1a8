import GLMapCore

extension GeoJSONDecoder {
    /// Decodes GeoJSON from a parsed `JSONValue` tree (a style's inline `data`). Same semantics
    /// and messages as the byte decoder; locations are JSON paths only.
    final class TreeDecoder {
        /// GeometryCollections may nest (a tree built in code could nest without bound); counts
        /// of features and positions are limited as in the byte decoder.
        let limits: InputLimits
        /// Positions decoded so far (counted against `maxPositionsPerSource`).
        private(set) var positions: Int

        init(limits: InputLimits, positions: Int = 0) {
            self.limits = limits
            self.positions = positions
        }

        func decodeDocument(_ json: JSONValue) throws(Failure) -> FeatureCollection {
            guard case .object(let o) = json else { throw expected(GeoJSONMessage.notAnObject, json) }
            return try decodeObject(o, .any, depth: 1).asCollection
        }

        func decodeObject(_ o: JSONObject, _ expect: GeoJSONExpectation, depth: Int) throws(Failure) -> GeoJSONObject {
            if depth > limits.maxNestingDepth { throw Failure(limits.nestingMessage, at: -1) }
            guard let typeValue = o["type"] else { throw Failure(GeoJSONMessage.missingType, at: -1) }
            guard case .string(let name) = typeValue else {
                throw expected(GeoJSONMessage.typeNotString, typeValue).inside(.key("type"))
            }
            guard let type = GeoJSONType.named(name) else {
                throw Failure(GeoJSONMessage.unknownType(name), at: -1).inside(.key("type"))
            }
            if !expect.accepts(type) { throw Failure(expect.mismatch(type), at: -1).inside(.key("type")) }

            switch type {
            case .featureCollection:
                guard let value = o["features"] else { throw Failure(GeoJSONMessage.missing("features", in: type), at: -1) }
                do throws(GeoJSONFailure) { return .collection(try features(value, depth: depth + 1)) } catch { throw error.inside(.key("features")) }
            case .feature:
                guard let value = o["geometry"] else { throw Failure(GeoJSONMessage.missing("geometry", in: type), at: -1) }
                let geometry: Geometry?
                switch value {
                case .null:
                    geometry = nil
                case .object(let g):
                    do throws(GeoJSONFailure) {
                        guard case .geometry(let decoded) = try decodeObject(g, .geometry, depth: depth + 1) else {
                            throw expected(GeoJSONMessage.geometryOrNull, value)
                        }
                        geometry = decoded
                    } catch {
                        throw error.inside(.key("geometry"))
                    }
                default:
                    throw expected(GeoJSONMessage.geometryOrNull, value).inside(.key("geometry"))
                }
                var properties = JSONObject()
                switch o["properties"] {
                case .object(let p)?: properties = p
                case .null?, nil: break
                case let other?: throw expected(GeoJSONMessage.properties, other).inside(.key("properties"))
                }
                return .feature(Feature(id: featureID(o["id"]), properties: properties, geometry: geometry))
            case .geometryCollection:
                guard let value = o["geometries"] else {
                    throw Failure(GeoJSONMessage.missing("geometries", in: type), at: -1)
                }
                do throws(GeoJSONFailure) {
                    return .geometry(.geometryCollection(try geometries(value, depth: depth + 1)))
                } catch {
                    throw error.inside(.key("geometries"))
                }
            case .point, .multiPoint, .lineString, .multiLineString, .polygon, .multiPolygon:
                guard let value = o["coordinates"] else {
                    throw Failure(GeoJSONMessage.missing("coordinates", in: type), at: -1)
                }
                do throws(GeoJSONFailure) {
                    return .geometry(try coordinates(value, type))
                } catch {
                    throw error.inside(.key("coordinates"))
                }
            }
        }

        private func features(_ value: JSONValue, depth: Int) throws(Failure) -> [Feature] {
            try elements(of: value, GeoJSONMessage.features) { (item, k) throws(Failure) in
                if k >= limits.maxFeaturesPerSource { throw Failure(limits.featuresMessage, at: -1) }
                guard case .object(let o) = item, case .feature(let f) = try decodeObject(o, .feature, depth: depth + 1) else {
                    throw expected(GeoJSONMessage.featureObject, item)
                }
                return f
            }
        }

        private func geometries(_ value: JSONValue, depth: Int) throws(Failure) -> [Geometry] {
            try elements(of: value, GeoJSONMessage.geometries) { (item, _) throws(Failure) in
                guard case .object(let o) = item, case .geometry(let g) = try decodeObject(o, .geometry, depth: depth + 1) else {
                    throw expected(GeoJSONMessage.geometryObject, item)
                }
                return g
            }
        }

        /// Each element of the array `value` through `element` (which gets its index); a failure
        /// is located at that index. Not an array: `expectation`, found ….
        private func elements<T>(of value: JSONValue, _ expectation: String,
                                 _ element: (JSONValue, Int) throws(Failure) -> T) throws(Failure) -> [T] {
            guard case .array(let items) = value else { throw expected(expectation, value) }
            var out: [T] = []
            out.reserveCapacity(items.count)
            for (k, item) in items.enumerated() {
                do throws(GeoJSONFailure) {
                    out.append(try element(item, k))
                } catch {
                    throw error.inside(.index(k))
                }
            }
            return out
        }

        private func coordinates(_ value: JSONValue, _ type: GeoJSONType) throws(Failure) -> Geometry {
            switch type {
            case .point: return .point(try position(value))
            case .multiPoint: return .multiPoint(try positions(value))
            case .lineString: return .lineString(try positions(value))
            case .multiLineString: return .multiLineString(try positionArrays(value))
            case .polygon: return .polygon(try positionArrays(value))
            case .multiPolygon: return .multiPolygon(try polygons(value))
            case .featureCollection, .feature, .geometryCollection:
                throw Failure("'\(type.name)' has no coordinates", at: -1)
            }
        }

        private func position(_ value: JSONValue) throws(Failure) -> Position {
            if positions >= limits.maxPositionsPerSource { throw Failure(limits.positionsMessage, at: -1) }
            positions += 1
            guard case .array(let items) = value else { throw expected(GeoJSONMessage.position, value) }
            for (k, item) in items.enumerated() {
                guard case .number(let n) = item else { throw expected(GeoJSONMessage.number, item).inside(.index(k)) }
                if !n.isFinite {
                    throw Failure(GeoJSONMessage.overflow(JSONValue.formatNumber(n)), at: -1).inside(.index(k))
                }
            }
            guard items.count >= 2, case .number(let lon) = items[0], case .number(let lat) = items[1] else {
                throw Failure(GeoJSONMessage.shortPosition(items.count), at: -1)
            }
            return Position(lon, lat)
        }

        private func positions(_ value: JSONValue) throws(Failure) -> [Position] {
            try elements(value, levels: 2) { (v) throws(Failure) in try position(v) }
        }

        private func positionArrays(_ value: JSONValue) throws(Failure) -> [[Position]] {
            try elements(value, levels: 3) { (v) throws(Failure) in try positions(v) }
        }

        private func polygons(_ value: JSONValue) throws(Failure) -> [[[Position]]] {
            try elements(value, levels: 4) { (v) throws(Failure) in try positionArrays(v) }
        }

        /// Maps the elements of a coordinate array of `levels` levels, adding indices to error paths.
        private func elements<T>(_ value: JSONValue, levels: Int,
                                 _ element: (JSONValue) throws(Failure) -> T) throws(Failure) -> [T] {
            guard case .array(let items) = value else { throw expected(GeoJSONMessage.coordinateArray(levels: levels), value) }
            var out: [T] = []
            out.reserveCapacity(items.count)
            for (k, item) in items.enumerated() {
                do throws(GeoJSONFailure) { out.append(try element(item)) } catch { throw error.inside(.index(k)) }
            }
            return out
        }

        private func expected(_ expectation: String, _ value: JSONValue) -> Failure {
            Failure("\(expectation), found \(describeKind(value))", at: -1)
        }
    }
}
