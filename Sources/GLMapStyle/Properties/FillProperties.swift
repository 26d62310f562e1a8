import GLMapCore

/// The property table of `fill` layers (MapLibre style spec v8).
public enum FillProperties {
    /// `fill-sort-key`: layout, number, data-driven; unset keeps source order (lower keys draw first).
    public static let sortKey = StyleProperty.layout("fill-sort-key", .number, .dataDriven, default: nil, interpolated: false)

    /// `fill-antialias`: paint, boolean; default true (draw the 1-pixel outline).
    public static let antialias = StyleProperty.paint("fill-antialias", .boolean, .dataConstant, default: true, interpolated: false)
    /// `fill-opacity`: paint, number 0…1, data-driven; default 1; GPU input `opacity` (fill and outline).
    public static let opacity = StyleProperty.paint("fill-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["fill", "fill_outline"]))
    /// `fill-color`: paint, colour, data-driven; default black; GPU input `color`.
    public static let color = StyleProperty.paint("fill-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["fill"]))
    /// `fill-outline-color`: paint, colour, data-driven; unset uses `fill-color`; GPU input `outline_color`.
    public static let outlineColor = StyleProperty.paint("fill-outline-color", .color, .dataDriven, default: nil,
                                                       gpu: ("outline_color", ["fill_outline"]))
    /// `fill-translate`: paint, [x, y] in CSS pixels; default [0, 0].
    public static let translate = StyleProperty.paint("fill-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    /// `fill-translate-anchor`: paint, "map" (default) or "viewport".
    public static let translateAnchor = StyleProperty.paint("fill-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)

    /// Every row of the table, `visibility` first.
    public static let all: [StyleProperty] = [StyleProperty.visibility, sortKey, antialias, opacity, color, outlineColor,
                                              translate, translateAnchor]
}
