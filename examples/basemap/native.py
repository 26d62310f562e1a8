#!/usr/bin/env python3
"""Writes the Helsinki basemap views as render-test cases and draws them with MapLibre Native.

    .venv/bin/python examples/basemap/native.py [--styles .build/basemap/styles]
        [--out .build/basemap/native] [--views examples/basemap/views.tsv] [--blank]

For every adapted style (examples/basemap/styles.py) and every view of views.tsv it writes
OUT/<style>-<view>/style.json — the style with the view's camera in its root and metadata.test
(512×512, pixel ratio 1, threshold 0.05, allowed 0.002) — and draws expected.png with MapLibre
Native through pymgl (Benchmarks/differential/oracle.py). A case whose style.json is unchanged
keeps its image; style.json carries the SHA-256 of the MBTiles and pymgl's version, so new tiles
or a new pymgl redraw it. Cases of views or styles no longer there are removed.

--blank also writes OUT/<style>-<view>-blank/ for the z15 view: the style's background layer
alone, with Native's image of the whole style as expected.png — a map with nothing on it, which
the 0.05 rule must reject (BasemapNativeTests checks that it does).

`glmap test OUT` then draws and compares every case; BasemapNativeTests does the same, one test per
view. Exit 3 when no adapted style is there (run styles.py), 2 on other missing input.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STYLE_NAMES = ["osm-bright", "maptiler-basic"]
SIZE = 512
THRESHOLD = 0.05
ALLOWED = 0.002


def read_views(path):
    views = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip() or line.startswith("#"):
                continue
            vid, zoom, bearing, pitch, lon, lat = line.rstrip("\n").split("\t")
            views.append(dict(id=vid, zoom=float(zoom), bearing=float(bearing), pitch=float(pitch),
                              lon=float(lon), lat=float(lat)))
    return views


def number(v):
    return int(v) if v == int(v) else v


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_case(dirpath, style):
    """Writes style.json when it changed (dropping a stale expected.png); True when it changed."""
    os.makedirs(dirpath, exist_ok=True)
    text = json.dumps(style, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    sj = os.path.join(dirpath, "style.json")
    if os.path.exists(sj) and open(sj, encoding="utf-8").read() == text:
        return False
    for f in ("expected.png", "oracle-error.txt"):
        if os.path.exists(os.path.join(dirpath, f)):
            os.remove(os.path.join(dirpath, f))
    with open(sj + ".tmp", "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(sj + ".tmp", sj)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--styles", default=os.path.join(ROOT, ".build/basemap/styles"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".build/basemap/native"))
    ap.add_argument("--views", default=os.path.join(HERE, "views.tsv"))
    ap.add_argument("--blank", action="store_true", help="also the background-only cases (see above)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    try:
        import pymgl  # noqa: F401
        from importlib.metadata import version
        pymgl_version = version("pymgl")
    except ImportError as e:
        print(f"native.py: pymgl is not importable by {sys.executable} ({e}): run bash .ci/install-deps", file=sys.stderr)
        return 2
    views = read_views(a.views)
    wanted = set()
    drawn_styles = 0
    for name in STYLE_NAMES:
        path = os.path.join(a.styles, name + ".json")
        if not os.path.exists(path):
            print(f"native.py: {path} is missing (examples/basemap/styles.py writes it)", file=sys.stderr)
            continue
        with open(path, encoding="utf-8") as fh:
            style = json.load(fh)
        url = style["sources"]["openmaptiles"]["url"]
        mbtiles = url[len("mbtiles://"):]
        if not os.path.exists(mbtiles):
            print(f"native.py: {mbtiles} (the style's tiles) is missing: run bash examples/basemap/build.sh", file=sys.stderr)
            return 2
        stamp = {"mbtiles sha256": sha256(mbtiles), "pymgl": pymgl_version}
        drawn_styles += 1
        for v in views:
            s = dict(style)
            s["center"] = [v["lon"], v["lat"]]
            s["zoom"], s["bearing"], s["pitch"] = number(v["zoom"]), number(v["bearing"]), number(v["pitch"])
            meta = dict(s.get("metadata", {}))
            meta["test"] = {"width": SIZE, "height": SIZE, "pixelRatio": 1, "threshold": THRESHOLD, "allowed": ALLOWED}
            meta["glmap:basemap"] = dict(stamp, view=v["id"])
            s["metadata"] = meta
            cid = f"{name}-{v['id']}"
            wanted.add(cid)
            write_case(os.path.join(a.out, cid), s)
    if not drawn_styles:
        return 3
    r = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/differential/oracle.py"), a.out, "--jobs", str(a.jobs)])
    if r.returncode != 0:
        return r.returncode
    if a.blank:
        for name in STYLE_NAMES:
            full = os.path.join(a.out, f"{name}-z15")
            if not os.path.exists(os.path.join(full, "expected.png")):
                continue
            with open(os.path.join(full, "style.json"), encoding="utf-8") as fh:
                s = json.load(fh)
            s["layers"] = [l for l in s["layers"] if l["type"] == "background"]
            cid = f"{name}-z15-blank"
            wanted.add(cid)
            d = os.path.join(a.out, cid)
            write_case(d, s)
            shutil.copyfile(os.path.join(full, "expected.png"), os.path.join(d, "expected.png"))
    for old in os.listdir(a.out) if os.path.isdir(a.out) else []:
        if old not in wanted and os.path.isdir(os.path.join(a.out, old)):
            shutil.rmtree(os.path.join(a.out, old))
    errors = [c for c in sorted(wanted) if os.path.exists(os.path.join(a.out, c, "oracle-error.txt"))]
    print(f"native.py: {len(wanted)} cases in {a.out} ({drawn_styles} styles × {len(views)} views"
          f"{' + blank' if a.blank else ''}); {len(errors)} without a MapLibre Native image {errors if errors else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
