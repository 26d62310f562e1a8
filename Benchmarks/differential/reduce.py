#!/usr/bin/env python3
"""Shrinks a failing differential case to a minimal one that still fails.

    .venv/bin/python Benchmarks/differential/reduce.py CASE_DIR --out OUT_DIR
        [--bench .build/debug/glmap-bench] [--limit 0.00025] [--max-steps 400]

A candidate "still fails" when glmap and MapLibre Native (pymgl, drawn in this process) differ by
more than --limit (pixelmatch, threshold 0.1285, through `glmap-bench differential`), or when
glmap rejects it with the same kind of error as the original. Greedy passes, repeated until none
helps: drop layers; drop features; split GeometryCollections and Multi* geometries into one part;
drop holes and vertices; drop filters, zoom ranges, properties and source options; replace
expressions and functions by one of their constants; simplify the camera (bearing 0, pitch 0,
ratio 1, whole zoom, smaller image); drop feature ids and unused feature properties.
OUT_DIR gets style.json and MapLibre Native's expected.png of the smallest failing case, plus
actual.png (glmap) and reduce.log (each accepted step).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

KEEP_ALIVE = []   # pymgl 0.5: never destroy a Map


def oracle_png(style):
    from pymgl import Map
    t = style.get("metadata", {}).get("test", {})
    lon, lat = (style.get("center") or [0, 0])[:2]
    m = Map(json.dumps(style), int(t.get("width", 512)), int(t.get("height", 512)), float(t.get("pixelRatio", 1)),
            lon, lat, float(style.get("zoom", 0)))
    KEEP_ALIVE.append(m)
    if style.get("bearing"):
        m.setBearing(float(style["bearing"]) % 360)
    if style.get("pitch"):
        m.setPitch(float(style["pitch"]))
    return m.renderPNG()


class Checker:
    def __init__(self, bench, limit):
        self.bench = bench
        self.limit = limit
        self.tmp = tempfile.mkdtemp(prefix="glmap-reduce-")
        self.runs = 0

    def measure(self, style, save=None):
        """(status, fraction, message) of glmap against MapLibre Native for this style."""
        self.runs += 1
        root = os.path.join(self.tmp, f"r{self.runs}")
        case = os.path.join(root, "case")
        os.makedirs(case)
        with open(os.path.join(case, "style.json"), "w", encoding="utf-8") as fh:
            json.dump(style, fh, separators=(",", ":"))
        try:
            png = oracle_png(style)
        except Exception as e:  # noqa: BLE001
            shutil.rmtree(root, ignore_errors=True)
            return ("oracle-error", None, str(e))
        with open(os.path.join(case, "expected.png"), "wb") as fh:
            fh.write(png)
        tsv = os.path.join(root, "out.tsv")
        cmd = [self.bench, "differential", "--cases", root, "--out", tsv]
        if save:
            cmd += ["--save", save]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        with open(tsv, encoding="utf-8") as fh:
            row = fh.read().splitlines()[1].split("\t")
        if save:
            shutil.copy(os.path.join(case, "expected.png"), os.path.join(save, "expected.png"))
        shutil.rmtree(root, ignore_errors=True)
        status, frac, msg = row[1], float(row[2]) if row[2] else None, row[3] if len(row) > 3 else ""
        return (status, frac, msg)


def error_kind(msg):
    """The part of a glmap error that names the problem, without the file and JSON path."""
    tail = msg.split(": ", 2)[-1]
    return tail.split("Convert")[0].strip()


# --- candidate edits -------------------------------------------------------------------------

OPS = {"get", "has", "zoom", "literal", "interpolate", "step", "match", "case", "coalesce", "linear", "exponential",
       "cubic-bezier", "to-color", "to-number", "to-string", "let", "var", "geometry-type", "line-progress", "rgb",
       "rgba", "in", "id", "boolean", "number", "string", "all", "any", "!", "==", "!=", "<", ">", "<=", ">=", "+",
       "-", "*", "/", "%", "^", "min", "max", "abs", "sqrt", "floor", "ceil", "round", "length", "downcase"}


def constants_of(value):
    """Candidate constants hidden in an expression or function, first ones first."""
    out = []

    def walk(x, top=False):
        if isinstance(x, dict):
            for st in x.get("stops", []):
                if isinstance(st, list) and len(st) == 2:
                    walk(st[1])
            if "default" in x:
                walk(x["default"])
        elif isinstance(x, list):
            if len(x) == 2 and x[0] == "literal":
                out.append(x[1])
                return
            if x and isinstance(x[0], str) and x[0] in ("get", "has", "var"):
                return
            for y in x[1:] if x and isinstance(x[0], str) else x:
                walk(y)
        elif isinstance(x, (int, float, str)) and not isinstance(x, bool) and x not in OPS:
            out.append(x)
    walk(value, True)
    seen, res = set(), []
    for c in out:
        k = json.dumps(c)
        if k not in seen:
            seen.add(k)
            res.append(c)
    return res[:4]


def geometry_simplifications(g):
    t = g["type"]
    c = g.get("coordinates")
    if t == "GeometryCollection":
        for k in g["geometries"]:
            yield k
        if len(g["geometries"]) > 1:
            for i in range(len(g["geometries"])):
                yield {"type": t, "geometries": g["geometries"][:i] + g["geometries"][i + 1:]}
    elif t.startswith("Multi"):
        base = t[5:]
        for part in c[:3]:
            yield {"type": base, "coordinates": part}
        if len(c) > 1:
            for i in range(len(c)):
                yield {"type": t, "coordinates": c[:i] + c[i + 1:]}
    elif t == "Polygon":
        if len(c) > 1:
            yield {"type": t, "coordinates": c[:1]}
            for i in range(1, len(c)):
                yield {"type": t, "coordinates": c[:i] + c[i + 1:]}
        for ri, ring in enumerate(c):
            if len(ring) > 4:
                for i in range(len(ring) - 1):
                    nr = ring[:i] + ring[i + 1:-1]
                    nr = nr + [nr[0]]
                    yield {"type": t, "coordinates": c[:ri] + [nr] + c[ri + 1:]}
    elif t == "LineString" and len(c) > 2:
        for i in range(len(c)):
            yield {"type": t, "coordinates": c[:i] + c[i + 1:]}


def candidates(style):
    """Smaller variants of style, biggest cuts first."""
    layers = style["layers"]
    if len(layers) > 1:
        for i in range(len(layers)):
            s = copy.deepcopy(style)
            del s["layers"][i]
            used = {l.get("source") for l in s["layers"]}
            s["sources"] = {k: v for k, v in s["sources"].items() if k in used}
            yield f"drop layer {layers[i]['id']}", s
    for sid, src in style["sources"].items():
        feats = src["data"]["features"]
        if len(feats) > 1:
            half = len(feats) // 2
            for part, label in ((feats[:half], "first half"), (feats[half:], "second half")):
                s = copy.deepcopy(style)
                s["sources"][sid]["data"]["features"] = copy.deepcopy(part)
                yield f"keep {label} of {sid}'s features", s
            for i in range(len(feats)):
                s = copy.deepcopy(style)
                del s["sources"][sid]["data"]["features"][i]
                yield f"drop feature {i} of {sid}", s
    for li, l in enumerate(layers):
        for key in ("filter", "minzoom", "maxzoom"):
            if key in l:
                s = copy.deepcopy(style)
                del s["layers"][li][key]
                yield f"drop {key} of {l['id']}", s
        for section in ("paint", "layout"):
            for name, v in (l.get(section) or {}).items():
                s = copy.deepcopy(style)
                del s["layers"][li][section][name]
                yield f"drop {name} of {l['id']}", s
                if name != "line-gradient" and isinstance(v, (list, dict)) and not (name.endswith("translate") and isinstance(v, list) and
                                                        all(isinstance(x, (int, float)) for x in v)):
                    for c in constants_of(v):
                        s = copy.deepcopy(style)
                        s["layers"][li][section][name] = c
                        yield f"{name} of {l['id']} → {json.dumps(c)}", s
        f = l.get("filter")
        if isinstance(f, list) and f and f[0] in ("all", "any") and len(f) > 2:
            for i in range(1, len(f)):
                s = copy.deepcopy(style)
                s["layers"][li]["filter"] = f[:i] + f[i + 1:]
                yield f"drop filter term {i} of {l['id']}", s
    for sid, src in style["sources"].items():
        for i, feat in enumerate(src["data"]["features"]):
            for g in geometry_simplifications(feat["geometry"]):
                s = copy.deepcopy(style)
                s["sources"][sid]["data"]["features"][i]["geometry"] = g
                yield f"simplify geometry of feature {i} of {sid} ({feat['geometry']['type']} → {g['type']})", s
    t = style["metadata"]["test"]
    if style.get("bearing"):
        s = copy.deepcopy(style); s["bearing"] = 0; yield "bearing 0", s
    if style.get("pitch"):
        s = copy.deepcopy(style); s["pitch"] = 0; yield "pitch 0", s
    if t.get("pixelRatio", 1) != 1:
        s = copy.deepcopy(style); s["metadata"]["test"]["pixelRatio"] = 1; yield "ratio 1", s
    if style.get("zoom") != round(style.get("zoom", 0)):
        s = copy.deepcopy(style); s["zoom"] = round(style["zoom"]); yield "whole zoom", s
    for key in ("width", "height"):
        if t.get(key, 512) > 64:
            s = copy.deepcopy(style); s["metadata"]["test"][key] = max(64, t[key] // 2); yield f"{key} / 2", s
    for sid, src in style["sources"].items():
        for opt in ("maxzoom", "tolerance", "buffer"):
            if opt in src:
                s = copy.deepcopy(style); del s["sources"][sid][opt]; yield f"drop {opt} of {sid}", s
        for i, feat in enumerate(src["data"]["features"]):
            if "id" in feat:
                s = copy.deepcopy(style); del s["sources"][sid]["data"]["features"][i]["id"]; yield f"drop id of feature {i}", s
            for p in list(feat.get("properties", {})):
                s = copy.deepcopy(style); del s["sources"][sid]["data"]["features"][i]["properties"][p]
                yield f"drop property {p} of feature {i}", s


def size_of(style):
    return len(json.dumps(style))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", default=".build/debug/glmap-bench")
    ap.add_argument("--limit", type=float, default=0.00025)
    ap.add_argument("--max-steps", type=int, default=400)
    a = ap.parse_args()
    with open(os.path.join(a.case, "style.json"), encoding="utf-8") as fh:
        style = json.load(fh)
    style.get("metadata", {}).pop("differential", None)
    checker = Checker(os.path.abspath(a.bench), a.limit)
    status, frac, msg = checker.measure(style)
    if status == "oracle-error":
        print(f"reduce: MapLibre Native cannot draw {a.case}: {msg}", file=sys.stderr)
        return 2
    if status == "ok" and frac <= a.limit:
        print(f"reduce: {a.case} does not fail ({frac} ≤ {a.limit})", file=sys.stderr)
        return 2
    want_error = error_kind(msg) if status == "glmap-error" else None
    log = [f"start: {status} {frac} {msg}  ({size_of(style)} bytes)"]

    def still_fails(s):
        st, fr, m = checker.measure(s)
        if want_error is not None:
            return st == "glmap-error" and error_kind(m) == want_error, (st, fr, m)
        return st == "ok" and fr is not None and fr > a.limit, (st, fr, m)

    steps = 0
    changed = True
    while changed and steps < a.max_steps:
        changed = False
        for label, cand in candidates(style):
            steps += 1
            if steps >= a.max_steps:
                break
            if size_of(cand) >= size_of(style) and not label.startswith(("bearing", "pitch", "ratio", "whole", "width", "height")):
                continue
            ok, res = still_fails(cand)
            if ok:
                style = cand
                log.append(f"{label}: {res[0]} {res[1]}  ({size_of(style)} bytes)")
                changed = True
                break
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "style.json"), "w", encoding="utf-8") as fh:
        json.dump(style, fh, indent=1)
    final = checker.measure(style, save=a.out)
    log.append(f"final: {final[0]} {final[1]} {final[2]}  after {steps} candidates")
    with open(os.path.join(a.out, "reduce.log"), "w", encoding="utf-8") as fh:
        fh.write(f"reduced from {os.path.abspath(a.case)}\n" + "\n".join(log) + "\n")
    saved = os.path.join(a.out, "case")
    if os.path.isdir(saved):
        for f in os.listdir(saved):
            shutil.move(os.path.join(saved, f), os.path.join(a.out, f))
        os.rmdir(saved)
    shutil.rmtree(checker.tmp, ignore_errors=True)
    print(f"reduce: {a.case} → {a.out}: {final[0]} {final[1]} ({size_of(style)} bytes, {len(log) - 2} steps accepted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
