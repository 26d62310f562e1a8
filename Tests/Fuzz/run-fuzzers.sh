#!/usr/bin/env bash
# Runs glmap's libFuzzer targets, one after another.
#   Tests/Fuzz/run-fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]
# TARGET: geojson, style, expression, tessellate, cli, glyphs, mvt (default: all seven); SECONDS default 60.
# glyphs fuzzes the glyph range PBF decoder (FuzzEntryPoints.glyphPBF), seeded with the render suite's
# small ranges and Tests/FuzzRegressions/glyphs. mvt fuzzes the vector tile decoder
# (FuzzEntryPoints.vectorTile), seeded with the render suite's tiles of at most 64 KB and Tests/FuzzRegressions/mvt.
# cli fuzzes the command line itself (FuzzEntryPoints.commandLine); its seeds are the inputs in
# Tests/FuzzRegressions/cli (argument vectors written with the raw-string escape).
# Builds Tests/Fuzz (release, -sanitize=fuzzer,address, plus
# -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp: without it this toolchain's
# Swift modules carry no coverage counters, libFuzzer reports "cov: 0" and fuzzes blind, and fork
# mode drops every seed; after changing these flags remove Tests/Fuzz/.build, since stale objects
# with trace-pc-guard make libFuzzer refuse to start), seeds a temporary corpus per target from
# ../shared (never committed), runs each target in fork mode (one worker; it keeps going after a
# crash) and prints per target the executions and the crash/timeout/OOM inputs found. Those land
# in $FUZZ_OUT/<target>/ (default Tests/Fuzz/.build/fuzz-out); minimise one with
#   .build/release/fuzz-<target> -minimize_crash=1 -runs=10000 <file>
# and check it in under Tests/FuzzRegressions/<target>/ (swift test runs everything there).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shared="$root/../shared"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(geojson style expression tessellate cli glyphs mvt)
out="${FUZZ_OUT:-$here/.build/fuzz-out}"

if [ ! -d "$shared" ]; then
    echo "run-fuzzers: $shared is missing; seeds come from the shared reference data" >&2
    exit 2
fi

echo "== building fuzz targets (release, fuzzer+address sanitizers)"
(cd "$here" && swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp 2>&1 | grep -v "ld.gold: warning" | tail -3)
bin="$(cd "$here" && swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp --show-bin-path)"

work="$(mktemp -d "${TMPDIR:-/tmp}/glmap-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Seeds: copied (and cut to small documents) from ../shared into $work/seeds/<target>.
python3 - "$shared" "$work/seeds" <<'PY'
import glob, json, os, sys
shared, dest = sys.argv[1], sys.argv[2]
def write(target, name, text):
    d = os.path.join(dest, target); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f: f.write(text)
styles = sorted(glob.glob(f"{shared}/render-tests/cases/**/style.json", recursive=True))
for i, path in enumerate(styles):
    text = open(path).read()
    write("style", f"render-{i}", text)
    try: style = json.loads(text)
    except ValueError: continue
    for j, src in enumerate((style.get("sources") or {}).values()):
        if isinstance(src, dict) and isinstance(src.get("data"), dict):
            write("geojson", f"render-{i}-{j}", json.dumps(src["data"]))
for path in sorted(glob.glob(f"{shared}/scenes/*.style.json")):
    write("style", "scene-" + os.path.basename(path), open(path).read())
for path in sorted(glob.glob(f"{shared}/scenes/data/*.geojson")):
    doc = json.load(open(path))
    feats = doc.get("features", [])[:3]   # scene files are MBs: keep three features of each
    write("geojson", "scene-" + os.path.basename(path), json.dumps({"type": "FeatureCollection", "features": feats}))
for path in sorted(glob.glob(f"{shared}/expression-tests/cases/*/*/test.json")):
    case = json.load(open(path))
    if "expression" in case:
        name = path.split("/cases/")[1].replace("/test.json", "").replace("/", "-")
        write("expression", name, json.dumps(case["expression"]))
for path in sorted(glob.glob(f"{shared}/fixtures/earcut/fixtures/*.json")):
    rings = json.load(open(path))
    lines = [" ".join(repr(float(c)) for p in ring for c in p[:2]) for ring in rings]
    write("tessellate", os.path.basename(path)[:-5], "\n".join(lines) + "\n")
PY

mkdir -p "$work/seeds/cli" && cp "$root/Tests/FuzzRegressions/cli/"* "$work/seeds/cli/"
mkdir -p "$work/seeds/glyphs" && cp "$root/Tests/FuzzRegressions/glyphs/"* "$work/seeds/glyphs/"
find "$shared/render-suite/glyphs" -name '*.pbf' -size -40k | head -20 | while read -r f; do cp "$f" "$work/seeds/glyphs/$(basename "$(dirname "$f")" | tr ' ,' '__')-$(basename "$f")"; done
mkdir -p "$work/seeds/mvt" && cp "$root/Tests/FuzzRegressions/mvt/"* "$work/seeds/mvt/"
find "$shared/render-suite/tiles" -name '*.mvt' -size -64k -exec cp {} "$work/seeds/mvt/" \; 2>/dev/null || true

declare -A maxlen=([geojson]=65536 [style]=65536 [expression]=8192 [tessellate]=16384 [cli]=2048 [glyphs]=65536 [mvt]=65536)
summary=()
for t in "${targets[@]}"; do
    [ -x "$bin/fuzz-$t" ] || { echo "run-fuzzers: unknown target $t" >&2; exit 2; }
    mkdir -p "$work/corpus/$t" "$out/$t" "$work/seeds/$t"
    log="$out/$t/fuzz.log"
    echo "== fuzz-$t for ${seconds}s ($(ls "$work/seeds/$t" | wc -l) seeds) → $out/$t"
    # Fork mode with one worker: a crash, timeout or OOM is saved and fuzzing goes on.
    (cd "$work" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$bin/fuzz-$t" "$work/corpus/$t" "$work/seeds/$t" \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" -timeout=10 -detect_leaks=0 -rss_limit_mb=2048 -max_len="${maxlen[$t]}" \
        -artifact_prefix="$out/$t/" >"$log" 2>&1) || true
    execs="$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')"
    found="$(find "$out/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)"
    n="$(printf '%s' "$found" | grep -c . || true)"
    summary+=("fuzz-$t: ${execs:-0} executions, $n crash/timeout/oom inputs in $out/$t")
    [ -z "$found" ] || printf '   %s\n' $found
done
echo "== summary"
printf '%s\n' "${summary[@]}"
