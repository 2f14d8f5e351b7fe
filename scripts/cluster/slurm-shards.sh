#!/bin/bash
# Runs one tournament as a Slurm job array: task K of N plays every N-th block from
# block K-1 into its own folder; a dependent job merges the folders into the folder one
# whole run would have written (byte for byte).
#
#   sbatch --array=1-8 scripts/cluster/slurm-shards.sh configs/overnight.yaml
#   sbatch --dependency=afterok:<array job id> --wrap \
#       "oplab merge results/overnight-shard-*-of-8 --out results/overnight"
#
# `--shard auto` reads SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and
# SLURM_ARRAY_TASK_COUNT. `--resume` makes a requeued task (node failure, preemption)
# finish its shard instead of starting over; on a first start it simply starts.
#SBATCH --job-name=oplab-shard
#SBATCH --cpus-per-task=8
#SBATCH --time=12:00:00
#SBATCH --requeue
#SBATCH --output=oplab-shard-%A_%a.log
set -euo pipefail
config="${1:?usage: sbatch --array=1-N slurm-shards.sh CONFIG}"
# oplab on the PATH, or built in the submit directory.
oplab="$(command -v oplab || echo .build/release/oplab)"
exec "$oplab" tournament "$config" --shard auto --threads "${SLURM_CPUS_PER_TASK:-0}" --resume
