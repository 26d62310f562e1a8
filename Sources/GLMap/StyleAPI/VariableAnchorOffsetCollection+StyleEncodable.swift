import GLMapCore
import GLMapStyle

extension VariableAnchorOffsetCollection: StyleEncodable {
    /// The value as style JSON: anchor names alternating with [x, y] offsets.
    public var styleJSON: JSONValue {
        .array(entries.flatMap { [.string($0.anchor.rawValue), .array($0.offset.map(JSONValue.number))] })
    }

    /// The value from style JSON (`["top", [0, 1], "left", [1, 0]]`); nil when of another form.
    public init?(styleJSON: JSONValue) {
        self.init(evaluated: GLMapStyle.Value(json: styleJSON))
    }
}
