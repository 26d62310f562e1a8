// Behaviours of MapLibre Native (the pymgl wheel's 2024 build) where it differs from MapLibre
// GL JS, which glmap follows. Only the differential harness's second opinion asks for them
// (`glmap-bench differential --emulate-native …`, Benchmarks/differential/second_opinion.py):
// glmap drawing a style with one of these emulated must agree with Native's image of the same
// style for the failure to count as that Native quirk. Package access: not part of any product's
// API, never set by `glmap` or `GLMap`; the empty set (the default everywhere) draws exactly
// what glmap draws without it. The GPU path only (the CPU reference has no tessellator).

import Foundation

/// A set of MapLibre Native behaviours to reproduce instead of GL JS's (differential harness only).
package struct NativeEmulation: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Fills triangulated by the earcut.hpp Native bundles (2.2.x): hole bridging as earcut.hpp
    /// 2.2.4 (holes ordered by leftmost x alone, its bridge search, a point on an ear's first
    /// corner counts as inside the ear) and the start node moved on by `filterPoints(outer,
    /// outer.next)` after every hole, from the node the previous hole began with
    /// (Earcut+Native22.swift). GL JS uses earcut 3.0.
    package static let earcut22 = NativeEmulation(rawValue: 1 << 0)
    /// Line vertices' `a_direction` as Native computes it: `static_cast<int8_t>(end)`, then its
    /// sign (`gfx/polyline_generator.cpp` `addCurrentVertex`), so a shift along the line in
    /// (−1, 1) — the inner point of a bevel or fake-round join turning less than 90° — gives 0.
    /// GL JS takes the sign of the unrounded shift.
    package static let int8Direction = NativeEmulation(rawValue: 1 << 1)
    /// Line extrusion components clamped to what Native's vertex byte holds,
    /// `clamp(round(63·e) + 128, 0, 255)`, i.e. e in [−128/63, 127/63] half widths (miters
    /// longer than about 2, with `line-miter-limit` > 2). GL JS wraps the byte; glmap draws the
    /// exact extrusion.
    package static let miterClamp = NativeEmulation(rawValue: 1 << 2)
    /// Every closed piece a dashed or gradient line layer's bucket tessellates (each tile piece
    /// `TileLineClipper` cuts from a polygon ring, or a ring drawn whole) restarted at its
    /// northernmost vertex (least unit-world y; of equal ones the first in the piece's order), as
    /// Native's polygon fix-up (wagyu, `GeoJSONTileFeature::getGeometries`) does to each tile's
    /// clipped ring (wagyu writes a ring from `ring->points`, the front of its left bound; that
    /// this is the top is measured on differential cases, README "Conformance"). Dash phase and
    /// ring progress run from there. GL JS keeps geojson-vt's order.
    package static let ringStart = NativeEmulation(rawValue: 1 << 3)
    /// Native's two-row dash texture (`DashPatternTexture`: "from" in row 0, "to" in row 1 when
    /// they differ, each non-round pattern half the texture high): linear filtering reads
    /// ½·max(0, normal.y) of the "from" row (at "to"'s x) into the "to" sample towards the
    /// line's normal.y = +1 edge. GL JS samples the "to" row's centre only (line_atlas.ts
    /// `getDash`: height 0 for non-round patterns). Non-round patterns only (shader variant
    /// `DASH_ROWS`, drawn when `LineBucket.nativeDashRows`).
    package static let dashRows = NativeEmulation(rawValue: 1 << 4)

    /// The names `--emulate-native` takes, in order.
    package static let named: [(name: String, value: NativeEmulation)] = [
        ("earcut22", .earcut22), ("int8-direction", .int8Direction), ("miter-clamp", .miterClamp),
        ("ring-start", .ringStart), ("dash-rows", .dashRows),
    ]

    /// Parses a comma-separated list of names ("" or "none": the empty set); nil names an unknown one.
    package init?(names text: String) {
        self = []
        for word in text.split(separator: ",", omittingEmptySubsequences: true) {
            let w = word.trimmingCharacters(in: .whitespaces)
            if w == "none" { continue }
            guard let hit = NativeEmulation.named.first(where: { $0.name == w }) else { return nil }
            insert(hit.value)
        }
    }

    /// The names of the members, comma-separated ("none" for the empty set).
    package var names: String {
        let list = NativeEmulation.named.filter { contains($0.value) }.map(\.name)
        return list.isEmpty ? "none" : list.joined(separator: ",")
    }

    /// Native's extrusion byte range in half widths (see `miterClamp`).
    static let extrusionMin = -128.0 / 63, extrusionMax = 127.0 / 63

    /// A closed ring of flat x, y pairs (the first point repeated at the end, or not) restarted
    /// at its northernmost vertex, the first of equal ones (see `ringStart`); closed the way it
    /// came. Fewer than three distinct points: unchanged.
    static func startingAtTop(_ coords: [Double]) -> [Double] {
        let c = coords.count
        let repeated = c >= 4 && coords[0] == coords[c - 2] && coords[1] == coords[c - 1]
        let n = (repeated ? c - 2 : c) / 2
        guard n >= 3 else { return coords }
        var top = 0
        for k in 1..<n where coords[2 * k + 1] < coords[2 * top + 1] { top = k }
        guard top > 0 else { return coords }
        var out: [Double] = []
        out.reserveCapacity(c)
        out.append(contentsOf: coords[(2 * top)..<(2 * n)])
        out.append(contentsOf: coords[0..<(2 * top)])
        if repeated { out.append(coords[2 * top]); out.append(coords[2 * top + 1]) }
        return out
    }
}
