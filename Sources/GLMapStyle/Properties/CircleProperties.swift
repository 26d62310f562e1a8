import GLMapCore

/// The property table of `circle` layers (MapLibre style spec v8).
public enum CircleProperties {
    public static let sortKey = StyleProperty.layout("circle-sort-key", .number, .dataDriven, default: nil)

    public static let radius = StyleProperty.paint("circle-radius", .number, .dataDriven, default: 5, min: 0,
                                                 gpu: ("radius", ["circle"]))
    public static let color = StyleProperty.paint("circle-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["circle"]))
    public static let blur = StyleProperty.paint("circle-blur", .number, .dataDriven, default: 0,
                                               gpu: ("blur", ["circle"]))
    public static let opacity = StyleProperty.paint("circle-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["circle"]))
    public static let translate = StyleProperty.paint("circle-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    public static let translateAnchor = StyleProperty.paint("circle-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)
    public static let pitchScale = StyleProperty.paint("circle-pitch-scale", .enum(["map", "viewport"]), .dataConstant,
                                                       default: "map", interpolated: false)
    public static let pitchAlignment = StyleProperty.paint("circle-pitch-alignment", .enum(["map", "viewport"]), .dataConstant,
                                                           default: "viewport", interpolated: false)
    public static let strokeWidth = StyleProperty.paint("circle-stroke-width", .number, .dataDriven, default: 0, min: 0,
                                                       gpu: ("stroke_width", ["circle"]))
    public static let strokeColor = StyleProperty.paint("circle-stroke-color", .color, .dataDriven, default: "#000000",
                                                       gpu: ("stroke_color", ["circle"]))
    public static let strokeOpacity = StyleProperty.paint("circle-stroke-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                         gpu: ("stroke_opacity", ["circle"]))

    public static let all: [StyleProperty] = [StyleProperty.visibility, sortKey, radius, color, blur, opacity, translate,
                                              translateAnchor, pitchScale, pitchAlignment, strokeWidth, strokeColor,
                                              strokeOpacity]
}
