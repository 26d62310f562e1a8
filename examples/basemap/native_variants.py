#!/usr/bin/env python3
"""Writes variants of the Helsinki label cases (examples/basemap/native.py's output) that take one
known MapLibre Native / GL JS difference out of the comparison, and draws them with MapLibre
Native, so that what is left can be told apart (Benchmarks/README.md, "Helsinki basemap with its
labels against MapLibre Native"; docs/conformance.md, "Where MapLibre Native and GL JS disagree").

    .venv/bin/python examples/basemap/native_variants.py --cases /tmp/lbl-native --out /tmp/lbl-var
    .build/release/glmap test /tmp/lbl-var/size-neutral --backend gpu

Variants (one folder each under --out, the cases' names kept):
  size-neutral         every zoom-only `text-size` ({stops, base} function) replaced by its value at
                       the view's zoom, so Native's layout at the tile's zoom and GL JS's at
                       zoom + 1 / zoom 18 see the same size (the drawn size is unchanged but for
                       the stops' curve between the tile zoom and the view zoom, equal on both)
  lines-ignore         size-neutral, and line-placed symbol layers get `text-ignore-placement`:
                       line labels still collide with what was placed before them but block
                       nothing, so the two renderers' different line-label collision circles
                       decide no other label

Exit 2 (nothing written) when --cases holds no <case>/style.json; the oracle's status when
MapLibre Native fails.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def at_zoom(fn: dict, z: float) -> float:
    """A legacy {stops, base} zoom function's value at zoom z (exponential interpolation)."""
    stops, base = fn["stops"], fn.get("base", 1)
    if z <= stops[0][0]:
        return stops[0][1]
    if z >= stops[-1][0]:
        return stops[-1][1]
    for (z0, v0), (z1, v1) in zip(stops, stops[1:]):
        if z0 <= z <= z1:
            d, p = z1 - z0, z - z0
            t = p / d if base == 1 else (base ** p - 1) / (base ** d - 1)
            return v0 + (v1 - v0) * t
    raise ValueError(fn)


def variant(style: dict, name: str) -> dict:
    s = json.loads(json.dumps(style))
    for layer in s["layers"]:
        if layer["type"] != "symbol":
            continue
        lay = layer.setdefault("layout", {})
        size = lay.get("text-size")
        if isinstance(size, dict) and "stops" in size and "property" not in size:
            lay["text-size"] = round(at_zoom(size, s["zoom"]), 6)
        if name == "lines-ignore" and lay.get("symbol-placement", "point") != "point":
            lay["text-ignore-placement"] = True
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", required=True, help="native.py's output: <case>/style.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    cases = sorted(c for c in os.listdir(a.cases) if os.path.exists(os.path.join(a.cases, c, "style.json"))) \
        if os.path.isdir(a.cases) else []
    if not cases:
        print(f"native_variants.py: no case (<case>/style.json) in {a.cases}: run examples/basemap/native.py first",
              file=sys.stderr)
        return 2
    for name in ("size-neutral", "lines-ignore"):
        for case in cases:
            path = os.path.join(a.cases, case, "style.json")
            with open(path, encoding="utf-8") as fh:
                s = variant(json.load(fh), name)
            d = os.path.join(a.out, name, case)
            os.makedirs(d, exist_ok=True)
            old = os.path.join(d, "style.json")
            text = json.dumps(s, indent=1)
            if os.path.exists(old) and open(old, encoding="utf-8").read() != text:
                for f in os.listdir(d):
                    os.remove(os.path.join(d, f))
            with open(old, "w", encoding="utf-8") as fh:
                fh.write(text)
        r = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/differential/oracle.py"),
                            os.path.join(a.out, name), "--jobs", str(a.jobs)])
        if r.returncode != 0:
            return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
