#!/bin/bash
# lifetime and initial_units at the default unit shape: the 1 x 16 load of
# eval/shape-budget-4m (4M keys), a fresh copy per run, READS Gets (half
# absent), budget 4 bits per key, the settings alternating within a round.
# Usage (from the repository root): bash eval/tuning-4m/run.sh
# Env: BUILD (dir holding db_bench), LOAD, EVAL_DIR, LOGS, ROUNDS, READS.
set -euo pipefail
B=${BUILD:-build/release/benchmarks}
LOAD=${LOAD:-/work/eval/shape-budget/load-1x16}
E=${EVAL_DIR:-/work/eval/tuning}
L=${LOGS:-eval/tuning-4m/logs}
READS=${READS:-100000}
ROUNDS=${ROUNDS:-2}
mkdir -p "$E" "$L"
COMMON=(--num=4000000 --reads="$READS" --value_size=112 --seed=0 --zipf=0.99
  --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0
  --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1
  --bf_memory_bits_per_key=4 --use_existing_db=1 --benchmarks=readzipf)
SETTINGS=(--bf_lifetime=0 --bf_lifetime=40 --bf_lifetime=700
  --bf_lifetime=2800 --bf_initial_units=0 --bf_initial_units=2
  --bf_initial_units=4)
for round in $(seq 1 "$ROUNDS"); do
  for s in "${SETTINGS[@]}"; do
    rm -rf "$E/run"; cp -a "$LOAD" "$E/run"; sync
    log=$L/r$round${s#--bf}.log
    "$B/db_bench" "${COMMON[@]}" "$s" --db="$E/run" >"$log" 2>&1
    echo "r$round $s $(grep -h 'foreground table reads per op' "$log" | cut -d, -f1) | $(grep -hE '^lifetime:' "$log" | tail -1)"
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
