import GLMapStyle

/// How two segments of a line meet: the style spec's `line-join` (`GLMapStyle.LineJoin`, generated).
public typealias LineJoin = GLMapStyle.LineJoin

/// How an open line ends: the style spec's `line-cap` (`GLMapStyle.LineCap`, generated).
public typealias LineCap = GLMapStyle.LineCap

extension GLMapStyle.LineJoin {
    /// The style-specification name (`"miter"`, `"bevel"`, `"round"`).
    public var specName: String { rawValue }
}

extension GLMapStyle.LineCap {
    /// The style-specification name (`"butt"`, `"square"`, `"round"`).
    public var specName: String { rawValue }
}
