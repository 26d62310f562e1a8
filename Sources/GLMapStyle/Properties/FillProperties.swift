import GLMapCore

/// The property table of `fill` layers (MapLibre style spec v8).
public enum FillProperties {
    public static let sortKey = StyleProperty.layout("fill-sort-key", .number, .dataDriven, default: nil, interpolated: false)

    public static let antialias = StyleProperty.paint("fill-antialias", .boolean, .dataConstant, default: true, interpolated: false)
    public static let opacity = StyleProperty.paint("fill-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["fill", "fill_outline"]))
    public static let color = StyleProperty.paint("fill-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["fill"]))
    public static let outlineColor = StyleProperty.paint("fill-outline-color", .color, .dataDriven, default: nil,
                                                       gpu: ("outline_color", ["fill_outline"]))
    public static let translate = StyleProperty.paint("fill-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    public static let translateAnchor = StyleProperty.paint("fill-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)

    public static let all: [StyleProperty] = [StyleProperty.visibility, sortKey, antialias, opacity, color, outlineColor,
                                              translate, translateAnchor]
}
