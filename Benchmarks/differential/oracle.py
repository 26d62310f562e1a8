#!/usr/bin/env python3
"""Draws render-test-layout cases with MapLibre Native (pymgl 0.5) into each case's expected.png.

    .venv/bin/python Benchmarks/differential/oracle.py DIR [--jobs 2] [--batch 40] [--force]

For every DIR/<case>/style.json without an expected.png (all of them with --force) it renders the
style at metadata.test's width, height and pixelRatio, with the style root's center, zoom, bearing
and pitch, and writes expected.png (straight alpha, as the render tests' expected images). A case
MapLibre Native rejects or crashes on gets oracle-error.txt instead, saying why; the harness leaves
such cases out and counts them.

pymgl 0.5 segfaults when a second Map is created after an earlier one was destroyed, so a worker
process keeps every Map it made alive and draws at most --batch cases; the driver starts workers
until every case has a result (a case whose worker died is marked as crashed and skipped).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")


def worker(dirs):
    from pymgl import Map
    keep = []
    for d in dirs:
        # Tell the driver which case is in flight, so a crash is charged to it.
        print("start " + d, flush=True)
        try:
            with open(os.path.join(d, "style.json"), encoding="utf-8") as fh:
                style = json.load(fh)
            t = style.get("metadata", {}).get("test", {})
            w, h, ratio = int(t.get("width", 512)), int(t.get("height", 512)), float(t.get("pixelRatio", 1))
            lon, lat = (style.get("center") or [0, 0])[:2]
            m = Map(json.dumps(style), w, h, ratio, lon, lat, float(style.get("zoom", 0)))
            keep.append(m)
            if style.get("bearing"):
                m.setBearing(float(style["bearing"]) % 360)   # pymgl wants 0 ≤ bearing < 360
            if style.get("pitch"):
                m.setPitch(float(style["pitch"]))
            png = m.renderPNG()
            tmp = os.path.join(d, "expected.png.tmp")
            with open(tmp, "wb") as fh:
                fh.write(png)
            os.replace(tmp, os.path.join(d, "expected.png"))
        except Exception as e:  # noqa: BLE001 - any MapLibre Native refusal is recorded per case
            with open(os.path.join(d, "oracle-error.txt"), "w", encoding="utf-8") as fh:
                fh.write(f"MapLibre Native refused the style: {type(e).__name__}: {e}\n")
        print("done " + d, flush=True)
    sys.stdout.flush()
    os._exit(0)   # never destroy a Map (pymgl 0.5)


def pending(root, force):
    out = []
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isfile(os.path.join(d, "style.json")):
            continue
        if force:
            for f in ("expected.png", "oracle-error.txt"):
                if os.path.exists(os.path.join(d, f)):
                    os.remove(os.path.join(d, f))
        if not os.path.exists(os.path.join(d, "expected.png")) and not os.path.exists(os.path.join(d, "oracle-error.txt")):
            out.append(d)
    return out


def drive(root, jobs, batch, force):
    todo = pending(root, force)
    total = len(todo)
    queue = [todo[i:i + batch] for i in range(0, len(todo), batch)]
    running = []
    crashed = 0
    while queue or running:
        while queue and len(running) < jobs:
            chunk = queue.pop(0)
            p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", *chunk],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            running.append((p, chunk))
        p, chunk = running.pop(0)
        try:
            out, _ = p.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        started = [l[6:] for l in out.splitlines() if l.startswith("start ")]
        finished = {l[5:] for l in out.splitlines() if l.startswith("done ")}
        if p.returncode != 0:
            in_flight = [d for d in started if d not in finished]
            for d in in_flight:
                with open(os.path.join(d, "oracle-error.txt"), "w", encoding="utf-8") as fh:
                    fh.write(f"MapLibre Native crashed on this case (exit status {p.returncode})\n")
                crashed += 1
            rest = [d for d in chunk if d not in finished and d not in in_flight]
            if rest:
                queue.append(rest)
    errors = sum(1 for name in os.listdir(root) if os.path.exists(os.path.join(root, name, "oracle-error.txt")))
    print(f"oracle: drew {total} cases with MapLibre Native (pymgl) in {root}; "
          f"{errors} without an image (refused or crashed: see oracle-error.txt), {crashed} crashes this run")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    try:
        import pymgl  # noqa: F401
    except ImportError as e:
        print(f"oracle: pymgl is not installed for {sys.executable} ({e}); run bash .ci/install-deps", file=sys.stderr)
        return 3
    return drive(a.root, a.jobs, a.batch, a.force)


if __name__ == "__main__":
    sys.exit(main())
