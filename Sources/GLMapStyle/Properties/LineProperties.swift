import GLMapCore

/// The property table of `line` layers (MapLibre style spec v8).
public enum LineProperties {
    /// `line-cap`: layout, "butt" (default), "round" or "square".
    public static let cap = StyleProperty.layout("line-cap", .enum(["butt", "round", "square"]), .dataConstant, default: "butt")
    /// `line-join`: layout, "bevel", "round" or "miter" (default), data-driven.
    public static let join = StyleProperty.layout("line-join", .enum(["bevel", "round", "miter"]), .dataDriven, default: "miter")
    /// `line-miter-limit`: layout, number; default 2 (sharper miters become bevels).
    public static let miterLimit = StyleProperty.layout("line-miter-limit", .number, .dataConstant, default: 2, interpolated: true)
    /// `line-round-limit`: layout, number; default 1.05 (flatter round joins become miters).
    public static let roundLimit = StyleProperty.layout("line-round-limit", .number, .dataConstant, default: 1.05, interpolated: true)
    /// `line-sort-key`: layout, number, data-driven; unset keeps source order (lower keys draw first).
    public static let sortKey = StyleProperty.layout("line-sort-key", .number, .dataDriven, default: nil)

    /// `line-opacity`: paint, number 0…1, data-driven; default 1; GPU input `opacity`.
    public static let opacity = StyleProperty.paint("line-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["line"]))
    /// `line-color`: paint, colour, data-driven; default black; GPU input `color`.
    public static let color = StyleProperty.paint("line-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["line"]))
    /// `line-translate`: paint, [x, y] in CSS pixels; default [0, 0].
    public static let translate = StyleProperty.paint("line-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    /// `line-translate-anchor`: paint, "map" (default) or "viewport".
    public static let translateAnchor = StyleProperty.paint("line-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)
    /// `line-width`: paint, CSS pixels ≥ 0, data-driven; default 1; GPU input `width`.
    public static let width = StyleProperty.paint("line-width", .number, .dataDriven, default: 1, min: 0,
                                                gpu: ("width", ["line"]))
    /// `line-gap-width`: paint, CSS pixels ≥ 0, data-driven; default 0; GPU input `gapwidth`.
    public static let gapWidth = StyleProperty.paint("line-gap-width", .number, .dataDriven, default: 0, min: 0,
                                                   gpu: ("gapwidth", ["line"]))
    /// `line-offset`: paint, CSS pixels, data-driven; default 0; GPU input `offset`.
    public static let offset = StyleProperty.paint("line-offset", .number, .dataDriven, default: 0,
                                                 gpu: ("offset", ["line"]))
    /// `line-blur`: paint, CSS pixels ≥ 0, data-driven; default 0; GPU input `blur`.
    public static let blur = StyleProperty.paint("line-blur", .number, .dataDriven, default: 0, min: 0,
                                               gpu: ("blur", ["line"]))
    /// `line-dasharray`: paint, numbers ≥ 0 in line widths, cross-faded data-driven; unset: solid.
    public static let dasharray = StyleProperty.paint("line-dasharray", .array(.number, length: nil), .crossFadedDataDriven,
                                                      default: nil, min: 0, interpolated: false)
    /// `line-gradient`: paint, colour ramp over `line-progress` (not zoom); needs `lineMetrics`.
    public static let gradient = StyleProperty.paint("line-gradient", .color, .colorRamp, default: nil,
                                                     zoom: false, lineProgress: true)

    /// Every row of the table, `visibility` first.
    public static let all: [StyleProperty] = [StyleProperty.visibility, cap, join, miterLimit, roundLimit, sortKey,
                                              opacity, color, translate, translateAnchor, width, gapWidth, offset,
                                              blur, dasharray, gradient]
}
