/// An icon placed relative to the anchor (MapLibre's `PositionedIcon`), in CSS pixels at
/// `icon-size` 1.
public struct PositionedIcon: Sendable {
    /// The image's atlas position and metadata.
    public var image: ImagePosition
    /// Top edge.
    public var top: Double
    /// Bottom edge.
    public var bottom: Double
    /// Left edge.
    public var left: Double
    /// Right edge.
    public var right: Double
    /// With `icon-text-fit` and a content box: the padding between the icon's edges and its
    /// content (top, right, bottom, left), for collision boxes.
    public var collisionPadding: (top: Double, right: Double, bottom: Double, left: Double)?

    /// A positioned icon.
    public init(image: ImagePosition, top: Double, bottom: Double, left: Double, right: Double,
                collisionPadding: (top: Double, right: Double, bottom: Double, left: Double)? = nil) {
        (self.image, self.top, self.bottom, self.left, self.right) = (image, top, bottom, left, right)
        self.collisionPadding = collisionPadding
    }
}

/// `icon-text-fit`.
public enum IconTextFit: String, Sendable {
    /// No fitting.
    case none
    /// Width and height.
    case both
    /// Width only.
    case width
    /// Height only.
    case height
}

extension Shaper {
    /// GL JS's `shapeIcon`: the image's display size placed by `icon-anchor` around `icon-offset`.
    public static func shapeIcon(_ image: ImagePosition, offset: (x: Double, y: Double), anchor: SymbolAnchor) -> PositionedIcon {
        let (h, v) = anchor.alignment
        let size = image.displaySize
        let x1 = offset.x - size.width * h
        let y1 = offset.y - size.height * v
        return PositionedIcon(image: image, top: y1, bottom: y1 + size.height, left: x1, right: x1 + size.width)
    }

    /// GL JS's `fitIconToText`: the icon centred on (or stretched to) the text box scaled by
    /// `fontScale` (text size / 24), with `padding` (top, right, bottom, left) and `offset`.
    public static func fitIconToText(_ icon: PositionedIcon, text: Shaping, fit: IconTextFit,
                                     padding: (top: Double, right: Double, bottom: Double, left: Double),
                                     offset: (x: Double, y: Double), fontScale: Double) -> PositionedIcon {
        let image = icon.image
        var collisionPadding: (top: Double, right: Double, bottom: Double, left: Double)? = nil
        if let c = image.content {
            // GL JS's array is [left, top, right, bottom]: content[0], content[1], then what is
            // right of and below the content.
            let r = image.pixelRatio
            collisionPadding = (top: c.1 / r, right: image.displaySize.width - c.2 / r, bottom: image.displaySize.height - c.3 / r, left: c.0 / r)
        }
        let textLeft = text.left * fontScale, textRight = text.right * fontScale
        let left: Double, right: Double, top: Double, bottom: Double
        if fit == .width || fit == .both {
            left = offset.x + textLeft - padding.left
            right = offset.x + textRight + padding.right
        } else {
            left = offset.x + (textLeft + textRight - image.displaySize.width) / 2
            right = left + image.displaySize.width
        }
        let textTop = text.top * fontScale, textBottom = text.bottom * fontScale
        if fit == .height || fit == .both {
            top = offset.y + textTop - padding.top
            bottom = offset.y + textBottom + padding.bottom
        } else {
            top = offset.y + (textTop + textBottom - image.displaySize.height) / 2
            bottom = top + image.displaySize.height
        }
        return PositionedIcon(image: image, top: top, bottom: bottom, left: left, right: right, collisionPadding: collisionPadding)
    }

    /// GL JS's `applyTextFit`: the fitted icon's box adjusted to the content's aspect ratio where
    /// `textFitWidth`/`textFitHeight` ask for `proportional` (height first).
    public static func applyTextFit(_ icon: PositionedIcon) -> (x1: Double, y1: Double, x2: Double, y2: Double) {
        var left = icon.left, top = icon.top
        var width = icon.right - left, height = icon.bottom - top
        guard let c = icon.image.content else { return (left, top, left + width, top + height) }
        let contentWidth = c.2 - c.0, contentHeight = c.3 - c.1
        let fitWidth = icon.image.textFitWidth ?? .stretchOrShrink
        let fitHeight = icon.image.textFitHeight ?? .stretchOrShrink
        let aspect = contentWidth / contentHeight
        if fitHeight == .proportional {
            if (fitWidth == .stretchOnly && width / height < aspect) || fitWidth == .proportional {
                let newWidth = (height * aspect).rounded(.up)
                left *= newWidth / width
                width = newWidth
            }
        } else if fitWidth == .proportional {
            if fitHeight == .stretchOnly && aspect != 0 && width / height > aspect {
                let newHeight = (width / aspect).rounded(.up)
                top *= newHeight / height
                height = newHeight
            }
        }
        return (left, top, left + width, top + height)
    }
}
