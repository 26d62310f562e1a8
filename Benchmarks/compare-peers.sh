#!/usr/bin/env bash
# glmap vs the peer renderers (shared/tools/anchors/peers) on every scene, per frame at 1024x1024.
#
#   swift build -c release --product glmap-bench       # then, from the repository root:
#   bash Benchmarks/compare-peers.sh
#   ROUNDS=3 RUNS=3 SCENES="world us_states" PEERS="maplibre mapnik" bash Benchmarks/compare-peers.sh
#
# Interleaved rounds: each round runs, per scene, glmap (default llvmpipe threads, then
# LP_NUM_THREADS=1) and then every peer, one fresh process each, so machine load hits all of them
# alike; each figure is the median over ROUNDS rounds.
# glmap: `glmap-bench scene` (sum of per-stage medians of RUNS runs, parse through PNG encode on
# all cores; EGL set-up and shader compilation excluded; the ratios use it), and glmap-frame, the
# same frame end to end through the public API (Scene, MapRenderer.render, PNGEncoder; the median
# of RUNS, no GL finish between stages). MapLibre Native: render_maplibre.py
# total (setGeoJSON + renderPNG on a warm map, median of RUNS) under $PY (the .venv of
# .ci/install-deps has pymgl); its in-process first frame (cold) is reported too. Mapnik, Skia,
# cairo: render_<peer>.py --json total (Mapnik under /usr/bin/python3). A peer that cannot be
# imported is skipped. Ratios: glmap / peer (lower is better); the last column is glmap over the
# faster of MapLibre Native and Mapnik (target ≤ 0.5).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHARED="${SHARED:-../shared}"
PEER_DIR="$SHARED/tools/anchors/peers"
[ -d "$PEER_DIR" ] || { echo "compare-peers: $PEER_DIR not found (the shared reference data is needed)" >&2; exit 1; }
BENCH="${BENCH:-.build/release/glmap-bench}"
[ -x "$BENCH" ] || { echo "compare-peers: $BENCH missing; run swift build -c release --product glmap-bench" >&2; exit 1; }
RUNS="${RUNS:-3}"; ROUNDS="${ROUNDS:-3}"; W="${WIDTH:-1024}"; H="${HEIGHT:-1024}"
if [ -z "${PY:-}" ]; then if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi; fi
PY_MAPNIK="${PY_MAPNIK:-/usr/bin/python3}"
PEERS="${PEERS:-maplibre mapnik skia cairo}"
SCENES="${SCENES:-world montreal nyc_boroughs us_states helsinki cities}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmap-peers.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

py_for() { if [ "$1" = mapnik ]; then echo "$PY_MAPNIK"; else echo "$PY"; fi; }
module_for() { if [ "$1" = maplibre ]; then echo pymgl; else echo "$1"; fi; }
available=()
for p in $PEERS; do
  if "$(py_for "$p")" -c "import $(module_for "$p")" 2>/dev/null; then available+=("$p"); else echo "skip $p: cannot import $(module_for "$p")" >&2; fi
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
field() { "$PY" -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

for r in $(seq 1 "$ROUNDS"); do
  for s in $SCENES; do
    style="$SHARED/scenes/$s.style.json"
    "$BENCH" scene --style "$style" --width "$W" --height "$H" --runs "$RUNS" > "$TMP/scene"
    awk -F'\t' '$1=="total"{print $2}' "$TMP/scene" >> "$TMP/$s.glmap"
    awk -F'\t' '$1=="frame"{print $2}' "$TMP/scene" >> "$TMP/$s.glmap-frame"
    LP_NUM_THREADS=1 "$BENCH" scene --style "$style" --width "$W" --height "$H" --runs "$RUNS" | awk -F'\t' '$1=="total"{print $2}' >> "$TMP/$s.glmap-lp1"
    for p in "${available[@]}"; do
      if [ "$p" = maplibre ]; then
        "$PY" "$PEER_DIR/render_maplibre.py" "$style" --width "$W" --height "$H" --runs "$RUNS" -o "$TMP/$s.$p.png" --json > "$TMP/row"
        field cold_ms < "$TMP/row" >> "$TMP/$s.maplibre-cold"
      else
        "$(py_for "$p")" "$PEER_DIR/render_$p.py" "$style" --width "$W" --height "$H" -o "$TMP/$s.$p.png" --json > "$TMP/row"
      fi
      field total_ms < "$TMP/row" >> "$TMP/$s.$p"
    done
  done
done

echo "# glmap vs peers, ${W}x${H}, ms per frame, median of $ROUNDS interleaved rounds (glmap and MapLibre Native: median of $RUNS runs in process)"
echo "# $(date -u +%FT%TZ)  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc)  load $(cut -d' ' -f1-3 /proc/loadavg)  $("$BENCH" scene --style "$SHARED/scenes/world.style.json" --width 64 --height 64 --runs 1 | sed -n 's/^# gl //p')"
header="scene glmap glmap-frame glmap-lp1"
for p in "${available[@]}"; do header="$header $p"; done
header="$header"; for p in "${available[@]}"; do header="$header /$p"; done
printf '%-14s' $header; echo "  /faster(maplibre,mapnik)"
for s in $SCENES; do
  g="$(median < "$TMP/$s.glmap")"; gf="$(median < "$TMP/$s.glmap-frame")"; g1="$(median < "$TMP/$s.glmap-lp1")"
  line="$(printf '%-14s%-14.1f%-14.1f%-14.1f' "$s" "$g" "$gf" "$g1")"
  best=""
  ratios=""
  for p in "${available[@]}"; do
    pt="$(median < "$TMP/$s.$p")"
    line="$line$(printf '%-14.1f' "$pt")"
    ratios="$ratios$(awk -v g="$g" -v p="$pt" 'BEGIN{printf "%-14.2f", g/p}')"
    if [ "$p" = maplibre ] || [ "$p" = mapnik ]; then
      if [ -z "$best" ] || awk -v a="$pt" -v b="$best" 'BEGIN{exit !(a<b)}'; then best="$pt"; fi
    fi
  done
  tail=""
  [ -n "$best" ] && tail="$(awk -v g="$g" -v b="$best" 'BEGIN{printf "%.2f", g/b}')"
  echo "$line$ratios  $tail"
done
if [ -f "$TMP/world.maplibre-cold" ]; then
  echo "# MapLibre Native in-process first frame (cold_ms, median of rounds):"
  for s in $SCENES; do printf '#   %-14s %8.1f\n' "$s" "$(median < "$TMP/$s.maplibre-cold")"; done
fi
