import Foundation
import GLMapCore

/// Runtime feature state (`setFeatureState`), read by the `feature-state` expression operator.
///
/// States are kept by source id, source layer (nil for GeoJSON sources) and feature id, as MapLibre
/// keeps them. Feature ids match as MapLibre matches them: an id that reads as a number no larger
/// than 2^53 − 1 matches that number whatever its spelling (`"1"`, `1`, `1.0`), any other id matches
/// its exact string. A GeoJSON feature's own `id` counts only when it reads as a number (GL JS keeps
/// the integer part, as its vector-tile wrapper does); a source's `promoteId` names the property
/// that serves as the id instead.
public struct FeatureStates: Sendable, Equatable {
    /// Source id → source layer ("" for none) → id key → state.
    private var states: [String: [String: [String: JSONObject]]] = [:]

    /// No state.
    public init() {}

    /// Whether no feature has state.
    public var isEmpty: Bool { states.values.allSatisfy { $0.values.allSatisfy(\.isEmpty) } }

    /// Merges `state` into a feature's state (keys set here replace earlier values, others stay).
    public mutating func set(source: String, sourceLayer: String? = nil, featureID: JSONValue, state: JSONObject) {
        guard let key = FeatureStates.key(featureID) else { return }
        var current = states[source, default: [:]][sourceLayer ?? "", default: [:]][key] ?? JSONObject()
        for (k, v) in state.pairs { current[k] = v }
        states[source, default: [:]][sourceLayer ?? "", default: [:]][key] = current
    }

    /// Removes one key of a feature's state, a feature's whole state (`stateKey` nil), or every
    /// state of the source (layer) when `featureID` is nil.
    public mutating func remove(source: String, sourceLayer: String? = nil, featureID: JSONValue? = nil, stateKey: String? = nil) {
        let layer = sourceLayer ?? ""
        guard let featureID else {
            if sourceLayer == nil { states[source] = nil } else { states[source]?[layer] = nil }
            return
        }
        guard let key = FeatureStates.key(featureID) else { return }
        if let stateKey {
            states[source]?[layer]?[key]?[stateKey] = nil
        } else {
            states[source]?[layer]?[key] = nil
        }
    }

    /// A feature's state (empty when none was set).
    public func state(source: String, sourceLayer: String? = nil, featureID: JSONValue) -> JSONObject {
        guard let key = FeatureStates.key(featureID) else { return JSONObject() }
        return states[source]?[sourceLayer ?? ""]?[key] ?? JSONObject()
    }

    /// Whether any feature of `source` has state.
    public func hasState(source: String) -> Bool {
        states[source]?.values.contains { !$0.isEmpty } ?? false
    }

    /// The state of a GeoJSON feature of `source`: its id from `promoteId` when the source sets one,
    /// else the feature's own id when that reads as a number (nil id: no state).
    public func state(of feature: FeatureContext, in source: Source) -> JSONObject {
        guard let id = FeatureStates.geoJSONFeatureID(feature, promoteId: source.promoteId) else { return JSONObject() }
        return state(source: source.id, featureID: id)
    }

    /// The id a GeoJSON feature carries in MapLibre: the `promoteId` property (booleans as 0/1), or
    /// the feature's `id` when it reads as a number, cut to its integer part.
    public static func geoJSONFeatureID(_ feature: FeatureContext, promoteId: String?) -> JSONValue? {
        if let promoteId {
            guard let v = feature.properties[promoteId] else { return nil }
            if case .bool(let b) = v { return .number(b ? 1 : 0) }
            return v
        }
        guard let id = feature.id else { return nil }
        let text: String
        switch id {
        case .number(let n): text = JSONValue.formatNumber(n)
        case .string(let s): text = s
        case .bool(let b): text = b ? "1" : "0"
        default: return nil
        }
        guard JSNumber.parse(text) != nil, let n = JSNumber.parseInteger(text) else { return nil }
        return .number(n)
    }

    /// The matching key of an id: `n:<number>` for ids that read as a safe number, else `s:<text>`.
    static func key(_ id: JSONValue) -> String? {
        let text: String
        switch id {
        case .number(let n): text = JSONValue.formatNumber(n)
        case .string(let s): text = s
        case .bool(let b): text = b ? "true" : "false"
        default: return nil
        }
        if let n = JSNumber.parse(text), n <= 9_007_199_254_740_991 { return "n:\(n == 0 ? 0 : n)" }
        return "s:" + text
    }
}

/// JavaScript's number conversions of strings, as MapLibre's feature-id rules use them.
enum JSNumber {
    /// `Number(text)` when it is not NaN: decimal or exponent forms, surrounding white space
    /// ignored, an empty string 0, `Infinity` with its sign; hexadecimal `0x…` too.
    static func parse(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return 0 }
        switch t {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = t.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            guard let v = UInt64(lower.dropFirst(2), radix: radix) else { return nil }
            return Double(v)
        }
        // Swift's Double(String) also takes "nan", "inf" and hexadecimal floats, which JS does not.
        guard t.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let v = Double(t) else { return nil }
        return v
    }

    /// `parseInt(text, 10)`: the leading (signed) decimal digits after white space, nil when none.
    static func parseInteger(_ text: String) -> Double? {
        var s = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var sign = 1.0
        if s.first == "-" { sign = -1; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let v = Double(digits) else { return nil }
        return sign * v
    }
}
