import GLMapCore

/// The property table of `background` layers (MapLibre style spec v8).
public enum BackgroundProperties {
    public static let color = StyleProperty.paint("background-color", .color, .dataConstant, default: "#000000")
    public static let opacity = StyleProperty.paint("background-opacity", .number, .dataConstant, default: 1, min: 0, max: 1)

    public static let all: [StyleProperty] = [StyleProperty.visibility, color, opacity]
}
