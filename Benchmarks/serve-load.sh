#!/usr/bin/env bash
# Load benchmark of `glmap serve` against MapLibre Native (pymgl) on the same tiles, same machine.
#
#   swift build -c release --product glmap && bash Benchmarks/serve-load.sh
#   REQUESTS=5000 CONCURRENCY=16 JOBS=2 ZOOMS=0-6 STYLE=../shared/scenes/world.style.json bash Benchmarks/serve-load.sh
#   REQUESTS=40000 BASELINE=0 bash Benchmarks/serve-load.sh     # RSS soak, glmap only
#   VARIANTS="before off on" GLMAP_BEFORE=/tmp/old/.build/release/glmap ROUNDS=2 bash Benchmarks/serve-load.sh
#   CLIENT=python bash Benchmarks/serve-load.sh     # the Python load client instead of wrk
#   STYLE=.build/basemap/styles/osm-bright.json ZOOMS=13-17 BBOX=24.935,60.164,24.953,60.179 bash Benchmarks/serve-load.sh
#
# CACHE (MiB, default 0) and METATILE (default 1) are glmap serve's --cache and --metatile. The
# defaults render every request alone. METATILE=4 CACHE=256 with REQUESTS at most the pyramid's
# size is the metatiled server on distinct tiles: each request not yet drawn renders its 4×4
# metatile once, its siblings are answered from the cache, and no tile is asked for twice (so no
# answer is a repeat from the cache).
# VARIANTS: the servers to load, in order (default "on"): "on" = this build; "off" = this build
# with GLMAP_VIEW_CULLING=0 (every bucket drawn whole, as before view culling); "before" = the
# binary GLMAP_BEFORE (e.g. an older commit's release build). ROUNDS: repeat (each variant, then
# MapLibre Native) that many times, so load changes hit every variant alike.
# Tiles: the 256-px XYZ pyramid ZOOMS (z0–6 of the world: 5,461 tiles; with BBOX=W,S,E,N only the
# tiles that meet that box, as Benchmarks/basemap.sh asks for the Helsinki extract), shuffled with a fixed
# seed, the first REQUESTS of them (distinct up to the pyramid's size, then the same order again;
# the server runs with --cache 0, so every request renders). glmap: `glmap serve --jobs JOBS` on
# 127.0.0.1, loaded by CLIENT over CONCURRENCY keep-alive connections: "wrk" (default; Debian's
# wrk, an epoll client in C on 2 threads, Benchmarks/serve-load.lua: each tile requested once, an
# answer other than 200 + PNG signature is an error) or "python" (CONCURRENCY http.client threads
# in one process, one warm-up request each, not timed). The load client runs on the same cores as
# the server and takes CPU from it (MapLibre Native below has no client: it renders in process),
# so its CPU per request is printed too. Prints requests/s, p50/p95/p99 latency, errors, the
# server's CPU per request and its RSS before, during and after (and its peak, VmHWM).
# MapLibre Native: pymgl (from .venv, see
# .ci/requirements.txt), one map of 256×256, camera moved per tile (center of the tile, zoom z−1,
# as tileserver-gl renders 256-px tiles; the z0 tile is drawn at 512 CSS px × ratio 0.5 since
# MapLibre's zoom stops at 0), renderPNG per tile; prints tiles/s. The ratio is glmap's
# requests/s over pymgl's tiles/s. Other processes share the machine: the load average before
# and after is printed so contention can be judged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
STYLE="${STYLE:-../shared/scenes/world.style.json}"
REQUESTS="${REQUESTS:-5000}"
CONCURRENCY="${CONCURRENCY:-16}"
JOBS="${JOBS:-$(nproc)}"
ZOOMS="${ZOOMS:-0-6}"
GLMAP="${GLMAP:-.build/release/glmap}"
PY="${GLMAP_PYTHON:-.venv/bin/python}"
CLIENT="${CLIENT:-wrk}"
CACHE="${CACHE:-0}"; METATILE="${METATILE:-1}"
[ -f "$STYLE" ] || { echo "serve-load: $STYLE not found (the shared scenes are needed)" >&2; exit 1; }
[ -x "$GLMAP" ] || { echo "serve-load: $GLMAP missing; run swift build -c release --product glmap" >&2; exit 1; }
[ -x "$PY" ] || { echo "serve-load: $PY missing; run bash .ci/install-deps" >&2; exit 1; }
case "$CLIENT" in
  wrk) command -v wrk >/dev/null || { echo "serve-load: wrk missing (Debian's wrk: bash .ci/install-deps), or CLIENT=python" >&2; exit 1; } ;;
  python) ;;
  *) echo "serve-load: CLIENT is wrk or python, not $CLIENT" >&2; exit 2 ;;
esac
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmap-serve-load.XXXXXX")"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT

echo "# glmap serve load, $(date -u '+%F %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc)"
echo "# style $STYLE, zooms $ZOOMS, $REQUESTS requests, concurrency $CONCURRENCY, --jobs $JOBS, --cache $CACHE, --metatile $METATILE, client $CLIENT"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

run_glmap() {   # $1: the variant (see VARIANTS)
  local cull="$1" bin="$GLMAP" culling=1
  [ "$cull" = off ] && culling=0
  [ "$cull" = before ] && bin="${GLMAP_BEFORE:?VARIANTS has before: set GLMAP_BEFORE to that glmap binary}"
rm -f "$TMP/server.log"   # not the previous variant's log: wait for this server's own line
GLMAP_VIEW_CULLING="$culling" "$bin" serve --style "world=$STYLE" --port 0 --jobs "$JOBS" --cache "$CACHE" --metatile "$METATILE" --max-queue 100000 --timeout 600 2> "$TMP/server.log" &
server=$!
for _ in $(seq 1 600); do grep -qs "workers)" "$TMP/server.log" && break; sleep 0.1; done
port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$TMP/server.log" | head -1)"
[ -n "$port" ] || { echo "serve-load: the server did not start:" >&2; cat "$TMP/server.log" >&2; exit 1; }

"$PY" - "$port" "$server" "$REQUESTS" "$CONCURRENCY" "$ZOOMS" "$TMP" "$cull" "$CLIENT" "${BBOX:-}" <<'EOF'
import http.client, math, os, random, resource, subprocess, sys, threading, time
port, pid, n, conc = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
z0, z1 = (int(v) for v in sys.argv[5].split("-"))
tmp, variant, client = sys.argv[6], sys.argv[7], sys.argv[8]
label = "glmap serve (%s, %s client)" % (variant, client)
def cpu():   # user + system seconds of the server process, all its threads
    f = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def rss(field="VmRSS"):
    for line in open("/proc/%s/status" % pid):
        if line.startswith(field + ":"): return int(line.split()[1]) / 1024
def tile_range(z):   # the x and y ranges of zoom z: all, or those meeting BBOX
    if not sys.argv[9]: return range(1 << z), range(1 << z)
    w, s, e, nn = (float(v) for v in sys.argv[9].split(","))
    tx = lambda lon: min((1 << z) - 1, int((lon + 180) / 360 * (1 << z)))
    ty = lambda lat: min((1 << z) - 1, int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * (1 << z)))
    return range(tx(w), tx(e) + 1), range(ty(nn), ty(s) + 1)
tiles = [(z, x, y) for z in range(z0, z1 + 1) for x in tile_range(z)[0] for y in tile_range(z)[1]]
random.Random(17).shuffle(tiles)
tiles = (tiles * (n // len(tiles) + 1))[:n]   # more requests than tiles: the pyramid again, same order
open(tmp + "/tiles.txt", "w").write("\n".join("%d %d %d" % t for t in tiles) + "\n")
before = rss(); rss_samples = []

def python_client():   # CONCURRENCY http.client threads (one process, the GIL shared)
    lock = threading.Lock(); latencies = []; errors = []; nxt = [0]
    def worker():
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        c.request("GET", "/health"); c.getresponse().read()   # warm-up: connect
        barrier.wait()
        while True:
            with lock:
                i = nxt[0]; nxt[0] += 1
            if i >= len(tiles): break
            z, x, y = tiles[i]
            t0 = time.perf_counter()
            try:
                c.request("GET", "/styles/world/%d/%d/%d.png" % (z, x, y))
                r = c.getresponse(); body = r.read()
                ok = r.status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n"
            except Exception as e:
                ok = False; c.close(); c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                if not ok: errors.append((z, x, y))
                if len(latencies) % max(1, len(tiles) // 10) == 0: rss_samples.append(rss())
    barrier = threading.Barrier(conc + 1)
    threads = [threading.Thread(target=worker) for _ in range(conc)]
    [t.start() for t in threads]
    barrier.wait(); t0 = time.perf_counter(); c0 = cpu(); u0 = sum(os.times()[:2])
    [t.join() for t in threads]
    wall = time.perf_counter() - t0
    latencies.sort()
    q = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
    return len(latencies), len(errors), q(0.5), q(0.95), q(0.99), wall, cpu() - c0, sum(os.times()[:2]) - u0

def wrk_client():   # Debian's wrk: an epoll client in C, 2 threads, Benchmarks/serve-load.lua
    wthreads = max(1, min(2, conc))
    done_dir = tmp + "/wrk-done"; os.makedirs(done_dir, exist_ok=True)
    for f in os.listdir(done_dir): os.remove(os.path.join(done_dir, f))
    env = dict(os.environ, TILES=tmp + "/tiles.txt", WRK_THREADS=str(wthreads), STYLE_ID="world", DONE_DIR=done_dir)
    script = os.path.join(os.getcwd(), "Benchmarks/serve-load.lua")
    c0 = cpu(); t0 = time.perf_counter(); last = 0
    p = subprocess.Popen(["wrk", "-t%d" % wthreads, "-c%d" % conc, "-d3600s", "--timeout", "600s",
                          "-s", script, "http://127.0.0.1:%d" % port], env=env, stdout=subprocess.PIPE, text=True)
    # Every thread has written its file once its share is answered (wrk itself would run for
    # its whole -d): the wall clock and the server's CPU stop then, and SIGINT ends wrk.
    while len(os.listdir(done_dir)) < wthreads and p.poll() is None:
        now = time.perf_counter()
        if now - last >= 0.2: rss_samples.append(rss()); last = now   # RSS about every 0.2 s
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    server_cpu = cpu() - c0
    p.send_signal(2)
    out = p.communicate(timeout=60)[0]
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = [l for l in out.splitlines() if l.startswith("result ")]
    if p.returncode != 0 or not line: sys.exit("serve-load: wrk failed:\n" + out)
    f = line[0].split()
    done, errs = int(f[1]), int(f[2])
    return done, errs, float(f[3]), float(f[4]), float(f[5]), wall, server_cpu, ru.ru_utime + ru.ru_stime

done, errs, p50, p95, p99, wall, server_cpu, client_cpu = (wrk_client if client == "wrk" else python_client)()
after, peak = rss(), rss("VmHWM")
if len(rss_samples) > 10: rss_samples = [rss_samples[len(rss_samples) * (i + 1) // 10 - 1] for i in range(10)]
cpu_ms = server_cpu * 1000 / done
print(label + ": %d requests in %.2f s = %.1f requests/s; latency p50 %.1f ms, p95 %.1f ms, p99 %.1f ms; errors %d"
      % (done, wall, done / wall, p50, p95, p99, errs))
print(label + ": server CPU %.2f ms per request, load client CPU %.2f ms per request; RSS before %.1f MiB, after all %.1f MiB, peak %.1f MiB"
      % (cpu_ms, client_cpu * 1000 / done, before, after, peak))
print(label + ": RSS (MiB) over the run (10 samples): " + " ".join("%.1f" % v for v in rss_samples))
open(tmp + "/rps.txt", "a").write("%s %f %f\n" % (variant, done / wall, cpu_ms))
EOF
kill -TERM "$server"; wait "$server" || true; server=""
  echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

for round in $(seq 1 "${ROUNDS:-1}"); do
  echo "## round $round"
  : > "$TMP/rps.txt"
  for cull in ${VARIANTS:-on}; do run_glmap "$cull"; done
  [ "${BASELINE:-1}" = 0 ] && continue   # BASELINE=0: glmap only (e.g. a long RSS soak)
"$PY" - "$STYLE" "$TMP" <<'EOF'
import json, math, os, sys, time
os.environ.setdefault("EGL_PLATFORM", "surfaceless")   # no X display: Mesa's headless EGL
import pymgl
path, tmp = sys.argv[1], sys.argv[2]
style = json.load(open(path))
for s in style["sources"].values():   # MapLibre Native reads no relative paths: inline the GeoJSON
    if isinstance(s.get("data"), str):
        s["data"] = json.load(open(os.path.join(os.path.dirname(path), s["data"])))
text = json.dumps(style)
tiles = [tuple(int(v) for v in l.split()) for l in open(tmp + "/tiles.txt")]
def center(z, x, y):
    n = 1 << z
    lon = (x + 0.5) / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return lon, lat
m = pymgl.Map(text, 256, 256, 1)
world = pymgl.Map(text, 512, 512, 0.5)   # the z0 256-px tile: zoom -1 is not allowed
m.renderPNG(); world.renderPNG()        # warm-up (load the source), not timed
t0 = time.perf_counter(); c0 = sum(os.times()[:2]); total = 0
for z, x, y in tiles:
    lon, lat = center(z, x, y)
    if z == 0:
        world.setCenter(lon, lat); world.setZoom(0); png = world.renderPNG()
    else:
        m.setCenter(lon, lat); m.setZoom(z - 1); png = m.renderPNG()
    total += len(png)
wall = time.perf_counter() - t0
cpu_ms = (sum(os.times()[:2]) - c0) * 1000 / len(tiles)
print("MapLibre Native (pymgl %s, one map): %d tiles in %.2f s = %.1f tiles/s; CPU %.2f ms per tile (%.1f KiB per tile)" % (
    getattr(pymgl, "__version__", "?"), len(tiles), wall, len(tiles) / wall, cpu_ms, total / len(tiles) / 1024))
for line in open(tmp + "/rps.txt").read().split("\n"):   # this round's glmap runs
    if not line: continue
    cull, rps, glmap_cpu = line.split()
    print("ratio (wall, %s): glmap serve requests/s / MapLibre Native tiles/s = %.2f" % (cull, float(rps) / (len(tiles) / wall)))
    print("ratio (CPU, %s): MapLibre Native CPU per tile / glmap serve CPU per request = %.2f" % (cull, cpu_ms / float(glmap_cpu)))
EOF
  echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
done
