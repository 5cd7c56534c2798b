#!/bin/bash
# Unit shape against filter budget: 4M keys of 128 bytes, 64 MiB tables,
# one load per shape (fillunique,settle), then per budget a fresh copy of
# that load read with READS scrambled-Zipfian Gets (half absent), direct
# I/O, no block cache. Shapes are bits_per_unit x units_per_segment.
# Usage (from the repository root): bash eval/shape-budget-4m/run.sh
# Env: BUILD (dir holding db_bench; default build/release/benchmarks),
# EVAL_DIR (scratch, ~4 GB), LOGS, SHAPES, BUDGETS, ROUNDS, READS.
set -euo pipefail
B=${BUILD:-build/release/benchmarks}
E=${EVAL_DIR:-/work/eval/shape-budget}
L=${LOGS:-eval/shape-budget-4m/logs}
READS=${READS:-100000}
ROUNDS=${ROUNDS:-1}
read -r -a SHAPES <<<"${SHAPES:-1x16 2x12 3x8 4x6 6x4}"
read -r -a BUDGETS <<<"${BUDGETS:-1 2 3 4 6 8 12}"
mkdir -p "$E" "$L"
COMMON=(--num=4000000 --reads="$READS" --value_size=112 --seed=0 --zipf=0.99
  --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0
  --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1
  --bf_unit_kind=ribbon)
shape() { echo "--bf_bits_per_unit=${1%x*} --bf_units=${1#*x}"; }
for s in "${SHAPES[@]}"; do
  [[ -d $E/load-$s ]] && continue
  # shellcheck disable=SC2046
  "$B/db_bench" "${COMMON[@]}" $(shape "$s") --benchmarks=fillunique,settle \
    --db="$E/load-$s" >"$L/load-$s.log" 2>&1
done
for round in $(seq 1 "$ROUNDS"); do
  for b in "${BUDGETS[@]}"; do
    for s in "${SHAPES[@]}"; do
      rm -rf "$E/run"; cp -a "$E/load-$s" "$E/run"; sync
      log=$L/r$round-b$b-$s.log
      # shellcheck disable=SC2046
      "$B/db_bench" "${COMMON[@]}" $(shape "$s") --bf_memory_bits_per_key="$b" \
        --use_existing_db=1 --benchmarks=readzipf --db="$E/run" >"$log" 2>&1
      echo "r$round b=$b $s $(grep -h 'foreground table reads per op' "$log" | cut -d, -f1) | $(grep -h '^readzipf:' "$log" | grep -o '[0-9]* Gets/s')"
    done
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
