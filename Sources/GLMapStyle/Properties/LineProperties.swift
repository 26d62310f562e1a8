import GLMapCore

/// The property table of `line` layers (MapLibre style spec v8).
public enum LineProperties {
    public static let cap = StyleProperty.layout("line-cap", .enum(["butt", "round", "square"]), .dataConstant, default: "butt")
    public static let join = StyleProperty.layout("line-join", .enum(["bevel", "round", "miter"]), .dataDriven, default: "miter")
    public static let miterLimit = StyleProperty.layout("line-miter-limit", .number, .dataConstant, default: 2, interpolated: true)
    public static let roundLimit = StyleProperty.layout("line-round-limit", .number, .dataConstant, default: 1.05, interpolated: true)
    public static let sortKey = StyleProperty.layout("line-sort-key", .number, .dataDriven, default: nil)

    public static let opacity = StyleProperty.paint("line-opacity", .number, .dataDriven, default: 1, min: 0, max: 1,
                                                  gpu: ("opacity", ["line"]))
    public static let color = StyleProperty.paint("line-color", .color, .dataDriven, default: "#000000",
                                                gpu: ("color", ["line"]))
    public static let translate = StyleProperty.paint("line-translate", .array(.number, length: 2), .dataConstant, default: [0, 0])
    public static let translateAnchor = StyleProperty.paint("line-translate-anchor", .enum(["map", "viewport"]), .dataConstant,
                                                            default: "map", interpolated: false)
    public static let width = StyleProperty.paint("line-width", .number, .dataDriven, default: 1, min: 0,
                                                gpu: ("width", ["line"]))
    public static let gapWidth = StyleProperty.paint("line-gap-width", .number, .dataDriven, default: 0, min: 0,
                                                   gpu: ("gapwidth", ["line"]))
    public static let offset = StyleProperty.paint("line-offset", .number, .dataDriven, default: 0,
                                                 gpu: ("offset", ["line"]))
    public static let blur = StyleProperty.paint("line-blur", .number, .dataDriven, default: 0, min: 0,
                                               gpu: ("blur", ["line"]))
    public static let dasharray = StyleProperty.paint("line-dasharray", .array(.number, length: nil), .crossFadedDataDriven,
                                                      default: nil, min: 0, interpolated: false)
    public static let gradient = StyleProperty.paint("line-gradient", .color, .colorRamp, default: nil,
                                                     zoom: false, lineProgress: true)

    public static let all: [StyleProperty] = [StyleProperty.visibility, cap, join, miterLimit, roundLimit, sortKey,
                                              opacity, color, translate, translateAnchor, width, gapWidth, offset,
                                              blur, dasharray, gradient]
}
