#!/usr/bin/env python3
"""Draws a scene of ../shared/scenes with MapLibre Native (pymgl), its circle layers left out
unless --with-circles, from the style's own camera:

    .venv/bin/python Tests/GLMapTests/MapLibreNativeCases/render_scene.py STYLE OUT.png W H RATIO [--with-circles] [--no-fill-outline] [--write-style PATH]

--no-fill-outline sets fill-antialias false on every fill layer (MapLibre Native draws the
antialiasing outline as a 2-px GL line, gfx::Lines{2.0f}, where GL JS's render tests show 1 px).
--write-style also writes the style as drawn (circle layers left out, data paths absolute) for
glmap to draw the same thing.
GeoJSON files the style names (relative paths, file:// or local://) are read and handed to the
map with setGeoJSON. Used by SceneNativeAgreementTests; MapLibre Native in still mode blends
circles near tile edges 2-4 times where GL JS draws each point once, hence no circles by default.
"""
import json
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
from pymgl import Map  # noqa: E402


def main(argv):
    style_path, out, w, h, r = argv[0], argv[1], int(argv[2]), int(argv[3]), float(argv[4])
    base = os.path.dirname(os.path.abspath(style_path))
    style = json.load(open(style_path, encoding="utf-8"))
    if "--with-circles" not in argv:
        style["layers"] = [l for l in style["layers"] if l.get("type") != "circle"]
    if "--no-fill-outline" in argv:   # MapLibre Native strokes fill outlines 2 px wide, GL JS 1 px
        for l in style["layers"]:
            if l.get("type") == "fill":
                l.setdefault("paint", {})["fill-antialias"] = False
    if "--write-style" in argv:
        copy = json.loads(json.dumps(style))
        for s in copy.get("sources", {}).values():
            if isinstance(s.get("data"), str):
                p = s["data"]
                for pre in ("file://", "local://"):
                    if p.startswith(pre):
                        p = p[len(pre):]
                s["data"] = p if os.path.isabs(p) else os.path.join(base, p)
        with open(argv[argv.index("--write-style") + 1], "w", encoding="utf-8") as fh:
            json.dump(copy, fh)
    texts = {}
    for sid, s in style.get("sources", {}).items():
        if isinstance(s.get("data"), str):
            p = s["data"]
            for pre in ("file://", "local://"):
                if p.startswith(pre):
                    p = p[len(pre):]
            texts[sid] = open(p if os.path.isabs(p) else os.path.join(base, p), encoding="utf-8").read()
            s["data"] = {"type": "FeatureCollection", "features": []}
    lon, lat = (style.get("center") or [0, 0])[:2]
    m = Map(json.dumps(style), w, h, r, lon, lat, style.get("zoom", 0))
    if style.get("bearing"):
        m.setBearing(style["bearing"])
    if style.get("pitch"):
        m.setPitch(style["pitch"])
    for sid, t in texts.items():
        m.setGeoJSON(sid, t)
    with open(out, "wb") as fh:
        fh.write(m.renderPNG())
    os._exit(0)   # pymgl 0.5 may crash tearing a Map down; the PNG is written


if __name__ == "__main__":
    main(sys.argv[1:])
