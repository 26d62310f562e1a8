#!/usr/bin/env python3
"""Draws MapLibre Native's expected.png for render cases in this folder (or the case folders
given), through the pymgl wheel (MapLibre Native, headless on EGL's surfaceless platform).

    .venv/bin/python Tests/GLMapTests/MapLibreNativeCases/render_expected.py [CASE_DIR...]

Each case is a folder with a render-test style.json: metadata.test.width/height/pixelRatio
(defaults 512, 512, 1), center/zoom/bearing/pitch in the style, sources inline. The image is
written as CASE_DIR/expected.png (straight alpha, as pymgl returns it). Where MapLibre GL JS
and MapLibre Native disagree, GL JS is the reference: such a case lists in
metadata.expectedWithoutLayers the layers GL JS draws nothing for, and MapLibre Native then
draws the style without them; metadata.expectedSourceOverrides (source id → members) changes
sources for MapLibre Native's drawing in the same way (metadata.origin gives the GL JS evidence). pymgl 0.5 crashes when
a Map is created after an earlier one was destroyed, so every Map is kept alive to the end.
"""
import json
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
from pymgl import Map  # noqa: E402

KEEP = []


def render(style_path, out_path):
    style = json.load(open(style_path, encoding="utf-8"))
    drop = set(style.get("metadata", {}).get("expectedWithoutLayers", []))
    style["layers"] = [l for l in style["layers"] if l.get("id") not in drop]
    for sid, over in style.get("metadata", {}).get("expectedSourceOverrides", {}).items():
        style["sources"][sid].update(over)
    t = style.get("metadata", {}).get("test", {})
    w, h, r = t.get("width", 512), t.get("height", 512), t.get("pixelRatio", 1)
    lon, lat = (style.get("center") or [0, 0])[:2]
    m = Map(json.dumps(style), w, h, r, lon, lat, style.get("zoom", 0))
    KEEP.append(m)
    if style.get("bearing"):
        m.setBearing(style["bearing"])
    if style.get("pitch"):
        m.setPitch(style["pitch"])
    png = m.renderPNG()
    with open(out_path, "wb") as fh:
        fh.write(png)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = argv or sorted(os.path.join(here, d) for d in os.listdir(here)
                          if os.path.isfile(os.path.join(here, d, "style.json")))
    for d in dirs:
        render(os.path.join(d, "style.json"), os.path.join(d, "expected.png"))
        print("wrote", os.path.join(d, "expected.png"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
