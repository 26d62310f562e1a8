#!/usr/bin/env python3
"""Writes earcut-2.2-native-cases.json: polygons with holes and the triangles MapLibre Native's
earcut gives for them, the expected output of EarcutNative22Tests (glmap's
`NativeEmulation.earcut22`).

The oracle is mapbox/earcut.hpp at tag v2.2.4 with the start-node rule of its releases before
v2.2.3 (`eliminateHole(queue[i], outerNode); outerNode = filterPoints(outerNode, outerNode->next);`
in eliminateHoles, instead of `outerNode = eliminateHole(queue[i], outerNode);`), the earcut whose
triangles MapLibre Native's pixels show on differential case s1-00003 (Benchmarks/README.md,
Conformance). Build the harnesses first (earcut_cases_harness.cpp; h_native = v2.2.4 with that one
line changed, h224 = v2.2.4 as tagged, h302 = at ffb7b46, earcut 3.0.2 parity):

    g++ -O1 -std=c++17 -I EARCUT_HPP_V224_PATCHED/include -o h_native earcut_cases_harness.cpp
    g++ -O1 -std=c++17 -I EARCUT_HPP_V224/include -o h224 earcut_cases_harness.cpp
    g++ -O1 -std=c++17 -I EARCUT_HPP_AT_ffb7b46/include -o h302 earcut_cases_harness.cpp
    python3 make_earcut22_native_cases.py     # in the folder holding the three

Seeded: the same binaries give the same file. Every case has a hole (without holes the three
agree but for points on an ear's first corner).
"""
import json, math, random, subprocess, sys
random.seed(22)

def run(exe, rings):
    inp = "\n".join(" ".join("%d %d" % tuple(p) for p in r) for r in rings) + "\n"
    out = subprocess.run([exe], input=inp.encode(), capture_output=True).stdout.decode().split()
    return [int(v) for v in out]

def rnd_ring(n, spread, cx=0, cy=0):
    return [(cx + random.randint(-spread, spread), cy + random.randint(-spread, spread)) for _ in range(n)]

def star(n, r0, r1, cx=0, cy=0):
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n; r = random.uniform(r0, r1)
        pts.append((cx + int(r * math.cos(a)), cy + int(r * math.sin(a))))
    return pts

cases = []
# Differential case s1-00003 reduced (z17.77 fill over a 6-point LineString, tile 19494/74352):
# a hole no bridge reaches; Native draws 1-2-3.
fixed = [[(4795, 2600), (3072, 2585), (993, 5448), (-2048, 6191)], [(-2048, 5537), (-794, 4601), (-2048, 3721)]]
cases.append(fixed)
for k in range(300):
    t = k % 6
    if t == 0:    # valid: star with 1-3 small holes inside
        rings = [star(random.randint(8, 30), 5000, 8000)] + [star(random.randint(3, 7), 200, 900, random.randint(-2500, 2500), random.randint(-2500, 2500)) for _ in range(random.randint(1, 3))]
    elif t == 1:  # holes anywhere (often outside their outer, as a fill over MultiLineStrings gives)
        rings = [rnd_ring(random.randint(3, 8), 4000)] + [rnd_ring(random.randint(3, 6), 4000) for _ in range(random.randint(1, 3))]
    elif t == 2:  # small grid (repeated x of leftmost points, collinear and coincident points)
        rings = [rnd_ring(random.randint(4, 9), 6)] + [rnd_ring(random.randint(3, 5), 6) for _ in range(random.randint(1, 2))]
    elif t == 3:  # holes sharing their leftmost x
        x = random.randint(-1000, 0)
        rings = [star(random.randint(10, 20), 6000, 8000)] + [[(x, y), (x + random.randint(200, 800), y + random.randint(-300, 300)), (x + random.randint(100, 500), y + random.randint(200, 500))] for y in (random.randint(-3000, -1000), random.randint(1000, 3000))]
    elif t == 4:  # above 80 vertices: z-order path
        rings = [star(random.randint(85, 110), 5000, 8000)] + [star(random.randint(3, 8), 300, 1200, random.randint(-2000, 2000), random.randint(-2000, 2000)) for _ in range(random.randint(1, 4))]
    else:         # a self-intersecting outer with a hole
        rings = [rnd_ring(random.randint(5, 12), 5000), star(random.randint(3, 6), 300, 1500)]
    cases.append(rings)

out, differ_302, differ_224 = [], 0, 0
for rings in cases:
    a = run('./h_native', rings)
    differ_302 += a != run('./h302', rings)
    differ_224 += a != run('./h224', rings)
    out.append({"rings": [[c for p in r for c in p] for r in rings], "triangles": a})
print(f"{len(out)} cases; Native's earcut differs from 3.0.2 on {differ_302}, from plain 2.2.4 on {differ_224}", file=sys.stderr)
json.dump({"source": "mapbox/earcut.hpp v2.2.4 with eliminateHoles' start-node rule of the releases before v2.2.3 (MapLibre Native's)",
           "cases": out}, open('earcut-2.2-native-cases.json', 'w'), separators=(',', ':'))
