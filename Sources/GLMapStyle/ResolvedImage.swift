/// A `resolvedImage` value (`icon-image`, `*-pattern`): the name of an image of the style's sprite
/// (or one added at run time).
public struct ResolvedImage: PropertyValueType, Hashable {
    /// The image name.
    public var name: String

    /// The image named `name`.
    public init(name: String) { self.name = name }

    /// An image name (a string).
    public init?(evaluated v: Value) {
        switch v {
        case .string(let s), .image(let s): name = s
        default: return nil
        }
    }
}
