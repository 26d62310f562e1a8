#!/usr/bin/env python3
"""Second opinion on a differential run's failures: which of them are MapLibre Native quirks.

    .venv/bin/python Benchmarks/differential/second_opinion.py RUN_DIR --bench PATH/glmap-bench [--jobs 2]

RUN_DIR is a run of run.sh (cases/<id>/style.json + expected.png, results.tsv).
For every case that fails the render tests' rule (over 0.00025 of the pixels differ) it finds the
places in the style where MapLibre Native (pymgl's 2024 build) is known to draw differently from
MapLibre GL JS, which glmap follows, and draws *variants* of the style that remove exactly those
places. A failure counts as a Native quirk only when a variant verifies it:

- removals that GL JS draws identically (the variant's GL JS image is the original's): MapLibre
  Native draws the variant, and glmap's ORIGINAL image must agree with that drawing under the rule;
  glmap also draws the variant, which must give its original image again (no pixel more than 2
  levels off; else the removal is not exact for glmap and the case is not verified);
  - `native-maxzoom-simplification`: `"tolerance": 0` on every source whose tile zoom is its
    maxzoom (floor(zoom) >= maxzoom, 18 by default). geojson-vt (GL JS) keeps every point at the
    maxzoom; geojson-vt-cpp keeps only the points whose simplification importance exceeds 0 there,
    which drops what the maxzoom simplification ranked 0; with tolerance 0 it drops only collinear
    points.
  - `native-multipoint-joined`: MultiPoints (and MultiPoint members of GeometryCollections) left
    out of the sources of fill and line layers (a copy of the source where other layers use it):
    GL JS makes each point its own one-point ring, which no fill or line draws.
  - `native-multipolygon-overlap`: each MultiPolygon of a fill or line layer's source split into
    one Polygon feature per part (same properties and id): GL JS fills every part on its own and
    strokes every ring on its own either way (Native's polygon fix-up unions overlapping parts,
    which changes the rings a line layer strokes too).
  - `circle-tile-edge`: circle layers read a copy of their source with `"buffer": 0` (point-only
    sources, or with the next removal): each point then lies in one tile only, as GL JS draws it.
  - `native-circle-clip-points`: circle layers over lines and polygons read a copy with one
    feature per geometry (GeometryCollections split, as geojson-vt splits them) whose geometry is
    a MultiPoint of the vertices GL JS keeps at the tile zoom (geojson-vt's Douglas-Peucker
    importances and tolerance reproduced below; every vertex at the maxzoom; rings with their
    closing point), the geometry type kept in a property `__gt` that the layer's `geometry-type`
    and `$type` read instead: the points geojson-vt adds where it cuts a line at a tile buffer,
    which Native draws circles at, are gone.
  - `native-float32-zoom`: Native evaluates the style at float32(zoom), GL JS at the double; every
    number of the layers lying between the two (a zoom step stop at the camera zoom, say) moved to
    GL JS's side of both (float32(zoom) itself where it is below the zoom, the float32 above it
    otherwise), so both take the side GL JS takes; the camera does not move.
  - `native-tied-sort-keys-reversed`: a `fill-`/`line-`/`circle-sort-key` that is the same for every
    feature (a constant, an expression of the zoom only, or a data expression whose value, computed
    per feature as GL JS computes it, is one number for every feature the layer may draw) left out;
    a data-driven key under which features tie replaced by each feature's rank in GL JS's order
    (key, world copy, source order; a `__sk` property of a copy of the source, MultiPoints split
    by world copy) — distinct keys, which both draw in that order: Native inserts each feature
    before the ones with an equal key (ties drawn in reverse), GL JS sorts only data-driven keys,
    stably, so without the key both draw source order, as GL JS does with it.
  - `native-gradient-multilinestring`: line layers with `line-gradient` read a copy of their source
    with every GeometryCollection split into one feature a member and every MultiLineString into
    one LineString feature a part (same properties and id, same order): geojson-vt explodes them
    so when `lineMetrics` is on, geojson-vt-cpp does not (nor a line that a tile cuts inside a
    collection), which leaves those parts without progress.
  - `native-multilinestring-kept-whole`: fill layers over a `lineMetrics` source read a copy with
    every GeometryCollection split into one feature a member and every MultiLineString into one
    LineString feature a part (same properties and id, same order), as geojson-vt's convert.js
    makes them; geojson-vt-cpp keeps a MultiLineString (and a LineString a tile cuts inside a
    collection) as one tile feature, whose lines the fill bucket then classifies as one polygon.
- `native-ring-start` (glmap-side, the reverse direction of the others): Native restarts every
  polygon ring in its polygon fix-up (wagyu) at the ring's northernmost vertex; glmap draws the
  style with the rings of line layers' sources rotated to start there, which must agree with
  Native's ORIGINAL image (or its drawing of the other removals' variant); Native also draws the
  rotated style, which must give its own image again (no pixel more than 2 levels off), or the
  rotation is not what Native does for the case and it is not verified.
- `native-zero-area-ring-dropped` (glmap-side too): a polygon ring that geojson-vt's simplification
  at the tile zoom leaves as A, C, A (zero area) is stroked back and forth by GL JS's line bucket
  and fill outline, while Native's polygon fix-up removes it; glmap draws the style with those
  rings left out of line and fill layers' sources (a polygon whose outer ring collapses with its
  holes), judged like the ring start (Native must draw that style as its original).
  Where glmap-side edits or emulations are candidates, round 1 also tries the others without
  each combination of them.
- emulated in glmap (no removal exists: the difference is in how Native tessellates, not in the
  style): glmap draws the ORIGINAL style (or the other removals' variant) with one of Native's
  behaviours emulated (`glmap-bench differential --emulate-native NAME`, GPU; glmap's default
  drawing does not change) and must agree with Native's image of the same style; the emulation
  must also change glmap's image (some pixel by more than 2 levels), else it explains nothing:
  - `native-earcut-2.2` (`earcut22`): fills triangulated by Native's earcut.hpp 2.2 (holes ordered
    by x alone, 2.2.4's bridge search, its start node moved on after every hole; GL JS: earcut
    3.0), for fill layers over anything but points;
  - `native-int8-direction` (`int8-direction`): the join direction flag truncated to int8 (0 at
    the inner vertices of bevel / round joins turning < 90°), which `line-offset` reads; for line
    layers with a `line-offset`;
  - `native-miter-clamp` (`miter-clamp`): extrusions clamped to Native's vertex byte (about 2.02
    half widths; GL JS wraps it), for line layers with a `line-miter-limit` above 2 (or an
    expression);
  - `native-ring-start-per-tile` (`ring-start`): every tile piece of a polygon ring (and every
    ring drawn whole) restarted at its northernmost vertex, as Native's polygon fix-up does to
    each tile's clipped ring (so the dash phase and ring progress start there; GL JS keeps
    geojson-vt's order, and the style-level `rs` can rotate whole rings only), for line layers
    with `line-dasharray` or `line-gradient` over polygons;
  - `native-dash-rows` (`dash-rows`): Native's two-row dash texture, whose filtering mixes half
    of the cross-faded "from" pattern into one edge of the line (½·max(0, normal.y); GL JS reads
    the "to" row only), for line layers whose `line-dasharray` depends on the zoom.
- `native-outline-width` (Native draws the fill-antialias outline as 2-px GL lines, GL JS 1 px):
  both renderers draw the style with `fill-antialias` false on every fill layer and must agree;
  and every pixel where the original pair differs (after the other removals) must lie within 2 px
  of a pixel that glmap's outline changes AND of one that Native's outline changes, except for as
  many stray pixels as the rule allows (so a missing, extra or misplaced glmap outline still fails).

All suspected removals of a case are applied together first; for a case that verifies with two or
more, every smaller combination is drawn too and the smallest that still verifies is reported.
Writes RUN_DIR/second-opinion.tsv (id, fraction, candidates, verdict, quirks, variant fraction,
notes), read by classify.py --second-opinion. Images: RUN_DIR/second-opinion/native/<id>~<key>/
(the variant's style.json and Native's expected.png; kept between runs, redrawn only when the
variant's style changes) and RUN_DIR/second-opinion/pairs-<round>[-<emulation>]/ (what glmap
drew, its diff; one folder per set of emulated behaviours).
"""
from __future__ import annotations

import argparse
import copy
import itertools
import json
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402  (MapLibre Native's worker pool; never destroys a Map)
from classify import read_results  # noqa: E402  (the results.tsv reader)

RULE = 0.00025
OUTLINE_RADIUS = 2

# (code, quirk name, invariant under GL JS). Order = the order the removals are applied and named.
REMOVALS = [
    ("mz", "native-maxzoom-simplification", True),
    ("mp", "native-multipoint-joined", True),
    ("mpo", "native-multipolygon-overlap", True),
    ("cv", "native-circle-clip-points", True),
    ("cb", "circle-tile-edge", True),
    ("fz", "native-float32-zoom", True),
    ("sk", "native-tied-sort-keys-reversed", True),
    ("lg", "native-gradient-multilinestring", True),
    ("lm", "native-multilinestring-kept-whole", True),
    ("rs", "native-ring-start", False),
    ("za", "native-zero-area-ring-dropped", False),
    ("ec", "native-earcut-2.2", False),
    ("id", "native-int8-direction", False),
    ("mc", "native-miter-clamp", False),
    ("rt", "native-ring-start-per-tile", False),
    ("dr", "native-dash-rows", False),
    ("aa", "native-outline-width", False),
]
NAME = {c: n for c, n, _ in REMOVALS}
INVARIANT = {c for c, _, inv in REMOVALS if inv}
GLMAP_SIDE = frozenset({"rs", "za"})     # variants that glmap draws, against Native's original
# Native behaviours glmap emulates (`glmap-bench differential --emulate-native`), the style unchanged.
EMULATED = {"ec": "earcut22", "id": "int8-direction", "mc": "miter-clamp", "rt": "ring-start", "dr": "dash-rows"}
ORDER = [c for c, _, _ in REMOVALS]


# --- the style -----------------------------------------------------------------------------------

def leaves(geom):
    if geom is None:
        return []
    if geom["type"] == "GeometryCollection":
        return [g for k in geom.get("geometries", []) for g in leaves(k)]
    return [geom]


def features(src):
    data = src.get("data")
    if isinstance(data, dict) and data.get("type") == "FeatureCollection":
        return data.get("features", [])
    if isinstance(data, dict) and data.get("type") == "Feature":
        return [data]
    return []


def visible(layer, zoom):
    if layer.get("layout", {}).get("visibility") == "none":
        return False
    return layer.get("minzoom", 0) <= zoom < layer.get("maxzoom", 1e9)


def at_maxzoom(src, zoom):
    return math.floor(zoom) >= src.get("maxzoom", 18)


def uses_geometry_type(layer):
    text = json.dumps([layer.get("filter"), layer.get("paint"), layer.get("layout")])
    return "$type" in text or "geometry-type" in text


def drawn_layers(style):
    z = float(style.get("zoom", 0))
    return [l for l in style["layers"] if l["type"] != "background" and visible(l, z) and l.get("source") in style["sources"]]


# --- the removals added in round 2 -----------------------------------------------------------------

def float32(x):
    import struct
    return struct.unpack("<f", struct.pack("<f", x))[0]


def float32_neighbour(f, up):
    """The float32 next to the float32 value f, upward or downward."""
    import struct
    bits = struct.unpack("<i", struct.pack("<f", f))[0]
    if f == 0:
        return float32(1e-45) if up else -float32(1e-45)
    bits += 1 if (up == (f > 0)) else -1
    return struct.unpack("<f", struct.pack("<i", bits))[0]


def numbers(node):
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return [float(node)]
    if isinstance(node, list):
        return [x for k in node for x in numbers(k)]
    if isinstance(node, dict):
        return [x for k in node.values() for x in numbers(k)]
    return []


def float32_zoom(style):
    """MapLibre Native evaluates a style at float32(zoom) (its PropertyEvaluationParameters hold a
    float z); GL JS at the double. Where a number of the layers (a zoom step or function stop, a
    zoom comparison, minzoom / maxzoom) lies between the two, Native takes the other side of it.
    Returns (test, replacement): the numbers for which `test` holds lie between, and `replacement`
    is a number on the same side of both zooms as GL JS puts them (float32(z) itself where it is
    below z, the float32 above it where it is above z); None when no number lies between. The
    camera stays where it is; only those numbers move, by 1e-7 or so."""
    z = float(style.get("zoom", 0))
    zf = float32(z)
    if zf == z:
        return None
    if zf < z:
        test, repl = (lambda x: zf < x <= z), zf                    # GL JS: z >= x; Native did not
    else:
        test, repl = (lambda x: z < x <= zf), float32_neighbour(zf, up=True)   # GL JS: z < x; Native did not
    nums = numbers([[l.get("filter"), l.get("paint"), l.get("layout"), l.get("minzoom"), l.get("maxzoom")] for l in style["layers"]])
    if not any(test(x) for x in nums):
        return None
    return test, repl


def move_numbers(node, test, repl):
    if isinstance(node, bool):
        return node
    if isinstance(node, (int, float)):
        return repl if test(float(node)) else node
    if isinstance(node, list):
        return [move_numbers(k, test, repl) for k in node]
    if isinstance(node, dict):
        return {k: move_numbers(v, test, repl) for k, v in node.items()}
    return node


DATA_OPS = ('"get"', '"has"', '"id"', '"properties"', '"geometry-type"', '"feature-state"', '"property"', '"$type"')

SORT_KEYS = {"fill": "fill-sort-key", "line": "line-sort-key", "circle": "circle-sort-key"}


def tied_sort_key(layer, style=None):
    """A sort key that gives every feature the same value: a constant, a zoom-only expression, or
    (given the style) a data expression whose value, computed as GL JS computes it (`key_value`),
    is one number for every feature the layer may draw. MapLibre Native inserts each feature before the ones of equal key (pattern_layout.hpp,
    circle_layout.hpp: lower_bound), so it draws ties in reverse; GL JS sorts data-driven keys
    stably and does not sort the others, so it draws source order either way: without the key both
    draw source order."""
    name = SORT_KEYS.get(layer["type"])
    v = layer.get("layout", {}).get(name) if name else None
    if v is None:
        return False
    if not any(op in json.dumps(v) for op in DATA_OPS):
        return True
    if style is None:
        return False
    keys = sort_keys(layer, style)
    return bool(keys) and len({k for _, k in keys}) == 1


class Unknown(Exception):
    """An expression `key_value` does not evaluate (the removal is then not tried)."""


def key_value(e, props, gtype, env=None):
    """A sort key's value for one feature as GL JS computes it (doubles), for the forms the
    generator writes: numbers, get / has / coalesce / case / match / let / var / comparisons /
    arithmetic / interpolate and step over data, legacy property functions; Unknown otherwise.
    None stands for null."""
    env = env or {}
    if isinstance(e, bool) or isinstance(e, str) or e is None:
        return e
    if isinstance(e, (int, float)):
        return float(e)
    if isinstance(e, dict):
        if "property" not in e or e.get("type") not in (None, "interval", "categorical"):
            raise Unknown()
        x = props.get(e["property"])
        stops = e.get("stops", [])
        if e.get("type") == "categorical":
            out = next((v for k, v in stops if k == x and not isinstance(x, bool)), e.get("default"))
        elif isinstance(x, bool) or not isinstance(x, (int, float)):
            out = e.get("default")
        else:
            out = None
            for k, v in stops:
                if k <= x:
                    out = v
            out = stops[0][1] if out is None and stops else out
        if out is None or isinstance(out, bool) or not isinstance(out, (int, float)):
            raise Unknown()
        return float(out)
    if not isinstance(e, list) or not e or not isinstance(e[0], str):
        raise Unknown()
    op, a = e[0], e[1:]
    ev = lambda k: key_value(k, props, gtype, env)
    num = lambda k: _number(ev(k))
    if op == "literal":
        return a[0]
    if op == "get" and len(a) == 1 and isinstance(a[0], str):
        v = props.get(a[0])
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    if op == "has" and len(a) == 1:
        return a[0] in props
    if op == "!":
        return not ev(a[0])
    if op == "geometry-type":
        if gtype is None:
            raise Unknown()
        return gtype
    if op == "coalesce":
        for k in a:
            v = ev(k)
            if v is not None:
                return v
        return None
    if op == "case":
        for k in range(0, len(a) - 1, 2):
            if ev(a[k]) is True:
                return ev(a[k + 1])
        return ev(a[-1])
    if op == "match":
        x = ev(a[0])
        for k in range(1, len(a) - 1, 2):
            labels = a[k] if isinstance(a[k], list) else [a[k]]
            if x in labels and not isinstance(x, bool):
                return ev(a[k + 1])
        return ev(a[-1])
    if op == "let":
        inner = dict(env)
        for k in range(0, len(a) - 1, 2):
            inner[a[k]] = key_value(a[k + 1], props, gtype, env)
        return key_value(a[-1], props, gtype, inner)
    if op == "var":
        if a[0] not in env:
            raise Unknown()
        return env[a[0]]
    if op == "in":
        x, hay = ev(a[0]), ev(a[1])
        return isinstance(hay, list) and x in hay
    if op in ("==", "!="):
        x, y = ev(a[0]), ev(a[1])
        return (x == y) == (op == "==")
    if op in ("<", ">", "<=", ">="):
        x, y = ev(a[0]), ev(a[1])
        if type(x) is not type(y) or not isinstance(x, (float, str)):
            raise Unknown()    # GL JS throws: the property's default then
        return {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
    if op in ("+", "*", "min", "max") and a:
        vs = [num(k) for k in a]
        out = vs[0]
        for v in vs[1:]:
            out = out + v if op == "+" else out * v if op == "*" else min(out, v) if op == "min" else max(out, v)
        return out
    if op in ("-", "/", "%", "^") and len(a) == 2:
        x, y = num(a[0]), num(a[1])
        if op == "-":
            return x - y
        if op == "^":
            return x ** y
        if y == 0:
            raise Unknown()
        return x / y if op == "/" else math.fmod(x, y)
    if op in ("abs", "floor", "ceil", "round", "sqrt") and len(a) == 1:
        x = num(a[0])
        if op == "round":      # JS Math.round for the sign GL JS uses: away from zero at .5
            return float(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)
        if op == "sqrt" and x < 0:
            raise Unknown()
        return {"abs": abs, "floor": math.floor, "ceil": math.ceil, "sqrt": math.sqrt}[op](x) * 1.0
    if op == "to-string" and len(a) == 1:
        v = ev(a[0])
        if isinstance(v, str):
            return v
        raise Unknown()
    if op == "length" and len(a) == 1:
        v = ev(a[0])
        if isinstance(v, (str, list)):
            return float(len(v))
        raise Unknown()
    if op in ("interpolate", "step"):
        x = ev(a[1] if op == "interpolate" else a[0])
        if isinstance(x, bool) or not isinstance(x, float):
            raise Unknown()
        rest = a[2:] if op == "interpolate" else a[1:]
        if op == "step":
            outs, stops = rest[0::2], rest[1::2]
            i = 0
            while i < len(stops) and stops[i] <= x:
                i += 1
            return num(outs[i])
        kind = a[0]
        stops, outs = rest[0::2], rest[1::2]
        if not (isinstance(kind, list) and kind and kind[0] in ("linear", "exponential")):
            raise Unknown()
        if x <= stops[0]:
            return num(outs[0])
        if x >= stops[-1]:
            return num(outs[-1])
        i = max(k for k in range(len(stops)) if stops[k] <= x)
        lo, hi, ya, yb = float(stops[i]), float(stops[i + 1]), num(outs[i]), num(outs[i + 1])
        base = float(kind[1]) if kind[0] == "exponential" and len(kind) > 1 else 1.0
        diff, prog = hi - lo, x - lo
        t = 0.0 if diff == 0 else prog / diff if base == 1 else (base ** prog - 1) / (base ** diff - 1)
        return ya * (1 - t) + yb * t
    raise Unknown()


def _number(v):
    if isinstance(v, bool) or not isinstance(v, float):
        raise Unknown()
    return v


def sort_keys(layer, style):
    """[(feature index, key)] for the features of the layer's source that its filter may pass, or
    None when a key does not evaluate. A GeometryCollection has no single tile type: Unknown for
    `geometry-type`."""
    name = SORT_KEYS.get(layer["type"])
    v = layer.get("layout", {}).get(name) if name else None
    if v is None or layer.get("source") not in style["sources"]:
        return None
    out = []
    for i, f in enumerate(features(style["sources"][layer["source"]])):
        props = f.get("properties") or {}
        if not may_pass(layer.get("filter"), props):
            continue
        g = f.get("geometry") or {}
        gtype = props.get("__gt") or SINGULAR.get(g.get("type"))
        try:
            k = key_value(v, props, gtype)
        except (Unknown, TypeError, ValueError, OverflowError, IndexError):
            return None
        if isinstance(k, bool) or not isinstance(k, float):
            return None
        out.append((i, k))
    return out


def tied_data_sort_key(layer, style):
    """A data-driven sort key under which two features the layer may draw tie (and not all do:
    that is `tied_sort_key`)."""
    keys = sort_keys(layer, style)
    if not keys:
        return False
    values = [k for _, k in keys]
    return len(set(values)) < len(values) and len(set(values)) > 1


def world_copy(lon):
    return math.floor((lon + 180.0) / 360.0)


def rank_sort_keys(style, layer):
    """The layer reads a copy of its source whose features carry `__sk`, their rank in GL JS's
    drawing order (key, then world copy — geojson-vt puts the copies it wraps from the left before
    the others and those from the right after them — then source order), and sorts by it: distinct
    keys, so Native's tie order no longer matters. Points are split by world copy; a line or
    polygon that spans two copies leaves the layer as it is (False)."""
    src = own_source(style, layer, "rank")
    entries = []
    for i, f in enumerate(features(src)):
        g = f.get("geometry") or {}
        props = f.get("properties") or {}
        gtype = props.get("__gt") or SINGULAR.get(g.get("type"))
        try:
            k = key_value(layer["layout"][SORT_KEYS[layer["type"]]], props, gtype)
        except (Unknown, TypeError, ValueError, OverflowError, IndexError):
            k = None
        if not isinstance(k, float):
            k = math.inf if not may_pass(layer.get("filter"), props) else None
        if k is None:
            return False
        if g.get("type") == "MultiPoint":
            byc = {}
            for p in g["coordinates"]:
                byc.setdefault(world_copy(p[0]), []).append(p)
            for c in sorted(byc):
                entries.append((k, c, i, with_geometry(f, {"type": "MultiPoint", "coordinates": byc[c]})))
            continue
        copies = {world_copy(p[0]) for p in positions(g)}
        if len(copies) > 1:
            return False
        entries.append((k, copies.pop() if copies else 0, i, f))
    order = sorted(range(len(entries)), key=lambda n: entries[n][:3])
    rank = {n: r for r, n in enumerate(order)}
    out = []
    for n, (_, _, _, f) in enumerate(entries):
        nf = dict(f)
        nf["properties"] = dict(f.get("properties") or {}, __sk=rank[n])
        out.append(nf)
    src["data"]["features"] = out
    layer["layout"][SORT_KEYS[layer["type"]]] = ["get", "__sk"]
    return True


def positions(g):
    if not g:
        return []
    t, c = g.get("type"), g.get("coordinates")
    if t == "GeometryCollection":
        return [p for k in g.get("geometries", []) for p in positions(k)]
    if t == "Point":
        return [c]
    if t in ("MultiPoint", "LineString"):
        return c
    if t in ("MultiLineString", "Polygon"):
        return [p for r in c for p in r]
    if t == "MultiPolygon":
        return [p for poly in c for r in poly for p in r]
    return []


def may_pass(filt, props):
    """False only where the layer's filter surely rejects the feature: `has` / `!has` of a
    property, a legacy comparison of a property with a number (false when the property is missing
    or not a number, as in GL JS's legacy filters), and `all` of such parts."""
    if not isinstance(filt, list) or not filt:
        return True
    op = filt[0]
    if op in ("has", "!has") and len(filt) == 2 and isinstance(filt[1], str):
        return (filt[1] in props) == (op == "has")
    if op in ("<", ">", "<=", ">=") and len(filt) == 3 and isinstance(filt[1], str) and not filt[1].startswith("$") \
            and isinstance(filt[2], (int, float)) and not isinstance(filt[2], bool):
        x = props.get(filt[1])
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return False
        return {"<": x < filt[2], ">": x > filt[2], "<=": x <= filt[2], ">=": x >= filt[2]}[op]
    if op == "all":
        return all(may_pass(k, props) for k in filt[1:])
    return True


def gradient_multilines(style, layer):
    if layer["type"] != "line" or "line-gradient" not in layer.get("paint", {}):
        return False
    return lines_kept_together(style["sources"][layer["source"]])


def lines_kept_together(src):
    """The source has a MultiLineString, or a line in a GeometryCollection: lines that geojson-vt
    (GL JS, lineMetrics) makes features of their own and geojson-vt-cpp may keep as one."""
    for f in features(src):
        g = f.get("geometry") or {}
        if g.get("type") == "MultiLineString":
            return True
        if g.get("type") == "GeometryCollection" and any(k["type"] in ("LineString", "MultiLineString") for k in leaves(g)):
            return True
    return False


def one_feature_a_line(feats):
    """The features as geojson-vt's convert.js makes them with lineMetrics: every GeometryCollection
    member its own feature and every MultiLineString one LineString feature a part (same
    properties and id, same order)."""
    out = []
    for f in feats:
        g = f.get("geometry")
        parts = leaves(g) if g and g["type"] == "GeometryCollection" else [g]
        for part in parts:
            for piece in (explode_multilines(part) if part else [part]):
                out.append(with_geometry(f, piece))
    return out


def fill_lines_kept_whole(style, layer):
    """A fill layer over a `lineMetrics` source with a MultiLineString, or a LineString in a
    GeometryCollection: geojson-vt (GL JS) makes each of those lines its own feature (convert.js),
    so fill_bucket's classifyRings sees one ring a feature; geojson-vt-cpp keeps a MultiLineString
    as one tile feature (and a LineString that a tile cuts inside a collection as one
    multi-line), whose rings then become holes of each other or are dropped together."""
    if layer["type"] != "fill":
        return False
    src = style["sources"][layer["source"]]
    return bool(src.get("lineMetrics")) and lines_kept_together(src)


def explode_multilines(geom):
    """A MultiLineString as geojson-vt (GL JS, lineMetrics) converts it: one LineString a part."""
    if geom["type"] == "MultiLineString":
        return [{"type": "LineString", "coordinates": c} for c in geom["coordinates"]]
    return [geom]


def with_geometry(feature, geometry):
    """A copy of the feature (its id, properties and other members) with another geometry."""
    copy_ = {k: v for k, v in feature.items() if k != "geometry"}
    copy_["geometry"] = geometry
    return copy_


def dashed_over_rings(style, layer):
    if layer["type"] != "line":
        return False
    src = style["sources"][layer["source"]]
    return any(g["type"] in ("Polygon", "MultiPolygon") for f in features(src) for g in leaves(f.get("geometry")))


def collapsed(ring, src, z):
    """True when geojson-vt's simplification at tile zoom z leaves the ring as A, C, A: a ring
    without area, which GL JS's line bucket strokes back and forth (and its fill outline draws)
    while Native's polygon fix-up removes it."""
    kept = kept_positions(ring, True, src, min(math.floor(z), src.get("maxzoom", 18)))
    return len(kept) == 3 and len(ring) > 3


def collapsing_rings(src, zoom):
    for f in features(src):
        for g in leaves(f.get("geometry")):
            polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"] if g["type"] == "MultiPolygon" else []
            if any(collapsed(r, src, zoom) for p in polys for r in p):
                return True
    return False


def drop_collapsed(geom, src, zoom):
    """The geometry without the rings simplification collapses (a polygon whose outer ring
    collapses goes with its holes); None when nothing is left."""
    if geom is None:
        return None
    t = geom["type"]
    if t == "GeometryCollection":
        kept = [k for k in (drop_collapsed(g, src, zoom) for g in geom.get("geometries", [])) if k]
        return dict(geom, geometries=kept) if kept else None
    if t == "Polygon":
        p = [r for r in geom["coordinates"] if not collapsed(r, src, zoom)]
        return dict(geom, coordinates=p) if p and p[0] is geom["coordinates"][0] else None
    if t == "MultiPolygon":
        parts = []
        for poly in geom["coordinates"]:
            p = [r for r in poly if not collapsed(r, src, zoom)]
            if p and p[0] is poly[0]:
                parts.append(p)
        return dict(geom, coordinates=parts) if parts else None
    return geom


def ring_from_top(ring):
    """A closed ring rotated to start (and end) at its northernmost vertex (the first of them)."""
    if len(ring) < 4 or ring[0] != ring[-1]:
        return ring
    body = ring[:-1]
    i = max(range(len(body)), key=lambda k: (body[k][1], -k))
    out = body[i:] + body[:i]
    return out + [out[0]]


def rotate_rings(geom):
    if geom is None:
        return
    if geom["type"] == "GeometryCollection":
        for g in geom.get("geometries", []):
            rotate_rings(g)
    elif geom["type"] == "Polygon":
        geom["coordinates"] = [ring_from_top(r) for r in geom["coordinates"]]
    elif geom["type"] == "MultiPolygon":
        geom["coordinates"] = [[ring_from_top(r) for r in p] for p in geom["coordinates"]]


def candidates(style):
    """The removals that apply to this style (codes), each a place where Native may draw differently."""
    z = float(style.get("zoom", 0))
    srcs = style["sources"]
    layers = drawn_layers(style)
    out = set()
    for l in layers:
        src = srcs[l["source"]]
        kinds = {g["type"] for f in features(src) for g in leaves(f.get("geometry"))}
        non_point = kinds - {"Point", "MultiPoint"}
        if non_point and at_maxzoom(src, z):
            out.add("mz")
        if l["type"] in ("fill", "line") and "MultiPoint" in kinds:
            out.add("mp")
        if l["type"] in ("fill", "line") and any(f.get("geometry", {}) and f["geometry"]["type"] == "MultiPolygon"
                                                 and len(f["geometry"]["coordinates"]) > 1 for f in features(src)):
            out.add("mpo")
        if l["type"] == "fill" and l.get("paint", {}).get("fill-antialias", True) is not False:
            out.add("aa")
        if l["type"] == "circle":
            if non_point:
                out.add("cv")
            out.add("cb")
        if tied_sort_key(l, style) or tied_data_sort_key(l, style):
            out.add("sk")
        if gradient_multilines(style, l):
            out.add("lg")
        if fill_lines_kept_whole(style, l):
            out.add("lm")
        if dashed_over_rings(style, l):
            out.add("rs")
        if l["type"] in ("line", "fill") and collapsing_rings(src, z):
            out.add("za")
        if l["type"] == "fill" and non_point:
            out.add("ec")
        if l["type"] == "line" and "line-offset" in l.get("paint", {}):
            out.add("id")
        if l["type"] == "line" and miter_beyond_byte(l):
            out.add("mc")
        if dashed_over_rings(style, l) and any(p in l.get("paint", {}) for p in ("line-dasharray", "line-gradient")):
            out.add("rt")
        if l["type"] == "line" and zoom_dependent(l.get("paint", {}).get("line-dasharray")):
            out.add("dr")
    if float32_zoom(style) is not None:
        out.add("fz")
    return out


def miter_beyond_byte(layer):
    """Whether the layer's miters may be longer than Native's extrusion byte holds (a
    `line-miter-limit` above 2, or one that is not a plain number)."""
    v = layer.get("layout", {}).get("line-miter-limit")
    if v is None:
        return False
    return not isinstance(v, (int, float)) or isinstance(v, bool) or v > 2


def zoom_dependent(value):
    """Whether a property value changes with the zoom (a legacy function with stops and no
    property, or an expression that reads ["zoom"]): so its cross-faded "from" may differ."""
    if isinstance(value, dict):
        return "stops" in value and "property" not in value
    if isinstance(value, list):
        if value and value[0] == "zoom":
            return True
        return any(zoom_dependent(v) for v in value if isinstance(v, list))
    return False


def emulation(subset):
    """The `--emulate-native` names of the emulations in a subset (\"\" for none)."""
    return ",".join(EMULATED[c] for c in ORDER if c in subset and c in EMULATED)


def valid(subset, style):
    """A set of removals is exact when every circle layer given buffer 0 reads only points."""
    if "cb" not in subset:
        return True
    z = float(style.get("zoom", 0))
    for l in drawn_layers(style):
        if l["type"] != "circle":
            continue
        src = style["sources"][l["source"]]
        kinds = {g["type"] for f in features(src) for g in leaves(f.get("geometry"))}
        if kinds - {"Point", "MultiPoint"} and "cv" in subset:
            return True     # its vertices become points: fine
        if not (kinds - {"Point", "MultiPoint"}):
            return True
    return False


SINGULAR = {"Point": "Point", "MultiPoint": "Point", "LineString": "LineString", "MultiLineString": "LineString",
            "Polygon": "Polygon", "MultiPolygon": "Polygon"}


def read_type_from_property(node):
    """`["geometry-type"]` → `["get", "__gt"]` and legacy `"$type"` → `"__gt"` (the converted
    features carry their tile geometry type, the singular form GL JS reports, in __gt)."""
    if node == ["geometry-type"]:
        return ["get", "__gt"]
    if node == "$type":
        return "__gt"
    if isinstance(node, list):
        return [read_type_from_property(k) for k in node]
    if isinstance(node, dict):
        return {k: read_type_from_property(v) for k, v in node.items()}
    return node


def own_source(style, layer, suffix):
    """Points `layer` at a copy of its source (one copy per source and suffix) and returns it; a
    layer already on its `~suffix` copy keeps it."""
    sid = layer["source"]
    if sid.endswith(f"~{suffix}"):
        return style["sources"][sid]
    new = f"{sid}~{suffix}"
    if new not in style["sources"]:
        style["sources"][new] = copy.deepcopy(style["sources"][sid])
    layer["source"] = new
    return style["sources"][new]


# geojson-vt (GL JS's GeoJSON tiler), as far as it decides which vertices a tile keeps: positions
# are projected to [0, 1]², every line and ring gets Douglas-Peucker importances at the source's
# maxzoom tolerance (first and last position 1), and a tile at zoom z < maxzoom keeps a position
# when its importance exceeds the squared tolerance at z, dropping lines shorter than the tolerance
# and rings of smaller area; at the maxzoom it keeps every position. GL JS's source passes
# tolerance (0.375 by default) × 16 and extent 8192 (EXTENT / tile size 512).
EXTENT = 8192


def project_x(lon):
    return lon / 360 + 0.5


def project_y(lat):
    s = math.sin(lat * math.pi / 180)
    y = 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi
    return 0.0 if y < 0 else 1.0 if y > 1 else y


def sq_seg_dist(px, py, x, y, bx, by):
    dx, dy = bx - x, by - y
    if dx != 0 or dy != 0:
        t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
        if t > 1:
            x, y = bx, by
        elif t > 0:
            x += dx * t
            y += dy * t
    dx, dy = px - x, py - y
    return dx * dx + dy * dy


def importances(xs, ys, sq_tol):
    """Douglas-Peucker importance of every position (geojson-vt's simplify, its tie-break included)."""
    imp = [0.0] * len(xs)
    stack = [(0, len(xs) - 1)]
    while stack:
        first, last = stack.pop()
        # (geojson-vt counts in a flat x, y, importance array: three entries a position)
        max_d, mid, min_pos, index = sq_tol, 3 * first + ((3 * last - 3 * first) >> 1), 3 * (last - first), None
        for i in range(first + 1, last):
            d = sq_seg_dist(xs[i], ys[i], xs[first], ys[first], xs[last], ys[last])
            if d > max_d:
                index, max_d = i, d
            elif d == max_d:
                pos = abs(3 * i - mid)
                if pos < min_pos:
                    index, min_pos = i, pos
        if max_d > sq_tol:
            imp[index] = max_d
            if index - first > 1:
                stack.append((first, index))
            if last - index > 1:
                stack.append((index, last))
    if imp:
        imp[0] = imp[-1] = 1.0
    return imp


def kept_positions(ring, polygon, src, z):
    maxzoom = src.get("maxzoom", 18)
    if z >= maxzoom:
        return list(ring)
    opt = src.get("tolerance", 0.375) * 16
    xs = [project_x(p[0]) for p in ring]
    ys = [project_y(p[1]) for p in ring]
    imp = importances(xs, ys, (opt / ((1 << maxzoom) * EXTENT)) ** 2)
    size = 0.0
    for j in range(1, len(ring)):
        if polygon:
            size += (xs[j - 1] * ys[j] - xs[j] * ys[j - 1]) / 2
        else:
            size += math.sqrt((xs[j] - xs[j - 1]) ** 2 + (ys[j] - ys[j - 1]) ** 2)
    size = abs(size)
    tol = opt / ((1 << z) * EXTENT)
    sq = tol * tol
    if tol > 0 and size < (sq if polygon else tol):
        return []
    return [p for p, i in zip(ring, imp) if tol == 0 or i > sq]


def js_vertices(geom, src, zoom):
    """The vertices of a geometry that GL JS's circle layer draws at this zoom (rings keep their
    closing position, which geojson-vt keeps: GL JS draws a circle there twice)."""
    z = min(math.floor(zoom), src.get("maxzoom", 18))
    pts = []
    for g in leaves(geom):
        t, c = g["type"], g["coordinates"]
        if t == "Point":
            pts.append(c)
        elif t == "MultiPoint":
            pts.extend(c)
        elif t == "LineString":
            pts.extend(kept_positions(c, False, src, z))
        elif t == "MultiLineString":
            pts.extend(p for line in c for p in kept_positions(line, False, src, z))
        elif t == "Polygon":
            pts.extend(p for ring in c for p in kept_positions(ring, True, src, z))
        elif t == "MultiPolygon":
            pts.extend(p for poly in c for ring in poly for p in kept_positions(ring, True, src, z))
    return pts


def variant(style, subset):
    """The style with the removals in `subset` applied (a new dict)."""
    s = copy.deepcopy(style)
    z = float(s.get("zoom", 0))
    s.setdefault("metadata", {})["second-opinion"] = {"removals": [NAME[c] for c in ORDER if c in subset]}
    layers = drawn_layers(s)
    if "mz" in subset:
        for l in layers:
            src = s["sources"][l["source"]]
            if at_maxzoom(src, z):
                src["tolerance"] = 0
    if "mp" in subset:
        for l in layers:
            if l["type"] not in ("fill", "line"):
                continue
            if not any("MultiPoint" in {g["type"] for g in leaves(f.get("geometry"))} for f in features(s["sources"][l["source"]])):
                continue
            src = own_source(s, l, "nomp")
            kept = []
            for f in features(src):
                g = f.get("geometry")
                if g and g["type"] == "MultiPoint":
                    continue
                if g and g["type"] == "GeometryCollection":
                    members = [k for k in g.get("geometries", []) if k["type"] != "MultiPoint"]
                    if not members:
                        continue
                    g["geometries"] = members
                kept.append(f)
            src["data"]["features"] = kept
    if "mpo" in subset:
        for l in layers:
            if l["type"] not in ("fill", "line"):
                continue
            if not any(f.get("geometry") and f["geometry"]["type"] == "MultiPolygon" for f in features(s["sources"][l["source"]])):
                continue
            src = own_source(s, l, "split")
            out = []
            for f in features(src):
                g = f.get("geometry")
                if g and g["type"] == "MultiPolygon":
                    for part in g["coordinates"]:
                        out.append(with_geometry(f, {"type": "Polygon", "coordinates": part}))
                else:
                    out.append(f)
            src["data"]["features"] = out
    if "cv" in subset or "cb" in subset:
        for l in layers:
            if l["type"] != "circle":
                continue
            src0 = s["sources"][l["source"]]
            kinds = {g["type"] for f in features(src0) for g in leaves(f.get("geometry"))}
            convert = "cv" in subset and bool(kinds - {"Point", "MultiPoint"})
            buffer0 = "cb" in subset and (not (kinds - {"Point", "MultiPoint"}) or convert)
            if not (convert or buffer0):
                continue
            suffix = ("pts" if convert else "") + ("b0" if buffer0 else "")
            src = own_source(s, l, suffix)
            if convert:
                # One feature per leaf geometry (as geojson-vt splits a GeometryCollection), its
                # kept vertices as a MultiPoint, its tile geometry type kept in a property that
                # the layer's filter and values read instead of the geometry type.
                if "__gt" not in json.dumps(src["data"]):
                    kept = []
                    for f in features(src):
                        for g in leaves(f.get("geometry")):
                            pts = js_vertices(g, src, z)
                            if not pts:
                                continue    # GL JS draws no vertex of it at this tile zoom
                            nf = with_geometry(f, {"type": "MultiPoint", "coordinates": pts} if g["type"] != "Point" else g)
                            nf["properties"] = dict(f.get("properties") or {}, __gt=SINGULAR[g["type"]])
                            kept.append(nf)
                    src["data"]["features"] = kept
                for part in ("filter", "paint", "layout"):
                    if part in l:
                        l[part] = read_type_from_property(l[part])
            if buffer0:
                src["buffer"] = 0
    if "fz" in subset:
        test, repl = float32_zoom(style)
        for l in s["layers"]:
            for part in ("filter", "paint", "layout", "minzoom", "maxzoom"):
                if part in l:
                    l[part] = move_numbers(l[part], test, repl)
    if "sk" in subset:
        for l in layers:
            if tied_sort_key(l, s):
                del l["layout"][SORT_KEYS[l["type"]]]
            elif tied_data_sort_key(l, s):
                rank_sort_keys(s, l)
    # Each line of a MultiLineString its own feature, under the layers each variant names.
    for key, applies, suffix in (("lg", gradient_multilines, "lines"), ("lm", fill_lines_kept_whole, "lm")):
        if key not in subset:
            continue
        for l in layers:
            if applies(s, l):
                src = own_source(s, l, suffix)
                src["data"]["features"] = one_feature_a_line(features(src))
    if "rs" in subset:
        for l in layers:
            if dashed_over_rings(s, l):
                src = own_source(s, l, "top")
                for f in features(src):
                    rotate_rings(f.get("geometry"))
    if "za" in subset:
        for l in layers:
            if l["type"] in ("line", "fill") and collapsing_rings(s["sources"][l["source"]], z):
                src = own_source(s, l, "za")
                kept = []
                for f in features(src):
                    g = drop_collapsed(f.get("geometry"), src, z)
                    if g is not None:
                        kept.append(dict(f, geometry=g))
                src["data"]["features"] = kept
    if "aa" in subset:
        for l in s["layers"]:
            if l["type"] == "fill":
                l.setdefault("paint", {})["fill-antialias"] = False
    # Sources nobody reads any more (all their layers moved to copies) are dropped.
    used = {l.get("source") for l in s["layers"]}
    for sid in list(s["sources"]):
        if sid not in used:
            del s["sources"][sid]
    return s


def key(subset):
    return "+".join(c for c in ORDER if c in subset)


# --- images --------------------------------------------------------------------------------------

def load_rgba(path):
    import numpy as np
    from PIL import Image
    a = np.asarray(Image.open(path).convert("RGBA"), dtype=np.int32)
    return np.concatenate([a[..., :3] * a[..., 3:4] // 255, a[..., 3:4]], axis=2)   # premultiplied


def changed(a, b):
    import numpy as np
    return np.any(a != b, axis=2)


def dilate(mask, r):
    import numpy as np
    h, w = mask.shape
    p = np.pad(mask, r)
    out = np.zeros_like(mask)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            out |= p[r + dy:r + dy + h, r + dx:r + dx + w]
    return out


def red(diff_png):
    import numpy as np
    from PIL import Image
    a = np.asarray(Image.open(diff_png).convert("RGB"), dtype=np.int32)
    return (a[..., 0] == 255) & (a[..., 1] == 0) & (a[..., 2] == 0)


# --- the run -------------------------------------------------------------------------------------

def write_if_changed(path, text):
    """Writes `text` unless the file already holds it; True when it was (re)written."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return True


class Step:
    def __init__(self, run, bench, jobs):
        self.run, self.bench, self.jobs = run, bench, jobs
        self.root = os.path.join(run, "second-opinion")
        self.native = os.path.join(self.root, "native")
        os.makedirs(self.native, exist_ok=True)
        self.where, self.round_no_of = {}, {}

    def native_dir(self, cid, subset, style):
        """The folder where Native draws the variant (Native's image is redrawn only when it changed)."""
        d = os.path.join(self.native, f"{cid}~{key(subset)}")
        os.makedirs(d, exist_ok=True)
        if write_if_changed(os.path.join(d, "style.json"), json.dumps(variant(style, subset), separators=(",", ":"))):
            for f in ("expected.png", "oracle-error.txt"):
                if os.path.exists(os.path.join(d, f)):
                    os.remove(os.path.join(d, f))
        return d

    def evaluate(self, round_no, jobs_list):
        """jobs_list: [(cid, style, subset)]. Draws what is needed and returns {(cid, key): result}."""
        for old in os.listdir(self.root):
            if old.startswith(f"pairs-{round_no}"):
                p = os.path.join(self.root, old)
                shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else os.remove(p)
        self.where = {}     # pair name -> the emulation it is drawn with
        plan = []
        for cid, style, subset in jobs_list:
            inv = frozenset(subset & INVARIANT)
            need = {}
            if inv:
                need["inv"] = self.native_dir(cid, inv, style)
            gs = subset & GLMAP_SIDE
            if gs:
                # glmap-side: glmap draws the rings as Native's polygon fix-up leaves them; Native
                # draws that style too, which must give its own image again.
                need["gs"] = self.native_dir(cid, inv | gs, style)
            if "aa" in subset:
                need["all"] = self.native_dir(cid, subset - frozenset(EMULATED), style)
            plan.append((cid, style, subset, inv, need))
        oracle.drive(self.native, self.jobs, 40, False)
        orig_dir = os.path.join(self.run, "cases")
        for cid, style, subset, inv, need in plan:
            k = key(subset)
            emu = emulation(subset)
            base_native = os.path.join(need["inv"], "expected.png") if inv else os.path.join(orig_dir, cid, "expected.png")
            # glmap draws the original style (rings rotated for rs), compared with Native's drawing
            # of the base variant, with Native's behaviours emulated where the subset asks for them.
            base_glmap = os.path.join(orig_dir, cid, "style.json")
            if subset & GLMAP_SIDE:
                base_glmap = self.glmap_style(cid, frozenset(subset & GLMAP_SIDE), style)
            self._pair(round_no, emu, f"{cid}~{k}~orig", base_glmap, base_native)
            if emu:
                # the same without the emulation: the emulation must change glmap's image
                self._pair(round_no, "", f"{cid}~{k}~plain", base_glmap, base_native)
            if inv:
                # glmap draws the GL-JS-invariant variant (its image is then compared with the one above).
                inv_style = os.path.join(need["gs"] if "gs" in need else need["inv"], "style.json")
                self._pair(round_no, emu, f"{cid}~{k}~inv", inv_style, base_native)
            if "aa" in subset:
                self._pair(round_no, emu, f"{cid}~{k}~all", os.path.join(need["all"], "style.json"), os.path.join(need["all"], "expected.png"))
        got = {}
        for emu in sorted(set(self.where.values())):
            pairs, tsv, saved = self._pairs_paths(round_no, emu)
            cmd = [self.bench, "differential", "--cases", pairs, "--out", tsv, "--save-all", saved]
            if emu:
                cmd += ["--emulate-native", emu]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            got.update(read_results(tsv))
        out = {}
        for cid, style, subset, inv, need in plan:
            out[(cid, key(subset))] = self._judge(cid, subset, inv, need, got)
        return out

    def _pairs_paths(self, round_no, emu):
        """(pairs folder, results TSV, glmap's images) of one round and emulation."""
        base = os.path.join(self.root, f"pairs-{round_no}" + (f"-{emu.replace(',', '+')}" if emu else ""))
        return base, base + ".tsv", base + "-glmap"

    def saved(self, name):
        """The folder with glmap's actual.png and diff.png of a pair."""
        return os.path.join(self._pairs_paths(self.round_no_of[name], self.where[name])[2], name)

    def glmap_style(self, cid, subset, style):
        """A variant that only glmap draws (the glmap-side removal alone)."""
        d = os.path.join(self.root, "glmap", f"{cid}~{key(subset)}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "style.json")
        write_if_changed(path, json.dumps(variant(style, subset), separators=(",", ":")))
        return path

    def _pair(self, round_no, emu, name, style_path, expected_path):
        if not os.path.exists(expected_path):
            return      # Native refused or crashed on the variant: no pair, not verified
        pairs = self._pairs_paths(round_no, emu)[0]
        self.where[name] = emu
        self.round_no_of[name] = round_no
        d = os.path.join(pairs, name)
        os.makedirs(d)
        shutil.copyfile(style_path, os.path.join(d, "style.json"))
        shutil.copyfile(expected_path, os.path.join(d, "expected.png"))

    def _judge(self, cid, subset, inv, need, got):
        k = key(subset)
        notes = []

        def frac(kind):
            st, f, _ = got.get(f"{cid}~{k}~{kind}", ("missing", None, ""))
            return f if st == "ok" else None
        orig = frac("orig")
        if orig is None:
            return {"ok": False, "fraction": None, "notes": ["no comparison (Native or glmap failed on the variant)"]}
        if subset & GLMAP_SIDE:
            # Native restarts (or drops) the rings itself: its drawing of the glmap-side variant must
            # be its own image again, else the edit is not what Native does and the case is not verified.
            import numpy as np
            base = os.path.join(need["inv"], "expected.png") if inv else os.path.join(self.run, "cases", cid, "expected.png")
            edited = os.path.join(need["gs"], "expected.png")
            what = " and ".join(NAME[c] for c in ORDER if c in subset & GLMAP_SIDE)
            if not os.path.exists(edited):
                return {"ok": False, "fraction": orig, "notes": [f"Native failed on the {what} variant"]}
            delta = np.abs(load_rgba(edited) - load_rgba(base)).max(axis=2)
            big = int((delta > 2).sum())
            if big:
                return {"ok": False, "fraction": orig, "notes": [
                    f"Native's own image changes under the {what} variant ({big} px): not what Native does"]}
        emu = emulation(subset)
        if emu:
            # An emulation that leaves glmap's image as it was explains nothing.
            import numpy as np
            plain = os.path.join(self.saved(f"{cid}~{k}~plain"), "actual.png") if f"{cid}~{k}~plain" in self.where else None
            if plain is None or frac("plain") is None or not os.path.exists(plain):
                return {"ok": False, "fraction": orig, "notes": ["glmap failed without the emulation"]}
            delta = np.abs(load_rgba(os.path.join(self.saved(f"{cid}~{k}~orig"), "actual.png")) - load_rgba(plain)).max(axis=2)
            moved = int((delta > 2).sum())
            if not moved:
                return {"ok": False, "fraction": orig, "notes": [f"emulating {emu} does not change glmap's image"]}
            notes.append(f"emulating {emu} changes {moved} px of glmap's image")
        if inv:
            # GL JS draws the variant as the original: so must glmap, pixel for pixel.
            drawn = os.path.join(self.saved(f"{cid}~{k}~inv"), "actual.png")
            if frac("inv") is None or not os.path.exists(drawn):
                return {"ok": False, "fraction": orig, "notes": notes + ["glmap failed on the variant"]}
            else:
                import numpy as np
                delta = np.abs(load_rgba(drawn) - load_rgba(os.path.join(self.saved(f"{cid}~{k}~orig"), "actual.png"))).max(axis=2)
                big, small = int((delta > 2).sum()), int(((delta > 0) & (delta <= 2)).sum())
                if big:
                    # Then the variant is not what glmap (or GL JS) draws for the original: no verdict.
                    return {"ok": False, "fraction": orig, "notes": notes + [
                        f"glmap's own image changes under the removal ({big} px by more than 2 levels): not an exact removal"]}
                if small:
                    notes.append(f"glmap's own image changes by 1-2 levels in {small} px under the removal (rounding)")
        if "aa" not in subset:
            return {"ok": orig <= RULE, "fraction": orig, "notes": notes}
        fa = frac("all")
        if fa is None:
            return {"ok": False, "fraction": None, "notes": notes + ["outline-off variant not compared"]}
        if fa > RULE:
            return {"ok": False, "fraction": fa, "notes": notes + [f"outlines off: still {fa:.6f}"]}
        # Where the original pair differs must be where the outlines are, on both sides.
        d = red(os.path.join(self.saved(f"{cid}~{k}~orig"), "diff.png"))
        g0 = load_rgba(os.path.join(self.saved(f"{cid}~{k}~orig"), "actual.png"))
        g1 = load_rgba(os.path.join(self.saved(f"{cid}~{k}~all"), "actual.png"))
        n0 = load_rgba(os.path.join(need["inv"], "expected.png") if inv else os.path.join(self.run, "cases", cid, "expected.png"))
        n1 = load_rgba(os.path.join(need["all"], "expected.png"))
        near = dilate(changed(g0, g1), OUTLINE_RADIUS) & dilate(changed(n0, n1), OUTLINE_RADIUS)
        stray = int((d & ~near).sum())
        limit = RULE * d.size
        notes.append(f"{int(d.sum())} differing px, {stray} of them not within {OUTLINE_RADIUS} px of both renderers' outlines")
        return {"ok": stray <= limit, "fraction": fa, "notes": notes}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--bench", required=True, help="glmap-bench executable")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="comma-separated case ids (default: every failing case)")
    a = ap.parse_args()
    try:
        import numpy  # noqa: F401
        import PIL  # noqa: F401
        import pymgl  # noqa: F401
    except ImportError as e:
        print(f"second_opinion: {e} for {sys.executable}; run bash .ci/install-deps", file=sys.stderr)
        return 3
    for need in (os.path.join(a.run, "results.tsv"), os.path.join(a.run, "cases")):
        if not os.path.exists(need):
            print(f"second_opinion: {need} is missing: RUN must be a run of run.sh (cases/, results.tsv)", file=sys.stderr)
            return 2
    if not os.access(a.bench, os.X_OK):
        print(f"second_opinion: {a.bench} is not an executable glmap-bench (swift build --product glmap-bench)", file=sys.stderr)
        return 2
    results = read_results(os.path.join(a.run, "results.tsv"))
    failing = sorted(c for c, (st, f, _) in results.items() if st == "ok" and f is not None and f > RULE)
    if a.only:
        failing = [c for c in failing if c in set(a.only.split(","))]
    styles, cands = {}, {}
    for cid in failing:
        with open(os.path.join(a.run, "cases", cid, "style.json"), encoding="utf-8") as fh:
            styles[cid] = json.load(fh)
        cands[cid] = frozenset(candidates(styles[cid]))
    step = Step(a.run, a.bench, a.jobs)
    # Round 1: every suspected removal at once (and, where glmap-side edits are among them, the
    # same without each combination of those: a wrong guess of what Native's polygon fix-up does
    # must not hide the rest).
    first = []
    for c in failing:
        gs = [x for x in ORDER if x in cands[c] & (GLMAP_SIDE | frozenset(EMULATED))]
        alts = [cands[c] - frozenset(drop) for n in range(len(gs) + 1) for drop in itertools.combinations(gs, n)]
        for s in alts:
            if s and valid(s, styles[c]):
                first.append((c, styles[c], s))
    r1 = step.evaluate(1, first) if first else {}
    top = {}
    for c in failing:
        for s in (s for (cc, _, s) in first if cc == c):
            if r1.get((c, key(s)), {}).get("ok"):
                top[c] = s
                break
    # Round 2: for the verified cases with several removals, every smaller valid combination.
    second = []
    for c, s in top.items():
        if len(s) > 1:
            for n in range(1, len(s)):
                for sub in itertools.combinations([x for x in ORDER if x in s], n):
                    if valid(frozenset(sub), styles[c]):
                        second.append((c, styles[c], frozenset(sub)))
    r2 = step.evaluate(2, second) if second else {}
    rows = []
    for c in failing:
        s = cands[c]
        res = r1.get((c, key(s))) if s else None
        if not s:
            rows.append((c, results[c][1], "", "no-candidate", "", "", ""))
            continue
        if c not in top:
            if res is None:
                rows.append((c, results[c][1], key(s), "not-verified", "", "", "no exact removal for this combination"))
            else:
                rows.append((c, results[c][1], key(s), "not-verified", "", fmt(res["fraction"]), "; ".join(res["notes"])))
            continue
        t = top[c]
        best = (len(t), [x for x in ORDER if x in t], r1[(c, key(t))])
        for sub in (sub for (cc, _, sub) in second if cc == c):
            r = r2.get((c, key(sub)))
            if r and r["ok"] and len(sub) < best[0]:
                best = (len(sub), [x for x in ORDER if x in sub], r)
        _, codes, r = best
        rows.append((c, results[c][1], key(s), "verified", ",".join(NAME[x] for x in codes), fmt(r["fraction"]), "; ".join(r["notes"])))
    out = os.path.join(a.run, "second-opinion.tsv")
    with open(out + ".tmp", "w", encoding="utf-8") as fh:
        fh.write("id\tfraction\tcandidates\tverdict\tquirks\tvariant_fraction\tnotes\n")
        for r in rows:
            fh.write("\t".join("" if v is None else (fmt(v) if isinstance(v, float) else str(v)) for v in r) + "\n")
    os.replace(out + ".tmp", out)
    verified = [r for r in rows if r[3] == "verified"]
    counts = {}
    for r in verified:
        counts[r[4]] = counts.get(r[4], 0) + 1
    print(f"second opinion: {len(failing)} failing cases, {sum(1 for r in rows if r[3] != 'no-candidate')} with a suspected "
          f"Native quirk, {len(verified)} verified ({', '.join(f'{k} {v}' for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))}); {out}")
    return 0


def fmt(v):
    return "" if v is None else f"{v:.6f}"


if __name__ == "__main__":
    sys.exit(main())
