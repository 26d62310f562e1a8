/// Static questions about a compiled tree: what it reads, whether it is constant, where zoom is used.
enum ExpressionAnalysis {
    /// False when the tree reads the feature (`get`/`has` without an object, `properties`,
    /// `geometry-type`, `id`, `within`).
    static func isFeatureConstant(_ node: ExprNode) -> Bool {
        switch node.op {
        case .getProperty, .hasProperty, .within:
            return false
        case .compound(let op, let args):
            if op.readsFeature(argumentCount: args.count) { return false }
        default:
            break
        }
        var result = true
        node.forEachChild { if result && !isFeatureConstant($0) { result = false } }
        return result
    }

    /// False when the tree reads the feature's state (`feature-state`), which filters and layout
    /// properties may not (the specification's `isStateConstant`).
    static func isStateConstant(_ node: ExprNode) -> Bool {
        if case .compound(let op, _) = node.op, op.reads == .featureState { return false }
        if case .varRef(_, let bound) = node.op, !isStateConstant(bound) { return false }
        var result = true
        node.forEachChild { if result && !isStateConstant($0) { result = false } }
        return result
    }

    /// False when the tree reads `zoom` (or, with `lineProgress`, `line-progress`; with
    /// `heatmapDensity`, `heatmap-density`).
    static func isGlobalPropertyConstant(_ node: ExprNode, zoom: Bool = true, lineProgress: Bool = true,
                                         heatmapDensity: Bool = false) -> Bool {
        if case .compound(let op, _) = node.op {
            if zoom && op.reads == .zoom { return false }
            if lineProgress && op.reads == .lineProgress { return false }
            if heatmapDensity && op.reads == .heatmapDensity { return false }
        }
        var result = true
        node.forEachChild {
            if result && !isGlobalPropertyConstant($0, zoom: zoom, lineProgress: lineProgress, heatmapDensity: heatmapDensity) { result = false }
        }
        return result
    }

    /// Whether the node can be evaluated once at parse time (the specification's `isConstant`).
    static func isConstant(_ node: ExprNode) -> Bool {
        switch node.op {
        case .varRef(_, let bound): return isConstant(bound)
        case .compound(let op, _) where op.reads == .neverConstant || op.reads == .elevation: return false
        case .within, .globalState: return false
        default: break
        }
        var isAnnotation = false
        switch node.op {
        case .assertion, .coercion: isAnnotation = true
        default: break
        }
        var childrenConstant = true
        node.forEachChild { child in
            guard childrenConstant else { return }
            // Annotations may be added after their child was parsed, so look through them.
            childrenConstant = isAnnotation ? isConstant(child) : child.isLiteral
        }
        return childrenConstant && isFeatureConstant(node) && isGlobalPropertyConstant(node, heatmapDensity: true)
    }

    /// Where a zoom curve was found.
    enum ZoomCurve {
        case none
        case curve(ExprNode)
        case error(String)
    }

    static let zoomPlacementMessage = "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."

    /// Finds the single top-level `step`/`interpolate` on `["zoom"]` (possibly inside `let`/`coalesce`).
    static func findZoomCurve(_ node: ExprNode) -> ZoomCurve {
        var result = ZoomCurve.none
        switch node.op {
        case .letOp(_, let body):
            result = findZoomCurve(body)
        case .coalesce(let args):
            for arg in args {
                result = findZoomCurve(arg)
                if case .none = result { continue }
                break
            }
        case .step(let input, _, _), .interpolate(_, _, let input, _, _):
            if case .compound(let op, _) = input.op, op.reads == .zoom { result = .curve(node) }
        default:
            break
        }
        if case .error = result { return result }
        node.forEachChild { child in
            let childResult = findZoomCurve(child)
            switch (childResult, result) {
            case (.error, _):
                result = childResult
            case (.curve, .none):
                result = .error(zoomPlacementMessage)
            case (.curve(let c), .curve(let r)) where c !== r:
                result = .error("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
            default:
                break
            }
        }
        return result
    }
}
