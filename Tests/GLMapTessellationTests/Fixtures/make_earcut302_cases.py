#!/usr/bin/env python3
"""Writes earcut-3.0.2-cases.json: polygons and the triangles earcut 3.0.2 gives for them, the
expected output of EarcutMapLibreFlavorTests (glmap's `Earcut.Flavor.mapLibre`).

The oracle is mapbox/earcut.hpp at commit ffb7b46 ("update to earcut v3.0.2 parity"), the earcut
MapLibre GL JS 5 declares (^3.0.2); MapLibre Native's older earcut.hpp agrees with it on the
differential cases checked (see Benchmarks/README.md). Build the two harnesses first (h302 =
earcut.hpp at ffb7b46, h_new = at f25bc76, the 3.2 port glmap's default flavour follows):

    g++ -O1 -std=c++17 -I EARCUT_HPP_AT_ffb7b46/include -o h302 earcut_cases_harness.cpp
    g++ -O1 -std=c++17 -I EARCUT_HPP_AT_f25bc76/include -o h_new earcut_cases_harness.cpp
    python3 make_earcut302_cases.py     # in the folder holding h302 and h_new

Seeded: the same binaries give the same file.
"""
import random, subprocess, json, sys
random.seed(12)
cases = []
def run(exe, rings):
    inp = "\n".join(" ".join("%d %d" % tuple(p) for p in r) for r in rings) + "\n"
    out = subprocess.run([exe], input=inp.encode(), capture_output=True).stdout.decode().split()
    return [int(v) for v in out]
def rnd_ring(n, spread, cx=0, cy=0):
    return [(cx + random.randint(-spread, spread), cy + random.randint(-spread, spread)) for _ in range(n)]
import math
def star(n, r0, r1, cx=0, cy=0):
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n; r = random.uniform(r0, r1)
        pts.append((cx + int(r * math.cos(a)), cy + int(r * math.sin(a))))
    return pts
kinds = []
for k in range(240):
    t = k % 6
    if t == 0: rings = [rnd_ring(random.randint(3, 8), 50)]                 # random, often self-intersecting
    elif t == 1: rings = [rnd_ring(random.randint(9, 30), 8192)]
    elif t == 2: rings = [star(random.randint(5, 40), 2000, 8000)]          # simple star-shaped
    elif t == 3: rings = [star(random.randint(8, 30), 5000, 8000), star(random.randint(3, 8), 300, 1500)]  # with a hole
    elif t == 4: rings = [rnd_ring(random.randint(81, 110), 8192)]          # z-order hashing path
    else:
        r = star(random.randint(85, 100), 3000, 8000)
        i = random.randrange(len(r)); r[i] = (r[i][0] * -1, r[i][1])       # one vertex flipped: crossings
        rings = [r, rnd_ring(random.randint(3, 6), 500)]
    a = run('./h302', rings); b = run('./h_new', rings)
    cases.append({"rings": [[c for p in r for c in p] for r in rings], "triangles": a})
    kinds.append(a != b)
print(sum(kinds), "of", len(cases), "differ between 3.0.2 and 3.2", file=sys.stderr)
json.dump({"source": "earcut.hpp ffb7b46 (earcut 3.0.2 parity), mapbox/earcut.hpp", "cases": cases}, open('earcut-3.0.2-cases.json', 'w'), separators=(',', ':'))
