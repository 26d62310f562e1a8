#!/usr/bin/env bash
# Differential run against MapLibre Native (see Benchmarks/README.md, "Differential testing
# against MapLibre Native"):
#
#   bash Benchmarks/differential/run.sh --count 1000 --seed 1 [--max-size 1024] [--jobs 2]
#        [--config release|debug] [--out DIR] [--reduce N] [--no-second-opinion]
#        [--tiles [--kinds vector,raster]]
#
# --tiles: the tile-source set instead (generate_tiles.py: vector sources cut into MVT, raster
# sources of generated PNG tiles; its cases read their tiles by absolute file:// URLs, so they are
# generated in the output folder); classified by tags only (the second opinion edits GeoJSON).
#
# generates the seeded styles (generate.py), draws them with MapLibre Native through pymgl
# (oracle.py; cached: a case that already has expected.png for this generator hash is not redrawn),
# draws and compares them with glmap (`glmap-bench differential`), asks for a second opinion on
# every failure (second_opinion.py: variants of the style without each suspected MapLibre Native
# quirk, drawn by both; a failure is a Native quirk only when such a variant verifies it; Native's
# variant images are kept too), and prints the agreement at 0.00025 and 0.002 with the failures
# classified (classify.py). --reduce N also shrinks the N worst failures that are not verified
# Native quirks with reduce.py into OUT/reduced/. --no-second-opinion: classify by tags only.
# Needs .venv with pymgl (bash .ci/install-deps) or GLMAP_PYTHON.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=1000 seed=1 max_size=1024 jobs=2 config=release out="" reduce=0 second=1 gen=generate.py kinds=vector,raster
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reduce) reduce=$2; shift 2 ;;
    --no-second-opinion) second=0; shift ;;
    --tiles) gen=generate_tiles.py; second=0; shift ;;
    --kinds) kinds=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
py=${GLMAP_PYTHON:-.venv/bin/python}
if ! "$py" -c "import pymgl" 2>/dev/null; then
  echo "run.sh: pymgl is not importable by $py; run bash .ci/install-deps (or set GLMAP_PYTHON)" >&2
  exit 2
fi
export EGL_PLATFORM=${EGL_PLATFORM:-surfaceless}
hash=$("$py" "Benchmarks/differential/$gen" --hash)
extra=() prefix=""
if [ "$gen" = generate_tiles.py ]; then extra=(--kinds "$kinds"); prefix=tiles-; fi
out=${out:-.build/differential-run/$prefix$hash-seed$seed-n$count-max$max_size}
mkdir -p "$out/cases"
echo "run.sh: generator $hash, seed $seed, $count cases, max $max_size px, in $out"
"$py" "Benchmarks/differential/$gen" --out "$(cd "$out" && pwd)/cases" --count "$count" --seed "$seed" --max-size "$max_size" "${extra[@]}"
"$py" Benchmarks/differential/oracle.py "$out/cases" --jobs "$jobs"
swift build -c "$config" --product glmap-bench >/dev/null
bench=$(swift build -c "$config" --show-bin-path)/glmap-bench
rm -rf "$out/failures"
"$bench" differential --cases "$out/cases" --out "$out/results.tsv" --save "$out/failures"
echo
if [ "$second" = 1 ]; then
  "$py" Benchmarks/differential/second_opinion.py "$out" --bench "$bench" --jobs "$jobs"
  echo
  "$py" Benchmarks/differential/classify.py "$out/cases" "$out/results.tsv" --second-opinion "$out/second-opinion.tsv" --json "$out/summary.json"
else
  rm -f "$out/second-opinion.tsv"
  "$py" Benchmarks/differential/classify.py "$out/cases" "$out/results.tsv" --json "$out/summary.json"
fi
echo
echo "run.sh: per-case results $out/results.tsv; glmap's actual.png and diff.png of each failure in $out/failures"
if [ "$reduce" -gt 0 ]; then
  mkdir -p "$out/reduced"
  "$py" - "$out" "$reduce" <<'EOF' | while read -r id; do
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "results.tsv"))][1:]
sys.path.insert(0, "Benchmarks/differential")
from generate import NATIVE_QUIRKS as quirks
def tags(cid):
    return json.load(open(os.path.join(out, "cases", cid, "style.json")))["metadata"]["differential"]["tags"]
so = os.path.join(out, "second-opinion.tsv")
verified = {l.split("\t")[0] for l in open(so)} if os.path.exists(so) else None
bad = [(float(r[2]) if r[2] else 1.0, r[0]) for r in rows if r[1] != "oracle-error" and (r[1] == "glmap-error" or float(r[2]) > 0.00025)]
if verified is None:
    bad = [b for b in sorted(bad, reverse=True) if not any(t in quirks for t in tags(b[1]))]
else:
    verified = {l.rstrip("\n").split("\t")[0] for l in open(so) if l.split("\t")[3:4] == ["verified"]}
    bad = [b for b in sorted(bad, reverse=True) if b[1] not in verified]
for _, cid in bad[:n]:
    print(cid)
EOF
    "$py" Benchmarks/differential/reduce.py "$out/cases/$id" --out "$out/reduced/$id" --bench "$bench" || true
  done
fi
