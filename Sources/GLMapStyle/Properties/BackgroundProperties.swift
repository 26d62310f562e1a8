import GLMapCore

/// The property table of `background` layers (MapLibre style spec v8).
public enum BackgroundProperties {
    /// `background-color`: paint, colour, not data-driven; default black.
    public static let color = StyleProperty.paint("background-color", .color, .dataConstant, default: "#000000")
    /// `background-opacity`: paint, number 0…1, not data-driven; default 1.
    public static let opacity = StyleProperty.paint("background-opacity", .number, .dataConstant, default: 1, min: 0, max: 1)

    /// Every row of the table, `visibility` first.
    public static let all: [StyleProperty] = [StyleProperty.visibility, color, opacity]
}
