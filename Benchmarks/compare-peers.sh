#!/usr/bin/env bash
# glmap vs the peer renderers (shared/tools/anchors/peers) on every scene, per frame at 1024x1024.
#
#   bash Benchmarks/compare-peers.sh            # from the repository root, after
#   swift build -c release --product glmap-bench
#   RUNS=5 SCENES="world us_states" PEERS="mapnik skia cairo" bash Benchmarks/compare-peers.sh
#
# glmap: `glmap-bench scene` in a fresh process (sum of per-stage medians, parse through encode;
# EGL set-up and shader compilation excluded, as the peers have none), once with llvmpipe's
# default threads and once with LP_NUM_THREADS=1. Peers: render_<peer>.py --json in fresh
# processes, median total of RUNS after one warm-up. A peer that cannot be imported is skipped
# (see the peers' README for installing them; Mapnik runs under /usr/bin/python3).
# Prints, per scene: each peer's total, glmap's totals and glmap / peer (lower is better).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHARED="${SHARED:-../shared}"
PEER_DIR="$SHARED/tools/anchors/peers"
[ -d "$PEER_DIR" ] || { echo "compare-peers: $PEER_DIR not found (the shared reference data is needed)" >&2; exit 1; }
BENCH="${BENCH:-.build/release/glmap-bench}"
[ -x "$BENCH" ] || { echo "compare-peers: $BENCH missing; run swift build -c release --product glmap-bench" >&2; exit 1; }
RUNS="${RUNS:-5}"; W="${WIDTH:-1024}"; H="${HEIGHT:-1024}"
PY="${PY:-python3}"; PY_MAPNIK="${PY_MAPNIK:-/usr/bin/python3}"
PEERS="${PEERS:-mapnik skia cairo}"
SCENES="${SCENES:-world montreal nyc_boroughs us_states helsinki cities}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmap-peers.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

py_for() { if [ "$1" = mapnik ]; then echo "$PY_MAPNIK"; else echo "$PY"; fi; }
available=()
for p in $PEERS; do
  if "$(py_for "$p")" -c "import $p" 2>/dev/null; then available+=("$p"); else echo "skip $p: cannot import it" >&2; fi
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
glmap_total() { env "$@" "$BENCH" scene --style "$style" --width "$W" --height "$H" --runs "$RUNS" | awk -F'\t' '$1=="total"{print $2}'; }

echo "# glmap vs peers, ${W}x${H}, ms per frame (peers: median of $RUNS fresh processes; glmap: sum of stage medians of $RUNS runs)"
echo "# $(date -u +%F)  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc)  $("$BENCH" scene --style "$SHARED/scenes/world.style.json" --width 64 --height 64 --runs 1 | sed -n 's/^# gl //p')"
printf '%-14s %-8s %10s %12s %12s %10s %10s\n' scene peer peer-total glmap glmap-lp1 ratio ratio-lp1
for s in $SCENES; do
  style="$SHARED/scenes/$s.style.json"
  g="$(glmap_total LP_NUM_THREADS_UNSET=1)"
  g1="$(glmap_total LP_NUM_THREADS=1)"
  for p in "${available[@]}"; do
    py="$(py_for "$p")"
    for i in $(seq 0 "$RUNS"); do
      t="$("$py" "$PEER_DIR/render_$p.py" "$style" --width "$W" --height "$H" -o "$TMP/$s.$p.png" --json |
           "$PY" -c 'import json,sys; print(json.load(sys.stdin)["total_ms"])')"
      [ "$i" -gt 0 ] && echo "$t" >> "$TMP/$s.$p.txt"
    done
    pt="$(median < "$TMP/$s.$p.txt")"
    awk -v s="$s" -v p="$p" -v pt="$pt" -v g="$g" -v g1="$g1" \
      'BEGIN {printf "%-14s %-8s %10.1f %12.1f %12.1f %10.2f %10.2f\n", s, p, pt, g, g1, g/pt, g1/pt}'
  done
done
