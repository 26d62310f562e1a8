#!/usr/bin/env bash
# MapLibre GL JS's whole render suite (../shared/render-suite, 1,293 cases) through glmap and
# through MapLibre Native (PyPI pymgl 0.5), judged by one rule (pixelmatch 7.1.0 as `glmap compare`
# implements it, the case's threshold and allowed, the best of its expected*.png), counted side by
# side per family. Cases with runtime operations are not run for Native (pymgl has no harness for
# them); everything is read from the suite folder (served on 127.0.0.1:2900 for Native, localized
# to file:// URLs for glmap), nothing from the network.
#
#   swift build -c release --product glmap && bash .ci/install-deps     # .venv with pymgl, Pillow
#   bash Benchmarks/render-suite-native.sh                               # ~10 minutes on 2 cores
#   SUITE=/path/to/held-out JOBS=4 OUT=/tmp/rs bash Benchmarks/render-suite-native.sh
#
# SUITE: a folder in the suite's layout (cases/, the asset folders, manifest.tsv). GLMAP: the glmap
# binary (default .build/release/glmap). OUT: where the images, the per-case TSV and the tables go
# (default a temporary folder, kept). Prints the tables (Markdown) at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SUITE="${SUITE:-../shared/render-suite}"
GLMAP="${GLMAP:-.build/release/glmap}"
PY="${PY:-.venv/bin/python}"
JOBS="${JOBS:-$(nproc)}"
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/glmap-render-suite.XXXXXX")}"
[ -x "$GLMAP" ] || { echo "render-suite-native: $GLMAP missing; swift build -c release --product glmap" >&2; exit 1; }
[ -d "$SUITE/cases" ] || { echo "render-suite-native: no cases/ in $SUITE" >&2; exit 1; }
"$PY" -c "import pymgl, PIL" 2>/dev/null || { echo "render-suite-native: $PY cannot import pymgl and PIL (bash .ci/install-deps)" >&2; exit 1; }
mkdir -p "$OUT"

echo "# render suite: $SUITE; $(date -u +%FT%TZ); $(nproc) cores; $("$GLMAP" --version); pymgl $("$PY" -c 'import importlib.metadata as m; print(m.version("pymgl"))')" >&2
start=$(date +%s)
# glmap's verdicts (exit 1 just means cases failed).
"$GLMAP" test "$SUITE/cases" --jobs "$JOBS" --quiet --backend gpu --junit "$OUT/glmap-junit.xml" > "$OUT/glmap-test.txt" || true
tail -n 1 "$OUT/glmap-test.txt" >&2
echo "# glmap: $(( $(date +%s) - start )) s" >&2
"$PY" Benchmarks/render_suite_native.py --suite "$SUITE" --glmap "$GLMAP" --glmap-junit "$OUT/glmap-junit.xml" \
  --out "$OUT" --jobs "$JOBS"
echo "# output: $OUT (render-suite-native.tsv: one row per case; native/<case>/actual.png)" >&2
