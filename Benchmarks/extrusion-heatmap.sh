#!/usr/bin/env bash
# Issue 30's speed figures beside MapLibre Native, on Benchmarks/basemap.sh's frame part:
#   city-3d       the Helsinki basemap's buildings extruded (OpenMapTiles `building` layer,
#                 render_height / render_min_height), lit by the default light, pitch 45, zoom 15
#   heatmap-100k  100,000 seeded random points over the same extract in one GeoJSON source
#                 (inline), one heatmap layer (radius 12, default ramp) over a background
# Both styles are written to .build/basemap/styles/ (generated, never committed) and timed by
# `bash Benchmarks/basemap.sh frame` (cold process and the warm fly-through, 1024², glmap /
# Native; target ≤ 0.5).
#
#   swift build -c release && bash examples/basemap/build.sh && bash Benchmarks/extrusion-heatmap.sh
#   ROUNDS=3 FRAMES=50 bash Benchmarks/extrusion-heatmap.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${GLMAP_PYTHON:-.venv/bin/python}"
[ -f .build/basemap/helsinki.mbtiles ] || { echo "extrusion-heatmap.sh: .build/basemap/helsinki.mbtiles missing: bash examples/basemap/build.sh" >&2; exit 1; }
mkdir -p .build/basemap/styles
"$PY" - "$(pwd)/.build/basemap" <<'PY'
import json, random, sys
root = sys.argv[1]
center = [24.9443, 60.1716]
city = {
    "version": 8, "center": center, "zoom": 15, "pitch": 45, "bearing": 20,
    "sources": {"openmaptiles": {"type": "vector", "url": "mbtiles://" + root + "/helsinki.mbtiles"}},
    "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#f2efe9"}},
        {"id": "building-3d", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
         "paint": {"fill-extrusion-color": "#d9d0c9",
                   "fill-extrusion-height": ["coalesce", ["get", "render_height"], 10],
                   "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0],
                   "fill-extrusion-opacity": 0.9}},
    ],
}
rng = random.Random(30)
w, s, e, n = 24.935177, 60.164155, 24.953413, 60.179107
features = [{"type": "Feature", "properties": {"w": round(rng.random(), 3)},
             "geometry": {"type": "Point", "coordinates": [round(rng.uniform(w, e), 6), round(rng.uniform(s, n), 6)]}}
            for _ in range(100000)]
heat = {
    "version": 8, "center": center, "zoom": 15,
    "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": features}}},
    "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
        {"id": "heat", "type": "heatmap", "source": "points",
         "paint": {"heatmap-weight": ["get", "w"], "heatmap-radius": 12, "heatmap-intensity": 0.3}},
    ],
}
json.dump(city, open(root + "/styles/city-3d.json", "w"))
json.dump(heat, open(root + "/styles/heatmap-100k.json", "w"))
PY
STYLES="city-3d heatmap-100k" bash Benchmarks/basemap.sh frame
