import GLMapCore
import GLMapStyle

extension WorldCopies {
    /// One matrix per visible world copy for a bucket.
    static func matrices(view: ViewTransform, origin: (x: Double, y: Double), translate: (x: Double, y: Double),
                         anchor: TranslateAnchor, bounds: WorldBounds) -> [Matrix4] {
        offsets(view, bounds: bounds).map {
            matrix(view, origin: origin, copy: $0, translate: translate, translateInViewport: anchor == .viewport)
        }
    }
}
