#!/usr/bin/env bash
# The 200-frame fly-through (pan, fractional zoom, bearing, pitch) through glmap and through
# MapLibre Native on the same camera path, interleaved: each round runs glmap-bench flythrough
# (which writes the path) and then Benchmarks/flythrough_maplibre.py on that path, at each size.
#
#   swift build -c release --product glmap-bench && bash .ci/install-deps   # .venv with pymgl
#   ROUNDS=3 SCENES="world montreal" SIZES="256 1024" bash Benchmarks/flythrough.sh
#   VARIANTS="off on" ROUNDS=2 bash Benchmarks/flythrough.sh   # before/after view culling, interleaved
#
# VARIANTS: the glmap runs, one row each (default "on"): "on" = this build; "off" = this build
# with GLMAP_VIEW_CULLING=0 (every bucket drawn whole, as before view culling); "before" = the
# glmap-bench binary BENCH_BEFORE. Every round runs each of them and then MapLibre Native on the
# same path.
# Prints per scene and size: frames/s of each (median over rounds), glmap / MapLibre (higher is
# better; target ≥ 3), and glmap's frame time over its pipeline floor (target ≤ 1.25).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHARED="${SHARED:-../shared}"
BENCH="${BENCH:-.build/release/glmap-bench}"
PY="${PY:-.venv/bin/python}"
[ -x "$BENCH" ] || { echo "flythrough: $BENCH missing; swift build -c release --product glmap-bench" >&2; exit 1; }
"$PY" -c "import pymgl" 2>/dev/null || { echo "flythrough: $PY cannot import pymgl (bash .ci/install-deps)" >&2; exit 1; }
ROUNDS="${ROUNDS:-3}"; FRAMES="${FRAMES:-200}"
SCENES="${SCENES:-world montreal nyc_boroughs us_states helsinki cities}"
SIZES="${SIZES:-256 1024}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmap-fly.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "# fly-through, $FRAMES frames, median of $ROUNDS interleaved rounds; $(date -u +%FT%TZ); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %6s %6s %10s %10s %8s %9s %9s %9s %11s\n' scene size glmap glmap-fps mgl-fps ratio frame-ms gl-ms enc-cpu frame/floor
VARIANTS="${VARIANTS:-on}"
for s in $SCENES; do
  style="$SHARED/scenes/$s.style.json"
  for w in $SIZES; do
    rm -f "$TMP"/*.txt; : > "$TMP/m"
    for r in $(seq 1 "$ROUNDS"); do
      for c in $VARIANTS; do
        bin="$BENCH"; culling=1
        [ "$c" = off ] && culling=0
        [ "$c" = before ] && bin="${BENCH_BEFORE:?VARIANTS has before: set BENCH_BEFORE to that glmap-bench binary}"
        GLMAP_VIEW_CULLING="$culling" "$bin" flythrough --style "$style" --frames "$FRAMES" --width "$w" --path-out "$TMP/path.jsonl" > "$TMP/out"
        for k in frames-per-second frame-ms gl-thread-ms encode-cpu-ms frame/floor; do
          awk -F'\t' -v k="$k" '$1==k{print $2}' "$TMP/out" >> "$TMP/$c.$(echo "$k" | tr / _).txt"
        done
      done
      "$PY" Benchmarks/flythrough_maplibre.py "$style" --path "$TMP/path.jsonl" --width "$w" --height "$w" --json |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["frames_per_second"])' >> "$TMP/m"
    done
    m="$(median < "$TMP/m")"
    for c in $VARIANTS; do
      med() { median < "$TMP/$c.$1.txt"; }
      awk -v s="$s" -v w="$w" -v c="$c" -v g="$(med frames-per-second)" -v m="$m" -v f="$(med frame-ms)" -v gl="$(med gl-thread-ms)" \
          -v enc="$(med encode-cpu-ms)" -v fl="$(med frame_floor)" \
        'BEGIN {printf "%-14s %6s %6s %10.1f %10.1f %8.2f %9.2f %9.2f %9.2f %11.2f\n", s, w"²", c, g, m, g/m, f, gl, enc, fl}'
    done
  done
done
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
