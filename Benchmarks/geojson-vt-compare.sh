#!/usr/bin/env bash
# glmap's GeoJSON tiler against geojson-vt (and supercluster): tiles compared one by one, and the
# time to build the index and answer the getTile calls, both in this script (see Benchmarks/README.md).
#
#   GEOJSON_VT_DIR=/tmp/gvt [SUPERCLUSTER_DIR=/tmp/sc] Benchmarks/geojson-vt-compare.sh [OUT_DIR]
#
# GEOJSON_VT_DIR: a geojson-vt checkout (never committed here), e.g.
#   mkdir -p /tmp/gvt && git -C /work/.mirror/mapbox+geojson-vt/repo archive HEAD | tar -x -C /tmp/gvt
# SUPERCLUSTER_DIR (optional): a supercluster 8 checkout whose `import 'kdbush'` resolves, e.g.
#   mkdir -p /tmp/sc/node_modules/kdbush && git -C …/mapbox+supercluster/repo archive v8.0.1 | tar -x -C /tmp/sc
#   git -C …/mourner+kdbush/repo archive v4.0.2 | tar -x -C /tmp/sc/node_modules/kdbush
# Needs node (20 here) and ../shared next to the repository ($GLMAP_SHARED overrides).
set -euo pipefail
: "${GEOJSON_VT_DIR:?set GEOJSON_VT_DIR to a geojson-vt checkout (see the top of this script)}"
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${GLMAP_SHARED:-$root/../shared}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
echo "node $(node --version), geojson-vt $(node -p "require('$GEOJSON_VT_DIR/package.json').version")${SUPERCLUSTER_DIR:+, supercluster $(node -p "require('$SUPERCLUSTER_DIR/package.json').version")}; $(swift --version 2>&1 | head -1); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
(cd "$root" && swift build -c release --product glmap-bench >/dev/null)
node "$root/Benchmarks/geojson-vt-compare.mjs" "$GEOJSON_VT_DIR" "$shared" "$out" ${SUPERCLUSTER_DIR:+"$SUPERCLUSTER_DIR"}
"$root/.build/release/glmap-bench" geojson-tiles --cases "$out"
