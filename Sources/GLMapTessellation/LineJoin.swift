/// How two segments of a line meet (`line-join` in the MapLibre style specification).
public enum LineJoin: String, Sendable, CaseIterable {
    /// Sharp corner where the outer edges meet; falls back to `bevel` past `line-miter-limit`.
    case miter
    /// Corner cut flat across the outer edge.
    case bevel
    /// Rounded corner (a fan below 120° turns, overlapping round caps beyond; see `LineTessellator`).
    case round

    /// The style-specification name (`"miter"`, `"bevel"`, `"round"`).
    public var specName: String { rawValue }
}

/// How an open line ends (`line-cap` in the MapLibre style specification).
public enum LineCap: String, Sendable, CaseIterable {
    /// Ends exactly at the end point.
    case butt
    /// Extends half the line width past the end point, squared off.
    case square
    /// Extends half the line width past the end point as a half disc.
    case round

    /// The style-specification name (`"butt"`, `"square"`, `"round"`).
    public var specName: String { rawValue }
}
