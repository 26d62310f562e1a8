#!/usr/bin/env python3
"""The glmap-bench fly-through camera path driven through MapLibre Native (pymgl).

    .venv/bin/python Benchmarks/flythrough_maplibre.py STYLE --path PATH.jsonl --width 256 --height 256

PATH.jsonl is what `glmap-bench flythrough --path-out` writes (lon, lat, zoom, bearing, pitch per
line). The map is made and its GeoJSON set once and one frame rendered (outside the timing, as
glmap-bench renders its first frame outside); then every camera of the path is set and
renderPNG() called — draw, read back and PNG encode, on one thread, as pymgl offers no pipeline.
Prints frames-per-second and frame-ms (JSON with --json).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

from pymgl import Map  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("style")
    ap.add_argument("--path", required=True)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--height", type=int, default=256)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    base = os.path.dirname(os.path.abspath(a.style))
    style = json.load(open(a.style, encoding="utf-8"))
    files = {}
    for sid, s in style.get("sources", {}).items():
        if s.get("type") == "geojson" and isinstance(s.get("data"), str):
            p = s["data"]
            for pre in ("file://", "local://"):
                if p.startswith(pre):
                    p = p[len(pre):]
            files[sid] = p if os.path.isabs(p) else os.path.join(base, p)
            s["data"] = {"type": "FeatureCollection", "features": []}
    path = [json.loads(line) for line in open(a.path, encoding="utf-8") if line.strip()]
    first = path[0]
    m = Map(json.dumps(style), a.width, a.height, 1, first["lon"], first["lat"], first["zoom"])
    for sid, p in files.items():
        m.setGeoJSON(sid, open(p, encoding="utf-8").read())
    m.renderPNG()
    total_bytes = 0
    t0 = time.perf_counter()
    for c in path:
        m.setCenter(c["lon"], c["lat"])
        m.setZoom(c["zoom"])
        m.setBearing(c["bearing"])
        m.setPitch(c["pitch"])
        total_bytes += len(m.renderPNG())
    seconds = time.perf_counter() - t0
    row = {"peer": "maplibre", "frames": len(path), "width": a.width, "height": a.height,
           "frames_per_second": round(len(path) / seconds, 1), "frame_ms": round(seconds / len(path) * 1000, 2),
           "mean_png_bytes": total_bytes // len(path)}
    if a.json:
        print(json.dumps(row))
    else:
        for k, v in row.items():
            print(f"{k}\t{v}")


if __name__ == "__main__":
    sys.exit(main())
