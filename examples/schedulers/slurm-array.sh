#!/usr/bin/env bash
# Render the z0–6 world pyramid as a Slurm job array of 4 tasks, then merge (a dependent job).
# Each task gets SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT / SLURM_ARRAY_TASK_MIN;
# `--shard auto` turns them into shard ID−MIN of COUNT, so --array=1-4 works as well as 0-3.
#
#   jobid=$(sbatch --parsable examples/schedulers/slurm-array.sh)
#   sbatch --dependency=afterok:$jobid --wrap \
#     "glmap tiles merge tiles/world.pmtiles tiles/world-0.pmtiles tiles/world-1.pmtiles tiles/world-2.pmtiles tiles/world-3.pmtiles"
#
#SBATCH --job-name=glmap-world
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --output=tiles/world-%a.log
set -euo pipefail
mkdir -p tiles
# --resume: a requeued or preempted task continues from its journal (tiles/world-N.pmtiles.partial).
exec glmap tiles --style "${STYLE:-../shared/scenes/world.style.json}" --zoom 0-6 \
  --shard auto --resume --quiet --jobs "${SLURM_CPUS_PER_TASK:-2}" \
  --output "tiles/world-${SLURM_ARRAY_TASK_ID}.pmtiles"
