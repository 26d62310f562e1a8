#!/bin/bash
# The six scenes of ../shared/scenes WITH their circle layers, glmap against MapLibre Native, and
# against Native drawing the circle layers from a copy of their source with `buffer: 0` (each
# point then reaches only its own tile, as GL JS's circle bucket keeps it: docs/conformance.md,
# circles near tile edges). Prints a Markdown table of pixelmatch fractions (render-test rule:
# threshold 0.1285, anti-aliased pixels not counted). Needs a release build and pymgl in .venv:
#   swift build -c release && bash Benchmarks/scenes-with-circles.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${GLMAP_PYTHON:-.venv/bin/python}
RS=Tests/GLMapTests/MapLibreNativeCases/render_scene.py
G=$(swift build -c release --show-bin-path)/glmap
SCENES=${SCENES_DIR:-../shared/scenes}
OUT=${OUT:-.build/scenes-with-circles}
export EGL_PLATFORM=surfaceless
# glmap compare exits 1 beyond the rule; the fraction is what this prints.
fraction() { { "$G" compare "$1" "$2" --json || true; } | "$PY" -c 'import json, sys; d = json.load(sys.stdin); print("%.5f" % (d["mismatched"] / d["pixels"]))'; }
echo "| scene | frame | with circles | circle layers at buffer 0 in Native |"
echo "| --- | --- | ---: | ---: |"
for s in cities helsinki montreal nyc_boroughs us_states world; do
  for frame in "1024 1" "512 2"; do
    set -- $frame; t=$OUT/$s-$1-$2; mkdir -p "$t"
    "$PY" "$RS" "$SCENES/$s.style.json" "$t/native.png" "$1" "$1" "$2" --with-circles --write-style "$t/style.json" >/dev/null
    "$PY" - "$t" <<'PY'
import json, sys
t = sys.argv[1]
s = json.load(open(t + "/style.json"))
for layer in s["layers"]:
    if layer.get("type") == "circle":
        copy = dict(s["sources"][layer["source"]], buffer=0)
        s["sources"][layer["source"] + "~b0"] = copy
        layer["source"] += "~b0"
json.dump(s, open(t + "/style-b0.json", "w"))
PY
    "$PY" "$RS" "$t/style-b0.json" "$t/native-b0.png" "$1" "$1" "$2" --with-circles >/dev/null
    "$G" render --style "$t/style.json" --output "$t/glmap.png" --width "$1" --height "$1" --ratio "$2" >/dev/null
    echo "| $s | $1² × $2 | $(fraction "$t/native.png" "$t/glmap.png") | $(fraction "$t/native-b0.png" "$t/glmap.png") |"
  done
done
