/// The layer types glmap draws. Adding one touches a known list of places (see DESIGN.md rule 1);
/// switches over `LayerType` have no `default:` so the compiler finds them.
public enum LayerType: String, CaseIterable, Sendable {
    /// `background`: fills the frame with one colour.
    case background
    /// `fill`: filled polygons.
    case fill
    /// `line`: stroked lines and polygon outlines.
    case line
    /// `circle`: a disc at every vertex.
    case circle

    /// The property table of this layer type.
    public var properties: [StyleProperty] {
        switch self {
        case .background: return BackgroundProperties.all
        case .fill: return FillProperties.all
        case .line: return LineProperties.all
        case .circle: return CircleProperties.all
        }
    }
}
