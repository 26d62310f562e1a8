import GLMapCore

/// The property table of `circle` layers (MapLibre style spec v8).
public enum CircleProperties {
    /// `circle-sort-key`: layout, number, data-driven; unset keeps source order (lower keys draw first).
    public static let sortKey = StyleProperty.layout("circle-sort-key", .number, .dataDriven, default: nil)

    /// `circle-radius`: paint, CSS pixels ≥ 0, data-driven; default 5; GPU input `radius`.
    public static let radius = StyleProperty.paint("circle-radius", .number, .dataDriven, default: 5, min: 0,
                                                 gpu: ("radius", ["circle"]))
    /// `circle-color`: paint, colour, data-driven; default black; GPU input `color`.
    public static let color = StyleProperty.paint("circle-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["circle"]))
    /// `circle-blur`: paint, fraction of the radius, data-driven; default 0; GPU input `blur`.
    public static let blur = StyleProperty.paint("circle-blur", .number, .dataDriven, default: 0,
                                               gpu: ("blur", ["circle"]))
    /// `circle-opacity`: paint, number 0…1, data-driven; default 1; GPU input `opacity`.
    public static let opacity = StyleProperty.paint("circle-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["circle"]))
    /// `circle-translate`: paint, [x, y] in CSS pixels; default [0, 0].
    public static let translate = StyleProperty.paint("circle-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    /// `circle-translate-anchor`: paint, "map" (default) or "viewport".
    public static let translateAnchor = StyleProperty.paint("circle-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)
    /// `circle-pitch-scale`: paint, "map" (default: circles shrink with distance) or "viewport".
    public static let pitchScale = StyleProperty.paint("circle-pitch-scale", .enum(["map", "viewport"]), .dataConstant,
                                                       default: "map", interpolated: false)
    /// `circle-pitch-alignment`: paint, "viewport" (default: circles face the screen) or "map".
    public static let pitchAlignment = StyleProperty.paint("circle-pitch-alignment", .enum(["map", "viewport"]), .dataConstant,
                                                           default: "viewport", interpolated: false)
    /// `circle-stroke-width`: paint, CSS pixels ≥ 0, data-driven; default 0; GPU input `stroke_width`.
    public static let strokeWidth = StyleProperty.paint("circle-stroke-width", .number, .dataDriven, default: 0, min: 0,
                                                       gpu: ("stroke_width", ["circle"]))
    /// `circle-stroke-color`: paint, colour, data-driven; default black; GPU input `stroke_color`.
    public static let strokeColor = StyleProperty.paint("circle-stroke-color", .color, .dataDriven, default: "#000000",
                                                       gpu: ("stroke_color", ["circle"]))
    /// `circle-stroke-opacity`: paint, number 0…1, data-driven; default 1; GPU input `stroke_opacity`.
    public static let strokeOpacity = StyleProperty.paint("circle-stroke-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                         gpu: ("stroke_opacity", ["circle"]))

    /// Every row of the table, `visibility` first.
    public static let all: [StyleProperty] = [StyleProperty.visibility, sortKey, radius, color, blur, opacity, translate,
                                              translateAnchor, pitchScale, pitchAlignment, strokeWidth, strokeColor,
                                              strokeOpacity]
}
