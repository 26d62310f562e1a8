#!/usr/bin/env bash
# Vector tile decoding: glmap's VectorTileDecoder (glmap-bench mvt, release build) beside PyPI
# mapbox-vector-tile (its decode over Google's protobuf runtime) on the same tiles in the same run:
# the render suite's 32 MVT files, and the Helsinki OpenMapTiles MBTiles of
# examples/basemap/build.sh (built here when missing). Both decode every tile completely (geometry
# and properties); times are medians of thread/process CPU seconds over the runs.
#   Benchmarks/mvt-decode.sh [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-20}"
py="${GLMAP_PYTHON:-$root/.venv/bin/python}"
suite="$root/../shared/render-suite/tiles"
basemap="$root/.build/basemap/helsinki.mbtiles"
cd "$root"
swift build -c release --product glmap-bench 2>&1 | grep -E "error|warning: " || true
bench="$(swift build -c release --show-bin-path)/glmap-bench"
[ -f "$basemap" ] || bash examples/basemap/build.sh
"$py" -c "import mapbox_vector_tile" || { echo "mvt-decode.sh: $py cannot import mapbox_vector_tile (bash .ci/install-deps)" >&2; exit 2; }
echo "== $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1), mapbox-vector-tile $("$py" -c 'import importlib.metadata as m; print(m.version("mapbox-vector-tile"), "protobuf", m.version("protobuf"))')"
peer() {
"$py" - "$1" "$2" "$runs" "$3" <<'PY'
import glob, gzip, os, sqlite3, statistics, sys, time, zlib
import mapbox_vector_tile as m
kind, src, runs, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if kind == "dir":
    tiles = [open(f, "rb").read() for f in sorted(glob.glob(src + "/**/*.mvt", recursive=True))]
else:
    tiles = []
    for (d,) in sqlite3.connect(src).execute("SELECT tile_data FROM tiles"):
        tiles.append(gzip.decompress(d) if d[:2] == b"\x1f\x8b" else zlib.decompress(d) if d[:1] == b"\x78" else d)
usable, features = [], 0
for t in tiles:
    try: d = m.decode(t)
    except Exception: continue
    usable.append(t); features += sum(len(l["features"]) for l in d.values())
runs = max(1, min(runs, 5))   # the peer is ~100× slower: fewer runs keep the script short
times = []
for _ in range(runs):
    c0 = time.process_time()
    keep = [m.decode(t) for t in usable]
    times.append(time.process_time() - c0)
t = statistics.median(times); b = sum(map(len, usable))
print("python mvt %s: %d tiles, %.2f MB, %d features: %.2f ms (median of %d, process CPU), %.1f MB/s, %.2f M features/s"
      % (label, len(usable), b / 1e6, features, t * 1000, runs, b / 1e6 / t, features / 1e6 / t))
PY
}
if [ -d "$suite" ]; then
    "$bench" mvt --tiles "$suite" --runs "$runs" --label "render suite"
    peer dir "$suite" "render suite"
else
    echo "(../shared/render-suite is missing: suite tiles skipped)"
fi
"$bench" mvt --mbtiles "$basemap" --runs "$runs" --label "Helsinki OpenMapTiles"
peer mbtiles "$basemap" "Helsinki OpenMapTiles"
