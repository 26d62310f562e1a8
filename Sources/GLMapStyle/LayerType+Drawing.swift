extension LayerType {
    /// Whether glmap draws layers of this type. The others are parsed and validated like drawn
    /// ones (their properties compiled in `Layer.values`, the layers kept in
    /// `StyleDocument.allLayers`) and skipped from the render with a warning.
    public var isDrawn: Bool {
        switch self {
        case .background, .fill, .line, .circle, .fillExtrusion, .heatmap, .raster, .hillshade, .colorRelief, .symbol: return true
        }
    }
}
