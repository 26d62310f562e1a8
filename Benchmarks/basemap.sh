#!/usr/bin/env bash
# The Helsinki basemap (examples/basemap: OpenMapTiles MBTiles, OSM Bright and MapTiler Basic
# without symbols) through glmap and MapLibre Native (pymgl) in the same script, same machine.
#
#   swift build -c release --product glmap && swift build -c release --product glmap-bench
#   bash examples/basemap/build.sh && .venv/bin/python examples/basemap/styles.py --bright … --basic …
#   bash Benchmarks/basemap.sh [frame] [serve] [batch]        (default: all three)
#   STYLES="osm-bright" ROUNDS=5 FRAMES=100 SERVE_REQUESTS=3000 BATCH=1000 bash Benchmarks/basemap.sh frame
#
# frame — a 1024² frame, ROUNDS interleaved rounds, medians:
#   cold: one frame in a fresh process, wall time from exec to the PNG written: `glmap render`
#         vs a Python process that imports pymgl, makes the Map and calls renderPNG (its
#         interpreter start-up and import are timed apart and also subtracted: "in-process").
#   warm: FRAMES frames of glmap-bench's fly-through path (pan, zoom 14.5 → 16, bearing 0 → 60°,
#         pitch up to 40°) from the style's centre at zoom 15: `glmap-bench flythrough` (batch
#         pipeline, PNG encoded on the pool) vs Benchmarks/flythrough_maplibre.py (renderPNG per
#         frame) on the same path. Target: glmap's time ≤ 0.5 × Native's.
# serve — Benchmarks/serve-load.sh with the basemap style: every 256-px tile of zooms 13–17 that
#   meets the extract's box, SERVE_REQUESTS requests (wrk, 16 connections, --cache 0), against
#   pymgl rendering the same tiles in one process. Target: ≥ 3 × Native's tiles/s.
# batch — `glmap render --frames` of BATCH 512² frames (a path over the extract at zooms 13–17
#   with bearing and pitch; PNGs written to a temporary folder), RSS sampled every 0.2 s: ten
#   samples over the run and the peak (VmHWM) — flat means the last samples are not above the
#   first ones; pymgl drawing the same frames in one process beside it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GLMAP="${GLMAP:-.build/release/glmap}"
BENCH="${BENCH:-.build/release/glmap-bench}"
PY="${GLMAP_PYTHON:-.venv/bin/python}"
STYLES="${STYLES:-osm-bright maptiler-basic}"
ROUNDS="${ROUNDS:-3}"; FRAMES="${FRAMES:-100}"; SERVE_REQUESTS="${SERVE_REQUESTS:-3000}"; BATCH="${BATCH:-1000}"
BBOX=24.935177,60.164155,24.953413,60.179107
parts="${*:-frame serve batch}"
[ -x "$GLMAP" ] && [ -x "$BENCH" ] || { echo "basemap.sh: build glmap and glmap-bench first (swift build -c release --product glmap; … --product glmap-bench)" >&2; exit 1; }
"$PY" -c "import pymgl" 2>/dev/null || { echo "basemap.sh: $PY cannot import pymgl (bash .ci/install-deps)" >&2; exit 1; }
[ -f .build/basemap/helsinki.mbtiles ] || { echo "basemap.sh: .build/basemap/helsinki.mbtiles missing: bash examples/basemap/build.sh" >&2; exit 1; }
for s in $STYLES; do
  [ -f ".build/basemap/styles/$s.json" ] || { echo "basemap.sh: .build/basemap/styles/$s.json missing: examples/basemap/styles.py (see examples/basemap/README.md)" >&2; exit 1; }
done
export EGL_PLATFORM="${EGL_PLATFORM:-surfaceless}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmap-basemap-bench.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
ms_now() { date +%s%N | awk '{printf "%.3f", $1 / 1e6}'; }

echo "# basemap benchmark, $(date -u '+%F %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# glmap $("$GLMAP" --version 2>/dev/null || echo '?'), pymgl $("$PY" -c 'from importlib.metadata import version; print(version("pymgl"))'), $(swift --version 2>/dev/null | head -1)"

cat > "$TMP/native_frame.py" <<'EOF'
import json, os, sys, time
t_start = time.perf_counter()
from pymgl import Map
t_import = time.perf_counter()
style_path, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = json.load(open(style_path))
m = Map(json.dumps(s), size, size, 1, s["center"][0], s["center"][1], s["zoom"])
open(out, "wb").write(m.renderPNG())
t_end = time.perf_counter()
print("%.3f %.3f" % ((t_import - t_start) * 1000, (t_end - t_import) * 1000))
sys.stdout.flush()
os._exit(0)
EOF

if [[ " $parts " == *" frame "* ]]; then
  echo
  echo "## frame: 1024², median of $ROUNDS rounds (ms; ratio = glmap / Native, target ≤ 0.5)"
  printf '%-16s %12s %14s %18s %8s %14s %14s %8s\n' style glmap-cold native-cold native-in-proc ratio glmap-warm native-warm ratio
  for s in $STYLES; do
    style=".build/basemap/styles/$s.json"
    : > "$TMP/gc"; : > "$TMP/nc"; : > "$TMP/np"; : > "$TMP/gw"; : > "$TMP/nw"
    for r in $(seq 1 "$ROUNDS"); do
      t0=$(ms_now); "$GLMAP" render --style "$style" -o "$TMP/g.png" --width 1024 --height 1024 --quiet; t1=$(ms_now)
      awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}' >> "$TMP/gc"
      t0=$(ms_now); read -r imp inproc < <("$PY" "$TMP/native_frame.py" "$style" "$TMP/n.png" 1024); t1=$(ms_now)
      awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}' >> "$TMP/nc"; echo "$inproc" >> "$TMP/np"
      "$BENCH" flythrough --style "$style" --frames "$FRAMES" --width 1024 --path-out "$TMP/path.jsonl" > "$TMP/fly"
      awk -F'\t' '$1=="frame-ms"{print $2}' "$TMP/fly" >> "$TMP/gw"
      "$PY" Benchmarks/flythrough_maplibre.py "$style" --path "$TMP/path.jsonl" --width 1024 --height 1024 --json |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["frame_ms"])' >> "$TMP/nw"
    done
    gc=$(median < "$TMP/gc"); nc=$(median < "$TMP/nc"); np=$(median < "$TMP/np"); gw=$(median < "$TMP/gw"); nw=$(median < "$TMP/nw")
    awk -v s="$s" -v gc="$gc" -v nc="$nc" -v np="$np" -v gw="$gw" -v nw="$nw" \
      'BEGIN{printf "%-16s %12.1f %14.1f %18.1f %8.2f %14.2f %14.2f %8.2f\n", s, gc, nc, np, gc/np, gw, nw, gw/nw}'
  done
  echo "# cold ratio: glmap's whole process against Native's in-process time (its Python start-up and import left out)"
fi

if [[ " $parts " == *" serve "* ]]; then
  for s in $STYLES; do
    echo
    echo "## serve: $s, zooms 13–17 over the extract"
    STYLE=".build/basemap/styles/$s.json" ZOOMS=13-17 BBOX="$BBOX" REQUESTS="$SERVE_REQUESTS" GLMAP="$GLMAP" \
      bash Benchmarks/serve-load.sh | grep -v '^# glmap serve load\|^# style'
  done
fi

if [[ " $parts " == *" batch "* ]]; then
  s=${STYLES%% *}
  style=".build/basemap/styles/$s.json"
  echo
  echo "## batch: $BATCH frames of 512², $s, glmap render --frames (RSS in MiB)"
  "$PY" - "$TMP" "$BATCH" <<'EOF'
import json, math, sys
tmp, n = sys.argv[1], int(sys.argv[2])
with open(tmp + "/frames.jsonl", "w") as fh:
    for i in range(n):
        t = i / max(1, n - 1)
        fh.write(json.dumps({"lon": 24.9443 + 0.006 * math.sin(6.1 * t), "lat": 60.1716 + 0.004 * math.cos(4.3 * t),
                             "zoom": round(13 + 4 * (0.5 - 0.5 * math.cos(7 * t)), 3), "bearing": round(360 * t * 3 % 360, 2),
                             "pitch": round(30 + 30 * math.sin(5 * t), 2), "width": 512, "height": 512,
                             "output": "%s/frames/f%04d.png" % (tmp, i)}) + "\n")
EOF
  mkdir -p "$TMP/frames"
  t0=$(ms_now)
  "$GLMAP" render --style "$style" --frames "$TMP/frames.jsonl" --quiet &
  pid=$!
  : > "$TMP/rss"
  while kill -0 "$pid" 2>/dev/null; do
    awk '/^VmRSS:/{print $2/1024}' "/proc/$pid/status" 2>/dev/null >> "$TMP/rss" || true
    awk '/^VmHWM:/{print $2/1024}' "/proc/$pid/status" 2>/dev/null > "$TMP/hwm" || true
    sleep 0.2
  done
  wait "$pid"
  t1=$(ms_now)
  count=$(ls "$TMP/frames" | wc -l)
  "$PY" - "$TMP" "$count" "$t0" "$t1" <<'EOF'
import sys
tmp, count, t0, t1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rss = [float(l) for l in open(tmp + "/rss") if l.strip()]
hwm = open(tmp + "/hwm").read().strip()
picks = [rss[len(rss) * (i + 1) // 10 - 1] for i in range(10)] if len(rss) >= 10 else rss
print("glmap render --frames: %d frames in %.1f s (%.1f frames/s); RSS over the run (10 samples): %s; peak %s MiB"
      % (count, (t1 - t0) / 1000, count / ((t1 - t0) / 1000), " ".join("%.1f" % v for v in picks), hwm))
EOF
  rm -rf "$TMP/frames"
  "$PY" - "$style" "$TMP/frames.jsonl" <<'EOF'
import json, os, sys, time
from pymgl import Map
style, frames = sys.argv[1], [json.loads(l) for l in open(sys.argv[2])]
s = json.load(open(style))
m = Map(json.dumps(s), 512, 512, 1, s["center"][0], s["center"][1], s["zoom"])
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"): return int(line.split()[1]) / 1024
samples = []
t0 = time.perf_counter()
for i, f in enumerate(frames):
    m.setCenter(f["lon"], f["lat"]); m.setZoom(f["zoom"]); m.setBearing(f["bearing"]); m.setPitch(f["pitch"])
    m.renderPNG()
    if (i + 1) % max(1, len(frames) // 10) == 0: samples.append(rss("VmRSS"))
dt = time.perf_counter() - t0
print("MapLibre Native (pymgl, one Map, renderPNG): %d frames in %.1f s (%.1f frames/s); RSS (10 samples): %s; peak %.1f MiB"
      % (len(frames), dt, len(frames) / dt, " ".join("%.1f" % v for v in samples[:10]), rss("VmHWM")))
sys.stdout.flush()
os._exit(0)
EOF
fi
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
