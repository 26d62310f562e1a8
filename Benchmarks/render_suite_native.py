#!/usr/bin/env python3
"""MapLibre Native (PyPI pymgl 0.5) on MapLibre GL JS's render suite, judged by the same rule as
glmap, and the two counted side by side per family.

    .venv/bin/python Benchmarks/render_suite_native.py --suite ../shared/render-suite \
        --glmap .build/release/glmap --glmap-junit out/glmap-junit.xml --out out [--jobs 2]

What it does, per case of <suite>/cases (the suite's manifest.tsv gives each case's family):
  * A case whose metadata.test.operations hold anything but wait/idle/sleep is NOT RUN for Native:
    pymgl has no harness for them (counted apart, never as a failure or a pass).
  * The style's URLs are rewritten as GL JS's harness rewrites them (local:// -> the harness origin
    http://localhost:2900/, mapbox://fonts -> glyphs/, mapbox://sprites -> sprites/, mapbox:// in
    tiles -> tiles/, in url/urls -> tilesets/), and the suite folder is served on 127.0.0.1:2900
    (and an empty origin on :2901, where upstream's mvt-fixtures are not), so TileJSON files that
    name http://localhost:2900/... load too; paths containing /sparse204/1- answer 204 No Content.
    Nothing leaves the machine.
  * The map is drawn at the case's size and pixel ratio (lowered to fit an 8192-px canvas, as the
    harness's maxCanvasSize does), at the style's centre, zoom, bearing and pitch (pitch clamped to
    metadata.test.maxPitch, default 60); reportWidth/reportHeight keep the bottom-left corner.
  * It is compared with `glmap compare --json` (pixelmatch 7.1.0, the case's threshold, anti-aliased
    pixels not counted) against every expected*.png: pass when the smallest difference <= allowed.
glmap's verdicts come from the JUnit file of `glmap test <suite>/cases --junit FILE` (a <testcase>
with no child passed).

Writes <out>/native/<case>/actual.png, <out>/render-suite-native.tsv (one row per case) and
<out>/render-suite-native.md (the tables), and prints the tables.

Workers render up to --batch cases each, keeping every Map alive until the worker exits (pymgl
segfaults when a Map is made after another was destroyed); a worker that dies or stalls loses
only its current case, which is counted as an error.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

WAITS = {"wait", "idle", "sleep"}
ORIGIN = "http://localhost:2900/"
MAX_CANVAS = 8192.0


# ---------------------------------------------------------------------------------------------
# Harness rules (test/integration/lib/localize-urls.ts, run_render_tests.ts)

def localize_url(url: str) -> str:
    return ORIGIN + url[len("local://"):] if url.startswith("local://") else url


def mapbox_url(url: str, folder: str) -> str:
    if url.startswith("mapbox://"):
        url = ORIGIN + folder + url[len("mapbox://"):]
    return localize_url(url)


def localize_source(s: dict) -> dict:
    if isinstance(s.get("tiles"), list):
        s["tiles"] = [mapbox_url(t, "tiles/") if isinstance(t, str) else t for t in s["tiles"]]
    if isinstance(s.get("urls"), list):
        s["urls"] = [mapbox_url(u, "tilesets/") if isinstance(u, str) else u for u in s["urls"]]
    if isinstance(s.get("url"), str):
        s["url"] = mapbox_url(s["url"], "tilesets/")
    if isinstance(s.get("data"), str):
        s["data"] = localize_url(s["data"])
    return s


def localize_style(style: dict) -> dict:
    for sid, s in (style.get("sources") or {}).items():
        if isinstance(s, dict):
            localize_source(s)
    sprite = style.get("sprite")
    if isinstance(sprite, str):
        style["sprite"] = mapbox_url(sprite, "")
    elif isinstance(sprite, list):
        for e in sprite:
            if isinstance(e, dict) and isinstance(e.get("url"), str):
                e["url"] = mapbox_url(e["url"], "")
    glyphs = style.get("glyphs")
    if isinstance(glyphs, str):
        if glyphs.startswith("mapbox://fonts"):
            glyphs = ORIGIN + "glyphs" + glyphs[len("mapbox://fonts"):]
        style["glyphs"] = localize_url(glyphs)
    return style


def test_options(style: dict) -> dict:
    t = dict((style.get("metadata") or {}).get("test") or {})
    w, h = int(t.get("width", 512)), int(t.get("height", 512))
    ratio = float(t.get("pixelRatio", 1))
    limit = t.get("maxCanvasSize") or [MAX_CANVAS, MAX_CANVAS]
    scale = min(limit[0] / (w * ratio) if w * ratio > limit[0] else 1, limit[1] / (h * ratio) if h * ratio > limit[1] else 1)
    return {
        "width": w, "height": h, "ratio": ratio * scale,
        "allowed": float(t.get("allowed", 0.00025)), "threshold": float(t.get("threshold", 0.1285)),
        "operations": t.get("operations") or [], "maxPitch": float(t.get("maxPitch", 60)),
        "report": (int(t["reportWidth"]), int(t["reportHeight"])) if "reportWidth" in t and "reportHeight" in t else None,
    }


def needs_operations(ops) -> bool:
    return any(not (isinstance(o, list) and o and o[0] in WAITS) for o in ops)


# ---------------------------------------------------------------------------------------------
# The asset server (the harness's origin, on the loopback interface only)

class AssetHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if "/sparse204/1-" in self.path:
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


def serve(root: str):
    servers = []
    for port, directory in ((2900, root), (2901, os.path.join(root, "mvt-fixtures", "real-world"))):
        handler = functools.partial(AssetHandler, directory=directory)
        try:
            srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError as e:
            sys.exit(f"render_suite_native: cannot serve the suite on 127.0.0.1:{port} ({e}); is another run going?")
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
    return servers


# ---------------------------------------------------------------------------------------------
# Worker: renders cases named on stdin-less argv, one JSON line per case on stdout

def worker(suite: str, out: str, names: list[str]):
    os.environ.setdefault("EGL_PLATFORM", "surfaceless")
    from pymgl import Map   # noqa: E402
    from PIL import Image   # noqa: E402
    keep = []   # every Map stays alive until the process ends (see the module's doc)
    for name in names:
        print(json.dumps({"case": name, "started": True}), flush=True)
        row = {"case": name}
        try:
            style = json.load(open(os.path.join(suite, "cases", name, "style.json"), encoding="utf-8"))
            opt = test_options(style)
            style = localize_style(style)
            lon, lat = (style.get("center") or [0, 0])[:2]
            m = Map(json.dumps(style), opt["width"], opt["height"], opt["ratio"], lon, lat, style.get("zoom", 0))
            keep.append(m)
            if style.get("bearing"):
                m.setBearing(style["bearing"] % 360)   # pymgl takes 0…360 only
            if style.get("pitch"):
                m.setPitch(min(style["pitch"], opt["maxPitch"]))
            png = m.renderPNG()
            target = os.path.join(out, "native", name)
            os.makedirs(target, exist_ok=True)
            actual = os.path.join(target, "actual.png")
            if opt["report"]:
                img = Image.open(io.BytesIO(png))
                rw, rh = opt["report"]
                img.crop((0, img.height - rh, rw, img.height)).save(actual)
            else:
                with open(actual, "wb") as fh:
                    fh.write(png)
            row["actual"] = actual
        except Exception as e:   # pymgl raises for styles it refuses
            row["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        print(json.dumps(row), flush=True)
    os._exit(0)   # skip pymgl's teardown (its Maps are never destroyed)


# ---------------------------------------------------------------------------------------------
# Driver

def compare(glmap: str, actual: str, case_dir: str, opt: dict) -> tuple[bool, float | None, str]:
    best = None
    expected = sorted(f for f in os.listdir(case_dir) if f.startswith("expected") and f.endswith(".png"))
    if not expected:
        return False, None, "no expected*.png"
    for f in expected:
        r = subprocess.run([glmap, "compare", os.path.join(case_dir, f), actual, "--json",
                            "--threshold", str(opt["threshold"]), "--allowed", str(opt["allowed"])],
                           capture_output=True, text=True)
        try:
            d = json.loads(r.stdout)["difference"]
        except (ValueError, KeyError):
            return False, None, (r.stderr.strip() or r.stdout.strip())[:300]
        if best is None or d < best:
            best = d
    return best <= opt["allowed"], best, ""


def run_native(a, names: list[str]) -> dict[str, dict]:
    results: dict[str, dict] = {}
    queue = list(names)
    lock = threading.Lock()

    def next_batch():
        with lock:
            batch = queue[:a.batch]
            del queue[:a.batch]
            return batch

    def drive():
        while True:
            batch = next_batch()
            if not batch:
                return
            while batch:
                p = subprocess.Popen([sys.executable, __file__, "--worker", "--suite", a.suite, "--out", a.out, *batch],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                current, done = None, set()
                timer = threading.Timer(a.timeout * len(batch), p.kill)
                timer.start()
                for line in p.stdout:
                    try:
                        row = json.loads(line)
                    except ValueError:
                        continue
                    if row.get("started"):
                        current = row["case"]
                        continue
                    with lock:
                        results[row["case"]] = row
                    done.add(row["case"])
                    current = None
                p.wait()
                timer.cancel()
                if current is not None:   # died or stalled on this case
                    with lock:
                        results[current] = {"case": current, "error": f"pymgl died (exit {p.returncode}) or stalled"}
                    done.add(current)
                batch = [n for n in batch if n not in done]
                if batch and current is None:   # died between cases: count the rest as errors
                    with lock:
                        for n in batch:
                            results[n] = {"case": n, "error": f"pymgl worker exited ({p.returncode})"}
                    batch = []

    threads = [threading.Thread(target=drive) for _ in range(max(1, a.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def glmap_verdicts(junit: str) -> dict[str, bool]:
    verdicts = {}
    for tc in ET.parse(junit).getroot().iter("testcase"):
        if tc.get("classname") == "glmap" and tc.get("name") == "pass floor":
            continue
        verdicts[tc.get("name")] = len(list(tc)) == 0
    return verdicts


def read_manifest(suite: str) -> dict[str, str]:
    fam = {}
    with open(os.path.join(suite, "manifest.tsv"), encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            cols = line.rstrip("\n").split("\t")
            if i == 0 and cols[0] == "case":
                continue
            fam[cols[0]] = cols[4]
    return fam


# The README's coarse groups, from a family (manifest.tsv's needs_beyond_current_subset).
RASTER = {"layer:raster", "source:raster", "source:raster-dem", "source:image", "layer:hillshade", "layer:color-relief"}
EXOTIC = {"projection-globe", "terrain", "sky", "debug-overlay", "custom-layer", "roll", "mlt", "source:canvas", "source:video"}


def base_group(needs: set) -> str:
    if not needs:
        return "background/fill/line/circle over GeoJSON"
    if needs & EXOTIC:
        return "globe, terrain, sky, debug, custom layers, mixtures"
    if needs == {"source:vector"}:
        return "a vector source only"
    if "layer:symbol" in needs and needs <= {"layer:symbol", "source:vector"}:
        return "symbol layers"
    if needs <= RASTER:
        return "raster / raster-dem / image sources and layers"
    if "layer:fill-extrusion" in needs and needs <= {"layer:fill-extrusion", "pattern", "source:vector"}:
        return "fill-extrusion"
    if "layer:heatmap" in needs and needs <= {"layer:heatmap", "source:vector"}:
        return "heatmap"
    if needs <= {"pattern", "source:vector"}:
        return "patterns"
    return "globe, terrain, sky, debug, custom layers, mixtures"


def group(family: str) -> str:
    """Operations on anything but the exotic group count as runtime operations."""
    needs = set() if family == "-" else set(family.split(","))
    if "operations" in needs:
        g = base_group(needs - {"operations", "feature-state"})
        return g if g == GROUP_ORDER[-1] else "runtime operations"
    return base_group(needs)


GROUP_ORDER = ["background/fill/line/circle over GeoJSON", "a vector source only", "raster / raster-dem / image sources and layers",
               "symbol layers", "fill-extrusion", "heatmap", "patterns", "runtime operations",
               "globe, terrain, sky, debug, custom layers, mixtures"]


def table(rows: list[dict], key, order=None) -> list[str]:
    agg: dict[str, list[int]] = {}
    for r in rows:
        k = key(r)
        a = agg.setdefault(k, [0, 0, 0, 0])
        a[0] += 1
        a[1] += r["glmap"] == "pass"
        a[2] += r["native"] != "not run"
        a[3] += r["native"] == "pass"
    keys = order if order else sorted(agg, key=lambda k: (-agg[k][0], k))
    out = ["| family | cases | glmap passes | MapLibre Native passes (run) |", "| --- | ---: | ---: | ---: |"]
    for k in keys:
        if k not in agg:
            continue
        c, g, run, n = agg[k]
        out.append(f"| {k} | {c} | {g} | {n} ({run}) |")
    c = len(rows)
    g = sum(r["glmap"] == "pass" for r in rows)
    run = sum(r["native"] != "not run" for r in rows)
    n = sum(r["native"] == "pass" for r in rows)
    out.append(f"| **all** | **{c}** | **{g}** | **{n} ({run})** |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default="../shared/render-suite")
    ap.add_argument("--glmap", default=".build/release/glmap", help="the glmap binary (for glmap compare)")
    ap.add_argument("--glmap-junit", help="JUnit XML of `glmap test <suite>/cases` (glmap's verdicts)")
    ap.add_argument("--out", default="render-suite-native-out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40, help="cases per pymgl worker process")
    ap.add_argument("--timeout", type=float, default=60, help="seconds a case may take")
    ap.add_argument("--filter", help="only cases whose name contains this")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("names", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    a.suite = os.path.abspath(a.suite)
    a.out = os.path.abspath(a.out)
    if a.worker:
        worker(a.suite, a.out, a.names)
        return
    os.makedirs(a.out, exist_ok=True)
    family = read_manifest(a.suite)
    names = sorted(n for n in family if not a.filter or a.filter in n)
    options, runnable = {}, []
    for n in names:
        style = json.load(open(os.path.join(a.suite, "cases", n, "style.json"), encoding="utf-8"))
        options[n] = test_options(style)
        if not needs_operations(options[n]["operations"]):
            runnable.append(n)
    print(f"render_suite_native: {len(names)} cases, {len(runnable)} without operations run by MapLibre Native "
          f"(pymgl), {a.jobs} workers", file=sys.stderr)
    servers = serve(a.suite)
    t0 = time.time()
    native = run_native(a, runnable)
    for srv in servers:
        srv.shutdown()
    print(f"render_suite_native: drawn in {time.time() - t0:.0f} s; comparing", file=sys.stderr)
    glmap = glmap_verdicts(a.glmap_junit) if a.glmap_junit else {}
    rows = []
    for n in names:
        r = {"case": n, "family": family[n], "glmap": "pass" if glmap.get(n) else ("fail" if n in glmap else "-")}
        if n not in native:
            r["native"], r["detail"] = "not run", "operations"
        elif "error" in native[n]:
            r["native"], r["detail"] = "error", native[n]["error"]
        else:
            ok, diff, problem = compare(a.glmap, native[n]["actual"], os.path.join(a.suite, "cases", n), options[n])
            r["native"] = "pass" if ok else "fail"
            r["detail"] = problem or f"difference {diff:.5f}"
        rows.append(r)
    with open(os.path.join(a.out, "render-suite-native.tsv"), "w", encoding="utf-8") as fh:
        fh.write("case\tfamily\tglmap\tnative\tdetail\n")
        for r in rows:
            fh.write(f"{r['case']}\t{r['family']}\t{r['glmap']}\t{r['native']}\t{r['detail']}\n")
    lines = ["## By group (README's families)", ""] + table(rows, lambda r: group(r["family"]), GROUP_ORDER)
    lines += ["", "## By family (manifest.tsv's needs_beyond_current_subset)", ""] + table(rows, lambda r: r["family"])
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "render-suite-native.md"), "w", encoding="utf-8") as fh:
        fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
