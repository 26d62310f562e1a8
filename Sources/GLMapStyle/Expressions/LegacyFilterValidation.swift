import GLMapCore

/// The style spec's rules for a legacy (pre-expression) filter, checked before it is converted:
/// an array whose first element is a filter operator, with the element count each operator
/// needs and string keys. Without this check a filter such as `0`, `"x"`, `[]` or `["all", 5]`
/// would quietly accept every feature. Keys are JSON path suffixes (`[1]`, `[2][0]`).
enum LegacyFilterValidation {
    static let operators = ["==", "!=", ">", ">=", "<", "<=", "in", "!in", "all", "any", "none", "has", "!has"]

    /// Every problem of `json` as a legacy filter (empty when it is valid).
    static func problems(_ json: JSONValue, key: String = "") -> [(key: String, message: String)] {
        guard case .array(let f) = json else {
            return [(key, "expected a filter (an array such as [\"==\", \"class\", \"park\"] or a boolean expression), found \(json.shortDescription)")]
        }
        guard let first = f.first else { return [(key, "a filter array needs at least 1 element (an operator), found []")] }
        guard case .string(let op) = first, operators.contains(op) else {
            return [("\(key)[0]", "expected a filter operator (one of \(operators.map { "\"\($0)\"" }.joined(separator: ", "))), found \(first.shortDescription)")]
        }
        var out: [(key: String, message: String)] = []
        func keyMustBeString() {
            if f.count >= 2, f[1].stringValue == nil { out.append(("\(key)[1]", "expected a property name (a string), found \(f[1].shortDescription)")) }
        }
        switch op {
        case "==", "!=", ">", ">=", "<", "<=":
            if f.count != 3 {
                out.append((key, "the filter operator \"\(op)\" needs 3 elements [\"\(op)\", key, value], found \(f.count)"))
            }
            keyMustBeString()
            if f.count == 3, f[1] == "$type", op != "==", op != "!=" {
                out.append(("\(key)[0]", "\"$type\" cannot be compared with \"\(op)\" (only \"==\", \"!=\", \"in\", \"!in\")"))
            }
            if f.count == 3, f[2].arrayValue != nil || f[2].objectValue != nil {
                out.append(("\(key)[2]", "expected a string, number, boolean or null to compare with, found \(f[2].shortDescription)"))
            }
        case "in", "!in":
            if f.count < 2 { out.append((key, "the filter operator \"\(op)\" needs a key: [\"\(op)\", key, value…]")) }
            keyMustBeString()
            for i in stride(from: 2, to: f.count, by: 1) where f[i].arrayValue != nil || f[i].objectValue != nil {
                out.append(("\(key)[\(i)]", "expected a string, number, boolean or null, found \(f[i].shortDescription)"))
            }
        case "all", "any", "none":
            for i in stride(from: 1, to: f.count, by: 1) {
                if case .bool = f[i] { continue }   // upstream tolerates booleans inside a legacy combination
                out += problems(f[i], key: "\(key)[\(i)]")
            }
        default:   // has, !has
            if f.count != 2 {
                out.append((key, "the filter operator \"\(op)\" needs 2 elements [\"\(op)\", key], found \(f.count)"))
            }
            keyMustBeString()
        }
        return out
    }
}
