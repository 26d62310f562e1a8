#!/usr/bin/env bash
# The 200-frame fly-through (pan, fractional zoom, bearing, pitch) through glmap and through
# MapLibre Native on the same camera path, interleaved: each round runs glmap-bench flythrough
# (which writes the path) and then Benchmarks/flythrough_maplibre.py on that path, at each size.
#
#   swift build -c release --product glmap-bench && bash .ci/install-deps   # .venv with pymgl
#   ROUNDS=3 SCENES="world montreal" SIZES="256 1024" bash Benchmarks/flythrough.sh
#
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
printf '%-14s %6s %10s %10s %8s %9s %9s %9s %11s\n' scene size glmap-fps mgl-fps ratio frame-ms gl-ms enc-cpu frame/floor
for s in $SCENES; do
  style="$SHARED/scenes/$s.style.json"
  for w in $SIZES; do
    : > "$TMP/g"; : > "$TMP/m"; : > "$TMP/f"; : > "$TMP/gl"; : > "$TMP/enc"; : > "$TMP/fl"
    for r in $(seq 1 "$ROUNDS"); do
      "$BENCH" flythrough --style "$style" --frames "$FRAMES" --width "$w" --path-out "$TMP/path.jsonl" > "$TMP/out"
      awk -F'\t' '$1=="frames-per-second"{print $2}' "$TMP/out" >> "$TMP/g"
      awk -F'\t' '$1=="frame-ms"{print $2}' "$TMP/out" >> "$TMP/f"
      awk -F'\t' '$1=="gl-thread-ms"{print $2}' "$TMP/out" >> "$TMP/gl"
      awk -F'\t' '$1=="encode-cpu-ms"{print $2}' "$TMP/out" >> "$TMP/enc"
      awk -F'\t' '$1=="frame/floor"{print $2}' "$TMP/out" >> "$TMP/fl"
      "$PY" Benchmarks/flythrough_maplibre.py "$style" --path "$TMP/path.jsonl" --width "$w" --height "$w" --json |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["frames_per_second"])' >> "$TMP/m"
    done
    g="$(median < "$TMP/g")"; m="$(median < "$TMP/m")"
    awk -v s="$s" -v w="$w" -v g="$g" -v m="$m" -v f="$(median < "$TMP/f")" -v gl="$(median < "$TMP/gl")" \
        -v enc="$(median < "$TMP/enc")" -v fl="$(median < "$TMP/fl")" \
      'BEGIN {printf "%-14s %6s %10.1f %10.1f %8.2f %9.2f %9.2f %9.2f %11.2f\n", s, w"²", g, m, g/m, f, gl, enc, fl}'
  done
done
