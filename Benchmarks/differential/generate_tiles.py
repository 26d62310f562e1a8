#!/usr/bin/env python3
"""Seeded random styles over vector and raster tile sources, for differential testing of glmap
against MapLibre Native (the tile-source companion of generate.py).

    python3 Benchmarks/differential/generate_tiles.py --out DIR --count 100 --seed 1 [--max-size 256]
        [--kinds vector,raster]

Writes DIR/<case-id>/style.json in the render-test layout, as generate.py does, and the tiles the
style reads beside it, under DIR/<case-id>/tiles/ (absolute file:// URLs: generate the cases where
they will be drawn; moving DIR breaks them). Case ids are `t<seed>-<index>`; the same seed, count
and kinds give byte-identical cases. --hash prints this generator's hash (this file, generate.py
and oracle.py).

Each case starts from generate.py's random style for the same index (its own random stream, seeded
"t<seed>"), so layers, paint/layout values, filters and cameras are generate.py's. Then:
- vector (every case whose layers read a source): each GeoJSON source becomes a vector source of
  the same id whose features — the same GeoJSON, GeometryCollections split into their members —
  are cut into Mapbox Vector Tiles (extent 4096, a buffer of 64 px of 512 around lines and
  polygons, points only in their own tile) at the tile zoom Z the view asks for (its floor zoom,
  or 1–3 less: over-zoomed, tag `vector-overzoom`) and the three zooms above... below it, encoded
  by PyPI mapbox-vector-tile. The source is a `tiles` template (70 %), an MBTiles file read as
  `mbtiles://` (15 %, tag `vector-mbtiles`) or a TileJSON file (15 %, `vector-tilejson`), with
  `maxzoom` Z. Fill and line layers read the layer `features`; circle layers read `points`, the
  same source's Point and MultiPoint features alone (GL JS skips points outside a tile and
  MapLibre Native draws buffered points twice: with points in one tile each and no lines under
  circle layers, generate.py's circle quirks cannot occur, and their tags are dropped).
  `line-gradient` needs a GeoJSON source's lineMetrics: it becomes a `line-color`.
- raster (30 % of cases, `--kinds` allowing; 1/3 of those raster alone): a raster source of PNG
  tiles (256 or 512 px, tag `raster-tile-<size>`), each tile its own gradient with hard-edged
  shapes and sometimes translucent or transparent parts, at the zoom the view asks for
  (round(zoom + log2(512 / tileSize)), or 1–2 less: `raster-overzoom`) and the three zooms below,
  over the view's ground footprint; and a raster layer with random raster-opacity, -hue-rotate,
  -brightness-min/-max, -saturation, -contrast, -resampling, -fade-duration (constants or zoom
  functions), placed at the bottom or among the other layers.

Tags follow generate.py's (metadata.differential.tags), plus `source:vector`, `source:raster` and
the ones above; the harness classifies failures by them (classify.py).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import math
import os
import random
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

EXTENT = 4096
BUFFER = 512          # tile units: 64 px of a 512-px tile
RASTER_CAP = 96       # most raster tiles at one zoom (a pitched view near the horizon asks many)
CIRCLE_QUIRKS = {"circle-tile-edge", "native-circle-clip-points"}


def generator_hash() -> str:
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("generate.py", "generate_tiles.py", "oracle.py"):
        with open(os.path.join(here, name), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


# --- geometry → tiles -------------------------------------------------------------------------

def _cut(a, b, edge, axis):
    """The point of segment a–b whose `axis` coordinate is `edge`."""
    t = (edge - a[axis]) / (b[axis] - a[axis])
    p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    return (edge, p[1]) if axis == 0 else (p[0], edge)


def clip_line_axis(pts, lo, hi, axis):
    """A line clipped to lo ≤ coordinate ≤ hi along one axis (geojson-vt's clipLine): its parts."""
    parts, cur = [], []
    for a, b in zip(pts, pts[1:]):
        ak, bk = a[axis], b[axis]
        if ak < lo:
            if bk > lo:
                cur.append(_cut(a, b, lo, axis))
                if bk > hi:
                    cur.append(_cut(a, b, hi, axis))
                    parts.append(cur)
                    cur = []
        elif ak > hi:
            if bk < hi:
                cur.append(_cut(a, b, hi, axis))
                if bk < lo:
                    cur.append(_cut(a, b, lo, axis))
                    parts.append(cur)
                    cur = []
        else:
            cur.append(a)
            if bk < lo or bk > hi:
                cur.append(_cut(a, b, lo if bk < lo else hi, axis))
                parts.append(cur)
                cur = []
    if pts and lo <= pts[-1][axis] <= hi:
        cur.append(pts[-1])
    if len(cur) >= 2:
        parts.append(cur)
    return parts


def clip_ring_axis(ring, lo, hi, axis):
    """A ring (no closing point) clipped to the band lo…hi along one axis (Sutherland–Hodgman)."""
    out = []
    n = len(ring)
    for k in range(n):
        a, b = ring[k], ring[(k + 1) % n]
        ak, bk = a[axis], b[axis]
        if lo <= ak <= hi:
            out.append(a)
        cuts = [((e - ak) / (bk - ak), e) for e in (lo, hi) if (ak - e) * (bk - e) < 0]
        for _, e in sorted(cuts):
            out.append(_cut(a, b, e, axis))
    return out


def clip_line(points, box):
    parts = [points]
    for axis, (lo, hi) in ((0, (box[0], box[2])), (1, (box[1], box[3]))):
        parts = [q for p in parts for q in clip_line_axis(p, lo, hi, axis)]
    return parts


def clip_ring(points, box):
    ring = points[:-1] if len(points) > 1 and points[0] == points[-1] else points
    for axis, (lo, hi) in ((0, (box[0], box[2])), (1, (box[1], box[3]))):
        ring = clip_ring_axis(ring, lo, hi, axis)
        if len(ring) < 3:
            return None
    return ring


def quantize(points):
    out = []
    for x, y in points:
        q = (int(round(x)), int(round(y)))
        if not out or out[-1] != q:
            out.append(q)
    return out


class TileBuilder:
    """Collects one source's features per tile (z, wrapped x, y) and layer."""

    def __init__(self, zooms):
        self.zooms = zooms
        self.tiles = {}    # (z, x, y) -> {layer: [(properties, id, serial, (kind, geometry))]}

    def add(self, layer, feature, geom, serial):
        """Cuts one geometry of a feature (`serial` tells features apart: the pieces one tile gets of
        one feature become one MVT feature, never the pieces of two)."""
        props = {k: v for k, v in feature.get("properties", {}).items() if isinstance(v, (str, bool, int, float))}
        fid = feature.get("id")
        for z in self.zooms:
            world = 512 * 2 ** z
            n = 2 ** z
            proj = lambda c: generate.project(c[0], c[1], world)
            t = geom["type"]
            if t in ("Point", "MultiPoint"):
                pts = [geom["coordinates"]] if t == "Point" else geom["coordinates"]
                for c in pts:
                    x, y = proj(c)
                    i, j = math.floor(x / 512), math.floor(y / 512)
                    if not 0 <= j < n:
                        continue
                    tx, ty = (x - i * 512) / 512 * EXTENT, (y - j * 512) / 512 * EXTENT
                    q = (min(EXTENT - 1, int(tx)), min(EXTENT - 1, int(ty)))   # stays in its own tile
                    self._put(z, i % n, j, layer, props, fid, serial, ("point", q))
                continue
            if t in ("LineString", "MultiLineString"):
                lines = [geom["coordinates"]] if t == "LineString" else geom["coordinates"]
                for line in lines:
                    pts = [proj(c) for c in line]
                    for (i, j) in self._tiles_of(pts, n):
                        local = [((x - i * 512) / 512 * EXTENT, (y - j * 512) / 512 * EXTENT) for x, y in pts]
                        for part in clip_line(local, (-BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER)):
                            q = quantize(part)
                            if len(q) >= 2:
                                self._put(z, i % n, j, layer, props, fid, serial, ("line", q))
                continue
            polys = [geom["coordinates"]] if t == "Polygon" else geom["coordinates"]
            for poly in polys:
                pts_all = [proj(c) for ring in poly for c in ring]
                for (i, j) in self._tiles_of(pts_all, n):
                    rings = []
                    for k, ring in enumerate(poly):
                        local = [((x - i * 512) / 512 * EXTENT, (y - j * 512) / 512 * EXTENT) for x, y in map(proj, ring)]
                        r = clip_ring(local, (-BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER))
                        q = quantize(r) if r else []
                        if len(q) >= 3:
                            rings.append(q)
                        elif k == 0:
                            break
                    if rings and len(quantize(rings[0])) >= 3:
                        self._put(z, i % n, j, layer, props, fid, serial, ("polygon", rings))

    @staticmethod
    def _tiles_of(pts, n):
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        b = 512 * BUFFER / EXTENT
        i0, i1 = math.floor((min(xs) - b) / 512), math.floor((max(xs) + b) / 512)
        j0, j1 = max(0, math.floor((min(ys) - b) / 512)), min(n - 1, math.floor((max(ys) + b) / 512))
        if (i1 - i0 + 1) * (j1 - j0 + 1) > 4096:
            return []
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def _put(self, z, x, y, layer, props, fid, serial, geom):
        feats = self.tiles.setdefault((z, x, y), {}).setdefault(layer, [])
        feats.append((props, fid, serial, geom))

    def encode(self):
        """(z, x, y) → MVT bytes, with mapbox-vector-tile."""
        import mapbox_vector_tile
        from shapely.geometry import LineString, MultiLineString, MultiPoint, Point, Polygon
        out = {}
        for key in sorted(self.tiles):
            layers = []
            for name in sorted(self.tiles[key]):
                feats = []
                # Parts of one feature that one tile got (a line cut in two, a polygon's parts)
                # stay one MVT feature, as a tiler writes them.
                groups = {}
                order = []
                for props, fid, serial, geom in self.tiles[key][name]:
                    k = (serial, geom[0])
                    if k not in groups:
                        groups[k] = (props, fid, geom[0], [])
                        order.append(k)
                    groups[k][3].append(geom[1])
                for k in order:
                    props, fid, kind, parts = groups[k]
                    if kind == "point":
                        shape = Point(parts[0]) if len(parts) == 1 else MultiPoint(parts)
                    elif kind == "line":
                        shape = LineString(parts[0]) if len(parts) == 1 else MultiLineString(parts)
                    else:
                        from shapely.geometry import MultiPolygon
                        polys = [Polygon(p[0], p[1:]) for p in parts]
                        shape = polys[0] if len(polys) == 1 else MultiPolygon(polys)
                    f = {"geometry": shape, "properties": props}
                    if isinstance(fid, int) and fid >= 0:
                        f["id"] = fid
                    feats.append(f)
                layers.append({"name": name, "features": feats})
            out[key] = mapbox_vector_tile.encode(layers, default_options={"y_coord_down": True, "extents": EXTENT})
        return out


def split_collection(feature):
    g = feature["geometry"]
    if g["type"] == "GeometryCollection":
        return [leaf for k in g["geometries"] for leaf in generate.leaf_geometries(k)]
    return [g]


# --- raster tiles -------------------------------------------------------------------------------

def raster_png(rng, size):
    """A tile: a linear gradient between two colours in a random direction, 1–3 hard-edged
    rectangles or ellipses, sometimes translucent (one in five) or with transparent shapes."""
    import numpy as np
    from PIL import Image, ImageDraw
    c0 = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float64)
    c1 = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float64)
    ang = rng.uniform(0, 2 * math.pi)
    alpha = 255 if rng.random() < 0.8 else rng.randrange(60, 255)
    v = (np.arange(size) + 0.5) / size - 0.5
    t = np.clip(0.5 + v[None, :] * math.cos(ang) + v[:, None] * math.sin(ang), 0, 1)
    rgb = c0[None, None, :] + (c1 - c0)[None, None, :] * t[:, :, None]
    a = np.full((size, size, 1), alpha, dtype=np.float64)
    img = Image.fromarray(np.concatenate([rgb, a], axis=2).round().astype(np.uint8), "RGBA")
    d = ImageDraw.Draw(img)
    for _ in range(rng.randrange(1, 4)):
        x0, y0 = rng.uniform(0, size * 0.8), rng.uniform(0, size * 0.8)
        x1, y1 = x0 + rng.uniform(size * 0.1, size * 0.5), y0 + rng.uniform(size * 0.1, size * 0.5)
        col = tuple(rng.randrange(256) for _ in range(3)) + (255 if rng.random() < 0.7 else rng.randrange(0, 200),)
        (d.rectangle if rng.random() < 0.5 else d.ellipse)([x0, y0, x1, y1], fill=col)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


# --- sources on disk ------------------------------------------------------------------------------

def write_tiles(folder, tiles, ext):
    for (z, x, y), data in tiles.items():
        d = os.path.join(folder, str(z), str(x))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{y}.{ext}"), "wb") as fh:
            fh.write(data)


def write_mbtiles(path, tiles, maxzoom, fmt):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    meta = {"name": "differential", "format": fmt, "minzoom": "0", "maxzoom": str(maxzoom)}
    if fmt == "pbf":
        names = sorted({n for t in tiles.values() for n in t[1]})
        meta["json"] = json.dumps({"vector_layers": [{"id": n, "fields": {}} for n in names]})
    for k, v in meta.items():
        db.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
    for (z, x, y), (data, _) in sorted(tiles.items()):
        db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, gzip.compress(data, mtime=0)))
    db.commit()
    db.close()


# --- the case ----------------------------------------------------------------------------------------

def raster_layer(g, i):
    paint = {}
    num = lambda lo, hi: (lambda s=False: g.num(lo, hi))
    g.prop(paint, "raster-opacity", "number", num(0.2, 1), data=False, p=0.35)
    g.prop(paint, "raster-hue-rotate", "number", num(0, 360), data=False, p=0.2)
    g.prop(paint, "raster-brightness-min", "number", num(0, 0.5), data=False, p=0.2)
    g.prop(paint, "raster-brightness-max", "number", num(0.5, 1), data=False, p=0.2)
    g.prop(paint, "raster-saturation", "number", num(-1, 1), data=False, p=0.2)
    g.prop(paint, "raster-contrast", "number", num(-1, 1), data=False, p=0.2)
    if g.chance(0.3):
        paint["raster-resampling"] = g.pick(["linear", "nearest"])
        g.tags.add("prop:raster-resampling")
    if g.chance(0.1):
        paint["raster-fade-duration"] = 0
        g.tags.add("prop:raster-fade-duration")
    layer = {"id": f"r{i}-raster", "type": "raster", "source": f"r{i}", "paint": paint}
    g.zoom_range(layer)
    return layer


def make_tile_case(seed, index, max_size, kinds, out_dir):
    case_id = f"t{seed}-{index:05d}"
    _, style = generate.make_case(f"t{seed}", index, max_size)
    rng = random.Random(f"glmap-differential-tiles/{seed}/{index}")
    # The generator's own state for raster layers' values: a Gen over the same camera.
    g = generate.Gen(rng, max_size)
    cam = dict(width=style["metadata"]["test"]["width"], height=style["metadata"]["test"]["height"],
               ratio=style["metadata"]["test"]["pixelRatio"], zoom=style["zoom"], lon=style["center"][0],
               lat=style["center"][1], bearing=style["bearing"], pitch=style["pitch"])
    g.setup_space(cam)
    tags = set(style["metadata"]["differential"]["tags"]) - CIRCLE_QUIRKS
    case_dir = os.path.abspath(os.path.join(out_dir, case_id))
    tiles_dir = os.path.join(case_dir, "tiles")
    layers = style["layers"]
    sources = {}
    raster_only = "raster" in kinds and rng.random() < 0.1
    if raster_only:
        layers = [l for l in layers if l["type"] == "background"]
    if "vector" not in kinds:
        layers = [l for l in layers if l["type"] == "background"]
    view_tz = max(0, int(math.floor(g.view_zoom)))
    for sid, src in style["sources"].items():
        users = [l for l in layers if l.get("source") == sid]
        if not users:
            continue
        tags.add("source:vector")
        z = view_tz
        if rng.random() < 0.3 and z > 0:
            z = max(0, z - rng.randrange(1, 4))
            tags.add("vector-overzoom")
        builder = TileBuilder(list(range(max(0, z - 3), z + 1)))
        for serial, f in enumerate(src["data"]["features"]):
            for k, geom in enumerate(split_collection(f)):
                if geom["type"] in ("Point", "MultiPoint"):
                    builder.add("points", f, geom, (serial, k))
                builder.add("features", f, geom, (serial, k))
        encoded = builder.encode()
        kind = rng.random()
        folder = os.path.join(tiles_dir, sid)
        if kind < 0.7:
            write_tiles(folder, encoded, "pbf")
            vsrc = {"type": "vector", "tiles": ["file://" + folder + "/{z}/{x}/{y}.pbf"], "maxzoom": z}
        elif kind < 0.85:
            os.makedirs(tiles_dir, exist_ok=True)
            path = os.path.join(tiles_dir, sid + ".mbtiles")
            names = {k: set(v) for k, v in builder.tiles.items()}
            write_mbtiles(path, {k: (v, names[k]) for k, v in encoded.items()}, z, "pbf")
            vsrc = {"type": "vector", "url": "mbtiles://" + path}
            tags.add("vector-mbtiles")
        else:
            write_tiles(folder, encoded, "pbf")
            tj = {"tilejson": "2.2.0", "tiles": ["file://" + folder + "/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": z,
                  "vector_layers": [{"id": "features", "fields": {}}, {"id": "points", "fields": {}}]}
            with open(os.path.join(tiles_dir, sid + ".json"), "w", encoding="utf-8") as fh:
                json.dump(tj, fh)
            vsrc = {"type": "vector", "url": "file://" + os.path.join(tiles_dir, sid + ".json")}
            tags.add("vector-tilejson")
        sources[sid] = vsrc
        for l in users:
            l["source-layer"] = "points" if l["type"] == "circle" else "features"
            paint = l.get("paint", {})
            if "line-gradient" in paint:
                paint.pop("line-gradient")
                paint["line-color"] = g.color(opaque=True)
                tags.discard("prop:line-gradient")
    if "raster" in kinds and (raster_only or rng.random() < 0.3):
        n_raster = 1 if rng.random() < 0.8 else 2
        for k in range(n_raster):
            tags.add("source:raster")
            size = rng.choice([256, 512])
            tags.add(f"raster-tile-{size}")
            zr = max(0, int(round(g.view_zoom + math.log2(512 / size))))
            if rng.random() < 0.2 and zr > 0:
                zr = max(0, zr - rng.randrange(1, 3))
                tags.add("raster-overzoom")
            folder = os.path.join(tiles_dir, f"r{k}")
            tiles = {}
            xs = [p[0] for p in g.view_quad]
            ys = [p[1] for p in g.view_quad]
            for z in range(max(0, zr - 3), zr + 1):
                n = 2 ** z
                tile = g.world / n          # world px (camera zoom) of one tile at zoom z
                i0, i1 = math.floor(min(xs) / tile), math.floor(max(xs) / tile)
                j0, j1 = max(0, math.floor(min(ys) / tile)), min(n - 1, math.floor(max(ys) / tile))
                cells = [(i, j) for j in range(j0, j1 + 1) for i in range(i0, i1 + 1)]
                if len(cells) > RASTER_CAP:
                    # Nearest to the view's centre first: the far horizon of a pitched view keeps none.
                    cells.sort(key=lambda c: ((c[0] + 0.5) * tile - g.cx) ** 2 + ((c[1] + 0.5) * tile - g.cy) ** 2)
                    cells = cells[:RASTER_CAP]
                    tags.add("raster-partial")
                for i, j in cells:
                    key = (z, i % n, j)
                    if key not in tiles:
                        trng = random.Random(f"glmap-differential-tiles/{seed}/{index}/r{k}/{key}")
                        tiles[key] = raster_png(trng, size)
            write_tiles(folder, tiles, "png")
            sources[f"r{k}"] = {"type": "raster", "tiles": ["file://" + folder + "/{z}/{x}/{y}.png"],
                                "tileSize": size, "maxzoom": zr}
            layer = raster_layer(g, k)
            tags.update(t for t in g.tags if t.startswith("prop:raster") or t in ("zoom-function", "legacy-function", "layer-zoom-range"))
            above_background = 1 if layers and layers[0]["type"] == "background" else 0
            pos = above_background if rng.random() < 0.6 else rng.randrange(above_background, len(layers) + 1)
            layers.insert(pos, layer)
        tags.add("layer:raster")
    style["sources"] = sources
    style["layers"] = layers
    used = {l.get("source") for l in layers}
    tags = {t for t in tags if not t.startswith("geom:") or t.split(":")[1].split("/")[0] in {l["type"] for l in layers}}
    if "source:vector" not in tags:
        tags = {t for t in tags if not t.startswith("geom:")}
    assert all(s in used for s in sources)
    style["metadata"]["differential"] = {"seed": seed, "index": index, "generator": generator_hash(),
                                         "set": "tiles", "tags": sorted(tags)}
    return case_id, style


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-size", type=int, default=1024)
    ap.add_argument("--kinds", default="vector,raster", help="comma-separated: vector, raster")
    ap.add_argument("--hash", action="store_true")
    a = ap.parse_args()
    if a.hash:
        print(generator_hash())
        return 0
    if not a.out:
        ap.error("--out is required")
    kinds = set(a.kinds.split(","))
    if not kinds <= {"vector", "raster"} or not kinds:
        ap.error("--kinds takes vector, raster or both")
    os.makedirs(a.out, exist_ok=True)
    counts = {"vector": 0, "raster": 0}
    for i in range(a.count):
        cid, style = make_tile_case(a.seed, i, a.max_size, kinds, a.out)
        d = os.path.join(a.out, cid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "style.json"), "w", encoding="utf-8") as fh:
            json.dump(style, fh, separators=(",", ":"))
        tags = style["metadata"]["differential"]["tags"]
        counts["vector"] += "source:vector" in tags
        counts["raster"] += "source:raster" in tags
    print(f"generate_tiles: {a.count} cases (seed {a.seed}, max size {a.max_size}, kinds {','.join(sorted(kinds))}, "
          f"{counts['vector']} with vector sources, {counts['raster']} with raster sources, generator {generator_hash()}) in {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
