/// MapLibre's rules for how a line's data depends on the tiles it is drawn from: the tile zoom,
/// the tile extent `linesofar` is measured in and how it is stored, the ramp-size rules of
/// `line-gradient`. Rules about data, shared by the tessellator (its fx vertices) and the CPU
/// reference renderer, so that the oracle and the GPU path read one declaration of each.
public enum LineTiling {
    /// Tile units per tile side (MapLibre's EXTENT).
    public static let tileExtent = 8192.0
    /// `linesofar` of a line's end with line metrics (MapLibre's MAX_LINE_DISTANCE − 1).
    public static let metricsLineDistance = 32767.0
    /// Without line metrics, MapLibre's line bucket restarts `linesofar` at 0 after the first
    /// vertex pair past this many tile units (MAX_LINE_DISTANCE / 2, so the stored 15 bits never
    /// wrap), emitting that pair twice: at its distance and at 0.
    public static let lineSoFarResetDistance = 16384.0
    /// Most distinct gradient progress ranges (ramp rows: the texture height) before one 0…1
    /// ramp is read at the whole-line progress instead.
    public static let maxRampRanges = 4096

    /// The zoom of the tiles a layer's lines come from: min(floor(zoom), floor(source maxzoom)),
    /// in 0…30.
    public static func tileZoom(zoom: Double, sourceMaxzoom: Double) -> Int {
        Int(min(min(max(0, zoom.rounded(.down)), max(0, sourceMaxzoom.rounded(.down))), 30))
    }

    /// Plane px per unit of world at the integer zoom floor(zoom) (≤ 30), where MapLibre places
    /// its sharp-corner vertices (15 px from the corner).
    public static func pixelsPerUnitAtIntegerZoom(_ zoom: Double) -> Double {
        512 * Double(1 << Int(min(max(0, zoom.rounded(.down)), 30)))
    }

    /// The scale of MapLibre's extra vertex pair 15 px on each side of a corner sharper than 75°
    /// (line_bucket's SHARP_CORNER_OFFSET, `pixelsPerUnitAtIntegerZoom`), or nil where MapLibre
    /// places none: in tiles over-scaled more than 16× (floor(zoom) − tile zoom > 4).
    public static func sharpCornerPixelsPerUnit(zoom: Double, sourceMaxzoom: Double) -> Double? {
        let floorZoom = Int(min(max(0, zoom.rounded(.down)), 30))
        guard floorZoom - tileZoom(zoom: zoom, sourceMaxzoom: sourceMaxzoom) <= 4 else { return nil }
        return pixelsPerUnitAtIntegerZoom(zoom)
    }

    /// MapLibre's `u_tileratio` × 512 / extent: CSS px per tile unit at the integer zoom the
    /// frame is drawn at (floor of the camera zoom, 0…60), for tiles of `tileZoom`.
    public static func tileRatio(cameraZoom: Double, tileZoom: Int) -> Double {
        let frameZoom = Int(min(max(0, cameraZoom), 60).rounded(.down))
        return Double(sign: .plus, exponent: frameZoom - tileZoom, significand: 1) * 512 / tileExtent
    }

    /// The over-zoom a step gradient's ramp is sized for: 2^(22 − maxzoom) when the tiles are
    /// the source's deepest (they are then over-scaled up to zoom 22), else 1.
    public static func stepRampOverzoom(tileZoom: Int, sourceMaxzoom: Double) -> Double {
        let maxzoom = max(0, sourceMaxzoom.rounded(.down))
        return Double(tileZoom) == maxzoom ? Double(1 << Int(max(0, min(30, 22 - maxzoom)))) : 1
    }

    /// Steps per line half-width in which MapLibre stores each component of a vertex's extrusion
    /// (line_bucket's EXTRUDE_SCALE: the vertex byte holds round(63 · e) + 128; the shader
    /// divides by 63 again).
    public static let extrusionSteps = 63.0

    /// An extrusion component (in half-widths) as MapLibre's line vertex stores it: rounded to
    /// the nearest 1/63 (GL JS `Math.round`, halves up). It moves a vertex by up to 1/126 of the
    /// half width, and of `line-offset`, which reads the same vector: enough to move the seams of
    /// a translucent line's overlapping join triangles, or the edge of a thin offset line, onto
    /// other pixels. Components past the byte's range (|e| > 2.02, miters with
    /// `line-miter-limit` > 2) are rounded the same way; see docs/conformance.md for what the
    /// two MapLibres do with those.
    @inline(__always)
    public static func storedExtrusion(_ e: Double) -> Double {
        (e * extrusionSteps + 0.5).rounded(.down) / extrusionSteps
    }

    /// MapLibre stores `linesofar / 2` as a 14-bit integer: distances snap down to even tile
    /// units and wrap at 32768 (non-finite and negative values store 0).
    @inline(__always)
    public static func storedLineSoFar(_ linesofar: Double) -> Double {
        guard linesofar.isFinite, linesofar > 0 else { return 0 }
        let half = (linesofar * 0.5).rounded(.down)
        return half.truncatingRemainder(dividingBy: 16384) * 2
    }

    /// The `line-gradient` progress of a polygon ring's vertex at `linesofar` tile units (since
    /// its tile piece's start or its last restart): rings have no line metrics (geojson-vt gives
    /// `mapbox_clip_start`/`_end` to lines only), and MapLibre Native's gradient shader reads
    /// progress from the stored linesofar as `linesofar / 32767` (GL JS has no defined value:
    /// see docs/conformance.md).
    public static func ringProgress(linesofar: Double) -> Double {
        storedLineSoFar(linesofar) / metricsLineDistance
    }

    /// Length of a flat polyline (x, y pairs), skipping non-finite steps.
    public static func length(_ c: [Double]) -> Double {
        var total = 0.0
        var i = 2
        while i + 1 < c.count {
            let dx = c[i] - c[i - 2], dy = c[i + 1] - c[i - 1]
            let l = (dx * dx + dy * dy).squareRoot()
            if l.isFinite { total += l }
            i += 2
        }
        return total
    }
}
