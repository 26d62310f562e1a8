#!/usr/bin/env python3
"""Summarises a differential run: agreement figures and the failures classified by tag.

    python3 Benchmarks/differential/classify.py CASES_DIR RESULTS.tsv [--json OUT]

RESULTS.tsv is what `glmap-bench differential --out` writes. Tags come from each case's
metadata.differential.tags (generate.py): layer types (layer:…), layer × geometry pairs (geom:…),
properties (prop:…), value forms (zoom-function, data-expression, legacy-function…), filters and
camera features (bearing, pitch, ratio, low-zoom, high-zoom, world-copies, antimeridian).
Cases tagged with a Native quirk (generate.py NATIVE_QUIRKS: circle-tile-edge, translucent or
overlapping circles inside another drawn tile's buffer, which MapLibre Native draws twice and GL JS
once; native-circle-clip-points, circles Native draws at the points geojson-vt adds where a line
or ring is cut at a tile buffer border; native-multipoint-joined, MultiPoints under fill/line layers, which Native joins into a line and
GL JS does not draw) are counted apart: there GL JS is the reference and glmap follows it.

With --second-opinion FILE (second_opinion.py's verdicts, which run.sh writes), the tags no
longer decide what is a Native quirk: a failing case counts as one only when a variant of its style
without the suspected quirk verified it, whatever its tags; the report gives all cases, the cases
without verified quirks, and every class with its count and its cases (a tagged case that did not
verify is classified by the rules below it, with its tag named).

For every tag: the cases carrying it, how many of them fail at 0.00025 and at 0.002, and the
failure rate against the rate of the cases without it (lift), so the classes that explain the
failures come first.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

RULE, LOOSE = 0.00025, 0.002
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import NATIVE_QUIRKS as QUIRKS  # noqa: E402


def read_results(tsv):
    """id → (status, fraction or None, message) from a `glmap-bench differential --out` TSV."""
    rows = {}
    with open(tsv, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                rows[parts[0]] = (parts[1], float(parts[2]) if parts[2] else None, parts[3] if len(parts) > 3 else "")
    return rows


def load(cases_dir, tsv):
    rows = {}
    for cid, (status, fraction, msg) in read_results(tsv).items():
        with open(os.path.join(cases_dir, cid, "style.json"), encoding="utf-8") as sf:
            meta = json.load(sf).get("metadata", {}).get("differential", {})
        rows[cid] = {"status": status, "fraction": fraction, "message": msg,
                     "tags": meta.get("tags", []), "generator": meta.get("generator")}
    return rows


def pct(n, d):
    return f"{100.0 * n / d:.1f} %" if d else "n/a"


def load_second_opinion(path):
    """id → (verdict, quirks list, candidates, variant fraction, notes) from second_opinion.py."""
    out = {}
    with open(path, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            p = line.rstrip("\n").split("\t")
            if len(p) >= 7:
                out[p[0]] = {"verdict": p[3], "quirks": [q for q in p[4].split(",") if q], "candidates": p[2],
                             "variant_fraction": p[5], "notes": p[6]}
    return out


def verified(v):
    so = v.get("second_opinion")
    return bool(so and so["verdict"] == "verified")


def summarise(rows, second=False):
    compared = {k: v for k, v in rows.items() if v["status"] != "oracle-error"}
    oracle_errors = len(rows) - len(compared)
    def fails(v, limit):
        return v["status"] == "glmap-error" or v["fraction"] > limit
    if second:
        edge = {k: v for k, v in compared.items() if verified(v)}
    else:
        edge = {k: v for k, v in compared.items() if any(t in QUIRKS for t in v["tags"])}
    main = {k: v for k, v in compared.items() if k not in edge}
    out = {"cases": len(rows), "oracle_errors": oracle_errors, "compared": len(compared),
           "glmap_errors": sum(1 for v in compared.values() if v["status"] == "glmap-error")}
    for name, group in (("all", compared), ("without_native_quirks", main), ("native_quirks", edge)):
        out[name] = {"count": len(group),
                     "within_0.00025": sum(1 for v in group.values() if not fails(v, RULE)),
                     "within_0.002": sum(1 for v in group.values() if not fails(v, LOOSE))}
    tags = sorted({t for v in main.values() for t in v["tags"]})
    table = []
    for t in tags:
        with_t = [v for v in main.values() if t in v["tags"]]
        without = [v for v in main.values() if t not in v["tags"]]
        f1 = sum(1 for v in with_t if fails(v, RULE))
        f2 = sum(1 for v in with_t if fails(v, LOOSE))
        base = sum(1 for v in without if fails(v, RULE)) / len(without) if without else 0
        rate = f1 / len(with_t) if with_t else 0
        table.append({"tag": t, "cases": len(with_t), "fail_0.00025": f1, "fail_0.002": f2,
                      "rate": rate, "lift": (rate / base) if base else float("inf") if rate else 1.0})
    out["tags"] = table
    out["errors"] = sorted({v["message"].split(": ", 1)[-1][:160] for v in compared.values() if v["status"] == "glmap-error"})
    return out


def print_report(s, second=False):
    print(f"differential: {s['cases']} cases, {s['oracle_errors']} without a MapLibre Native image, "
          f"{s['compared']} compared, {s['glmap_errors']} glmap errors")
    groups = (("all", "all compared cases"), ("without_native_quirks", "without Native-quirk cases"),
              ("native_quirks", "Native-quirk cases (" + ", ".join(QUIRKS) + "; GL JS wins)"))
    if second:
        groups = (("all", "all compared cases"),
                  ("without_native_quirks", "without verified Native quirks"),
                  ("native_quirks", "failures verified as Native quirks by the second opinion (GL JS wins)"))
    for name, label in groups:
        g = s[name]
        print(f"  {label}: {g['count']}: within 0.00025 {g['within_0.00025']} ({pct(g['within_0.00025'], g['count'])}), "
              f"within 0.002 {g['within_0.002']} ({pct(g['within_0.002'], g['count'])})")
    print()
    print("failures by tag (cases without " + ("verified " if second else "") + "Native quirks; fail = over 0.00025; lift = fail rate with the tag / without it)")
    print(f"  {'tag':40s} {'cases':>6s} {'fail':>6s} {'>0.002':>7s} {'rate':>7s} {'lift':>6s}")
    groups = [("layer types", lambda t: t.startswith("layer:")),
              ("layer × geometry", lambda t: t.startswith("geom:")),
              ("properties", lambda t: t.startswith("prop:")),
              ("camera", lambda t: t in ("bearing", "pitch", "ratio", "low-zoom", "high-zoom", "world-copies", "antimeridian")),
              ("values, filters, data", lambda t: True)]
    seen = set()
    for title, pred in groups:
        rows = [r for r in s["tags"] if pred(r["tag"]) and r["tag"] not in seen]
        seen.update(r["tag"] for r in rows)
        if not rows:
            continue
        print(f"  -- {title}")
        for r in sorted(rows, key=lambda r: (-r["lift"] if r["lift"] != float("inf") else -1e9, -r["cases"])):
            lift = "inf" if r["lift"] == float("inf") else f"{r['lift']:.2f}"
            print(f"  {r['tag']:40s} {r['cases']:6d} {r['fail_0.00025']:6d} {r['fail_0.002']:7d} {100 * r['rate']:6.1f}% {lift:>6s}")
    if s["errors"]:
        print()
        print("glmap errors:")
        for e in s["errors"]:
            print("  " + e)


CLASSES = [
    # (label, predicate on (status, message, tags)), first match wins; see /work/notes/diff-findings.md
    ("glmap rejects a legacy all/any filter that has a [\"has\", k] child (valid legacy: GL JS isExpressionFilter)",
     lambda st, m, t: st == "glmap-error" and "Mixing deprecated filter syntax" in m),
    ("glmap error", lambda st, m, t: st == "glmap-error"),
    ("Native quirk, GL JS wins: translucent/overlapping circles in a tile buffer drawn twice (circle-tile-edge)",
     lambda st, m, t: "circle-tile-edge" in t),
    ("Native quirk, GL JS wins: circles at the points geojson-vt adds at tile buffer borders (native-circle-clip-points)",
     lambda st, m, t: "native-circle-clip-points" in t),
    ("Native quirk, GL JS wins: MultiPoint under fill/line joined into one line (native-multipoint-joined)",
     lambda st, m, t: "native-multipoint-joined" in t),
    ("Native quirk, GL JS wins: overlapping MultiPolygon parts, overlap left unfilled (native-multipolygon-overlap)",
     lambda st, m, t: "native-multipolygon-overlap" in t),
    ("fill layer over LineString/MultiLineString/GeometryCollection: MapLibre fills the rings and draws the outline",
     lambda st, m, t: any(x in t for x in ("geom:fill/LineString", "geom:fill/MultiLineString", "geom:fill/GeometryCollection"))),
    ("vertices quantised to the tile grid (source maxzoom below the zoom, or zoom > 18)",
     lambda st, m, t: "source-maxzoom" in t or "high-zoom" in t),
    ("fill over polygons: edges and thin parts (geojson-vt simplification/quantisation, overlapping MultiPolygon parts)",
     lambda st, m, t: "layer:fill" in t),
    ("line: joins, offsets, dashes, ring closure", lambda st, m, t: "layer:line" in t),
    ("circle", lambda st, m, t: "layer:circle" in t),
]


QUIRK_LABELS = {
    "native-maxzoom-simplification": "points dropped at the source's maxzoom (geojson-vt-cpp keeps importance > 0 only; GL JS keeps all)",
    "native-outline-width": "fill-antialias outline drawn 2 px wide (GL JS: 1 px)",
    "native-multipoint-joined": "MultiPoint under fill/line joined into one line or ring (GL JS: nothing)",
    "native-multipolygon-overlap": "overlapping MultiPolygon parts, overlap left unfilled (GL JS: both filled)",
    "circle-tile-edge": "circles in another drawn tile's buffer drawn twice (GL JS: once)",
    "native-circle-clip-points": "circles at the points geojson-vt adds at tile buffer borders (GL JS: none)",
    "native-float32-zoom": "style evaluated at float32(zoom): the other side of a stop at the camera zoom (GL JS: the double)",
    "native-tied-sort-keys-reversed": "features with equal sort keys drawn in reverse (GL JS: source order)",
    "native-gradient-multilinestring": "line-gradient over a MultiLineString without progress (GL JS: each part 0..1)",
    "native-multilinestring-kept-whole": "fill over a lineMetrics MultiLineString classified as one polygon (GL JS: one feature a line)",
    "native-ring-start": "polygon rings restarted at their northernmost vertex by wagyu (GL JS: the file's first point)",
    "native-zero-area-ring-dropped": "a ring simplified to A, C, A dropped by Native's polygon fix-up (GL JS: stroked)",
    "native-earcut-2.2": "fills triangulated by earcut.hpp 2.2's hole elimination and start node (GL JS: earcut 3.0)",
    "native-int8-direction": "line-offset at shallow bevel/round joins with the direction flag truncated to int8 (GL JS: its sign)",
    "native-miter-clamp": "miters longer than the extrusion byte clamped to it (GL JS: the byte wraps; glmap: exact)",
    "native-ring-start-per-tile": "each tile piece of a dashed/gradient polygon ring restarted at its northernmost vertex by wagyu (GL JS: geojson-vt's order)",
    "native-dash-rows": "half of the cross-faded 'from' dash pattern read at one edge of the line from Native's two-row dash texture (GL JS: 'to' only)",
}


def class_of(v):
    so = v.get("second_opinion")
    if so is not None or v.get("second_opinion_run"):
        if verified(v):
            return "Native quirk, verified, GL JS wins: " + " + ".join(
                f"{q} ({QUIRK_LABELS.get(q, q)})" for q in so["quirks"])
        # Not verified: the tags do not make it a quirk; the other rules classify it.
        for label, pred in CLASSES:
            if label.startswith("Native quirk"):
                continue
            if pred(v["status"], v["message"], v["tags"]):
                return label
        return "unclassified"
    for label, pred in CLASSES:
        if pred(v["status"], v["message"], v["tags"]):
            return label
    return "unclassified"


def write_known_failures(rows, path, header):
    failing = {k: v for k, v in rows.items()
               if v["status"] == "glmap-error" or (v["status"] == "ok" and v["fraction"] > RULE)}
    agree = sum(1 for k, v in rows.items() if v["status"] == "ok" and v["fraction"] <= RULE)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(header)
        gens = {v.get("generator") for v in rows.values()}
        if len(gens) == 1 and None not in gens:
            fh.write(f"generator\t{gens.pop()}\n")
        fh.write(f"floor\t{agree}\n")
        for k in sorted(failing):
            fh.write(f"{k}\t{class_of(failing[k])}\n")
    counts = {}
    for v in failing.values():
        counts[class_of(v)] = counts.get(class_of(v), 0) + 1
    return agree, counts


KNOWN_HEADER = """# Differential cases (DifferentialTests: Benchmarks/differential, seed 1, 300 cases of at most
# 256 device pixels a side) where glmap differs from MapLibre Native, each with its divergence class.
# Written by `classify.py CASES RESULTS --second-opinion SECOND --known-failures THIS_FILE` (see
# Benchmarks/README.md, "Differential testing against MapLibre Native"); regenerate it when the
# generator changes. A "Native quirk, verified" class was verified by second_opinion.py for that case.
# generator: the generate.py + oracle.py hash the list was measured with (the tests refuse a stale list).
# floor: the number of cases measured to agree; the floor test fails below it.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases")
    ap.add_argument("results")
    ap.add_argument("--json")
    ap.add_argument("--known-failures", help="write the failing cases with their classes and the floor to this file")
    ap.add_argument("--second-opinion", help="second_opinion.py's TSV: a failure is a Native quirk only when verified there")
    a = ap.parse_args()
    rows = load(a.cases, a.results)
    second = bool(a.second_opinion)
    if second:
        so = load_second_opinion(a.second_opinion)
        for k, v in rows.items():
            v["second_opinion_run"] = True
            if k in so:
                v["second_opinion"] = so[k]
    s = summarise(rows, second)
    print_report(s, second)
    counts, members = {}, {}
    for k, v in sorted(rows.items()):
        if v["status"] == "glmap-error" or (v["status"] == "ok" and v["fraction"] > RULE):
            c = class_of(v)
            counts[c] = counts.get(c, 0) + 1
            members.setdefault(c, []).append(k)
    print()
    print("failures by class (" + ("verified Native quirks first, then " if second else "") + "the first matching rule in classify.py CLASSES):")
    order = sorted(counts.items(), key=lambda kv: (not kv[0].startswith("Native quirk, verified"), -kv[1])) if second \
        else sorted(counts.items(), key=lambda kv: -kv[1])
    for label, n in order:
        print(f"  {n:5d}  {label}")
    if second:
        s["classes"] = {label: members[label] for label, _ in order}
        print()
        print("failing cases per class (fraction; a Native-quirk tag that the second opinion did not verify in brackets;")
        print("  for a failure it did not verify, the fraction with all the suspected quirks removed: mz maxzoom points,")
        print("  mp MultiPoints, mpo MultiPolygon parts, cv circle vertices as points, cb circle buffer 0, aa outlines off):")
        for label, _ in order:
            print(f"  {label}:")
            items = []
            for k in members[label]:
                v = rows[k]
                f = "error" if v["status"] == "glmap-error" else f"{v['fraction']:.5f}"
                so = v.get("second_opinion") or {}
                untagged = [t for t in v["tags"] if t in QUIRKS and not (verified(v) and t in so["quirks"])]
                note = ""
                if not verified(v) and so.get("variant_fraction"):
                    note = f" (→ {float(so['variant_fraction']):.5f} without {so['candidates']}"
                    if so.get("notes") and (float(so["variant_fraction"]) <= RULE or "not an exact removal" in so["notes"]):
                        note += ", but " + so["notes"].split("; ")[-1]   # why it still did not verify
                    note += ")"
                items.append(f"{k} {f}" + (f" [{','.join(untagged)}]" if untagged and not verified(v) else "") + note)
            for i in range(0, len(items), 3):
                print("    " + "; ".join(items[i:i + 3]))
    if a.known_failures:
        agree, _ = write_known_failures(rows, a.known_failures, KNOWN_HEADER)
        print(f"classify: wrote {a.known_failures} (floor {agree})")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump(s, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
