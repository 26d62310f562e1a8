#!/usr/bin/env bash
# Render the z0–6 world pyramid as 4 shards with GNU parallel (one machine, or many with -S),
# then merge. `{}` is the shard index 0…3.
set -euo pipefail
style=${STYLE:-../shared/scenes/world.style.json}
parallel --halt now,fail=1 glmap tiles --style "$style" --zoom 0-6 --shard {}/4 --resume --quiet --output world-{}.pmtiles ::: 0 1 2 3 \
  && glmap tiles merge world.pmtiles world-0.pmtiles world-1.pmtiles world-2.pmtiles world-3.pmtiles
