#!/usr/bin/env python3
"""Adapts the open OpenMapTiles styles OSM Bright and MapTiler Basic to the local Helsinki tiles.

    .venv/bin/python examples/basemap/styles.py [--bright PATH] [--basic PATH]
        [--mbtiles .build/basemap/helsinki.mbtiles] [--out .build/basemap/styles]
        [--keep-symbols] [--glyphs URL]

The styles are not part of glmap (their code is BSD, their design CC-BY 4.0, © OpenMapTiles and
MapTiler) and are never committed: this script reads them from where they were fetched and writes
adapted copies under .build/ (ignored by git). PATH is a clone of the repository
(openmaptiles/osm-bright-gl-style, openmaptiles/maptiler-basic-gl-style), a bare or mirror git
directory of it (its HEAD's style.json is read), or the style.json file itself. Without --bright /
--basic the paths come from $GLMAP_OSM_BRIGHT / $GLMAP_MAPTILER_BASIC, else
.build/basemap/repos/osm-bright-gl-style and .build/basemap/repos/maptiler-basic-gl-style.
A style that cannot be found is reported and skipped (exit 3 when none was written).

What changes (nothing else does: every other layer, filter and paint value is the style's own):
- the `openmaptiles` vector source → `mbtiles://` + the absolute path of the built MBTiles
  (examples/basemap/build.sh), read as-is by both glmap and MapLibre Native;
- `sprite` removed (the sprites are not in those repositories), and so every layer that needs an
  image: `fill-pattern`, `line-pattern`, `background-pattern`, and `icon-image` on symbol layers;
- symbol layers left out, with `glyphs`, unless --keep-symbols: then their text is kept, `glyphs`
  points at --glyphs (default: the render suite's glyph PBFs, ../shared/render-suite/glyphs) and
  every `text-font` becomes ["Noto Sans Regular"], the one Noto face that folder holds;
- the root camera set to the extract's centre (24.9443, 60.1716) at zoom 15.

Each output records what it came from in metadata["glmap:adapted"] (source path, git commit when
known, the changes), and the script prints one line per style. The commits measured in
examples/basemap/README.md are 8af4769 (osm-bright-gl-style) and 2374f74 (maptiler-basic-gl-style).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STYLES = {
    # output name: (option, environment variable, default folder name, repository)
    "osm-bright": ("bright", "GLMAP_OSM_BRIGHT", "osm-bright-gl-style", "openmaptiles/osm-bright-gl-style"),
    "maptiler-basic": ("basic", "GLMAP_MAPTILER_BASIC", "maptiler-basic-gl-style", "openmaptiles/maptiler-basic-gl-style"),
}
IMAGE_PAINT = ("fill-pattern", "line-pattern", "background-pattern", "fill-extrusion-pattern")
CENTER = [24.9443, 60.1716]


def read_style(path: str) -> tuple[dict, str, str | None]:
    """The style JSON at `path` (a checkout, a git directory or a file), where it was read, and the
    git commit when `path` is a repository."""
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as fh:
            return json.load(fh), path, None
    if not os.path.isdir(path):
        raise FileNotFoundError(f"{path} does not exist")
    work_tree = os.path.join(path, "style.json")
    if os.path.isfile(work_tree):
        commit = None
        r = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
        if r.returncode == 0:
            commit = r.stdout.strip()
        with open(work_tree, encoding="utf-8") as fh:
            return json.load(fh), work_tree, commit
    # A bare or mirror git directory: HEAD's style.json.
    r = subprocess.run(["git", "--git-dir", path, "show", "HEAD:style.json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise FileNotFoundError(f"{path} has no style.json (neither a file in it nor in its git HEAD): {r.stderr.strip()}")
    c = subprocess.run(["git", "--git-dir", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    return json.loads(r.stdout), path + ":HEAD:style.json", c.stdout.strip() or None


def needs_image(layer: dict) -> bool:
    paint = layer.get("paint", {})
    return any(k in paint for k in IMAGE_PAINT)


def adapt(style: dict, mbtiles: str, keep_symbols: bool, glyphs: str) -> tuple[dict, dict]:
    """The adapted style and a summary of what was left out."""
    out = dict(style)
    sources = dict(out.get("sources", {}))
    if "openmaptiles" not in sources:
        raise ValueError("the style has no `openmaptiles` source (is it an OpenMapTiles style?)")
    sources["openmaptiles"] = {"type": "vector", "url": "mbtiles://" + os.path.abspath(mbtiles)}
    out["sources"] = sources
    out.pop("sprite", None)
    dropped = {"symbol": [], "image": []}
    layers = []
    for layer in out.get("layers", []):
        layer = json.loads(json.dumps(layer))
        if needs_image(layer):
            dropped["image"].append(layer["id"])
            continue
        if layer.get("type") == "symbol":
            if not keep_symbols:
                dropped["symbol"].append(layer["id"])
                continue
            lay = layer.setdefault("layout", {})
            if "icon-image" in lay:
                lay.pop("icon-image")
                for k in [k for k in lay if k.startswith("icon-")]:
                    lay.pop(k)
                for k in [k for k in layer.get("paint", {}) if k.startswith("icon-")]:
                    layer["paint"].pop(k)
                if "text-field" not in lay:
                    dropped["image"].append(layer["id"])
                    continue
            if "text-font" in lay:
                lay["text-font"] = ["Noto Sans Regular"]
        layers.append(layer)
    out["layers"] = layers
    if keep_symbols:
        out["glyphs"] = glyphs
    else:
        out.pop("glyphs", None)
    out["center"] = CENTER
    out["zoom"] = 15
    out["bearing"] = 0
    out["pitch"] = 0
    return out, dropped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, (opt, env, folder, repo) in STYLES.items():
        ap.add_argument("--" + opt, help=f"{repo}: a clone, a git directory or its style.json (default ${env}, "
                                         f"else .build/basemap/repos/{folder})")
    ap.add_argument("--mbtiles", default=os.path.join(ROOT, ".build/basemap/helsinki.mbtiles"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".build/basemap/styles"))
    ap.add_argument("--keep-symbols", action="store_true", help="keep symbol layers' text (icons stay out: no sprite)")
    ap.add_argument("--glyphs", default="file://" + os.path.normpath(os.path.join(ROOT, "..", "shared", "render-suite", "glyphs"))
                    + "/{fontstack}/{range}.pbf", help="glyph URL template used with --keep-symbols")
    a = ap.parse_args()
    if not os.path.isfile(a.mbtiles):
        print(f"styles.py: {a.mbtiles} is missing: run bash examples/basemap/build.sh first", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    written = 0
    for name, (opt, env, folder, repo) in STYLES.items():
        path = getattr(a, opt) or os.environ.get(env) or os.path.join(ROOT, ".build/basemap/repos", folder)
        try:
            style, origin, commit = read_style(path)
            adapted, dropped = adapt(style, a.mbtiles, a.keep_symbols, a.glyphs)
        except (OSError, ValueError) as e:
            print(f"styles.py: {name}: skipped: {e}. Fetch {repo} (a clone, or a git directory) and pass "
                  f"--{opt} PATH or set {env}", file=sys.stderr)
            continue
        adapted.setdefault("metadata", {})
        adapted["metadata"] = dict(adapted["metadata"])
        adapted["metadata"]["glmap:adapted"] = {
            "from": repo, "path": origin, "commit": commit,
            "source": "openmaptiles → " + adapted["sources"]["openmaptiles"]["url"],
            "left out (symbol layers)": dropped["symbol"],
            "left out (need sprite images)": dropped["image"],
            "symbols kept": a.keep_symbols,
        }
        dest = os.path.join(a.out, name + ".json")
        tmp = dest + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(adapted, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        os.replace(tmp, dest)
        written += 1
        kinds = {}
        for l in adapted["layers"]:
            kinds[l["type"]] = kinds.get(l["type"], 0) + 1
        print(f"styles.py: {dest}: {len(adapted['layers'])} layers {kinds} "
              f"(left out: {len(dropped['symbol'])} symbol, {len(dropped['image'])} needing sprite images) "
              f"from {repo}{' @ ' + commit[:7] if commit else ''}")
    return 0 if written else 3


if __name__ == "__main__":
    sys.exit(main())
