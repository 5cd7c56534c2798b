#!/bin/bash
# Key-range locality at 3 GB (24M keys, 16-byte keys, 112-byte values):
# upstream LevelDB 1.23 (bloom_bits=4) against ElasticBF with its defaults at
# 4 bits per key. One load per system (in parallel), then per workload and
# round a fresh copy of each load and READS lookups (half for absent keys),
# the systems alternating; filter_bound on ElasticBF's tree after its run.
# Usage (from the repository root): bash eval/locality-24m/run.sh
# Env: BUILD (default build/release), EVAL_DIR (scratch, ~10 GB, default
# /work/eval/loc), LOGS (default eval/locality-24m/logs), KEYS (24000000),
# READS (300000), ROUNDS (1), WORKLOADS (ozipf hotspot latest zipf),
# SYSTEMS (upstream elasticbf), SHAPE (ElasticBF's units, planes x units:
# 1x16, the default at 4 bits per key; the first runs had 2x12).
set -euo pipefail
B=${BUILD:-build/release}/benchmarks
E=${EVAL_DIR:-/work/eval/loc}
L=${LOGS:-eval/locality-24m/logs}
KEYS=${KEYS:-24000000}
READS=${READS:-300000}
ROUNDS=${ROUNDS:-1}
SHAPE=${SHAPE:-1x16}
BITS=${SHAPE%x*}
UNITS=${SHAPE#*x}
read -r -a SYSTEMS <<<"${SYSTEMS:-upstream elasticbf}"
read -r -a WORKLOADS <<<"${WORKLOADS:-ozipf hotspot latest zipf}"
mkdir -p "$E" "$L"
COMMON=(--num="$KEYS" --reads="$READS" --value_size=112 --seed=0 --zipf=0.99
  --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0
  --max_file_size=67108864 --open_files=100000 --io_stats=1)
cmd() {
  case $1 in
    upstream) echo "$B/db_bench_upstream --bloom_bits=4" ;;
    elasticbf) echo "$B/db_bench --elastic_bf=1 --bf_memory_bits_per_key=4 --bf_bits_per_unit=$BITS --bf_units=$UNITS" ;;
  esac
}
# shellcheck source=eval/locality-24m/workloads.sh
source "$(dirname "${BASH_SOURCE[0]}")/workloads.sh"
# The load of each system (ElasticBF's per shape: fixed when written).
load() { [[ $1 == elasticbf ]] && echo "load-$1-$SHAPE" || echo "load-$1"; }
for s in "${SYSTEMS[@]}"; do
  [[ -d $E/$(load $s) ]] && continue
  # shellcheck disable=SC2046
  $(cmd $s) "${COMMON[@]}" --benchmarks=fillunique --db="$E/$(load $s)" \
    >"$L/$(load $s).log" 2>&1 &
done
wait
for round in $(seq 1 "$ROUNDS"); do
  for w in "${WORKLOADS[@]}"; do
    for s in "${SYSTEMS[@]}"; do
      rm -rf "$E/run"; cp -a "$E/$(load $s)" "$E/run"
      log=$L/r$round-$w-$s.log
      echo "=== round $round $w $s $(date -u +%T)"
      # shellcheck disable=SC2046
      $(cmd $s) "${COMMON[@]}" --use_existing_db=1 $(reads $w) --db="$E/run" \
        >"$log" 2>&1
      grep -E "^read(zipf|latest):|^foreground table reads per op|bits per --num key" \
        "$log" | grep -v "0 bytes = 0.00" || true
      if [[ $s == elasticbf ]]; then
        # shellcheck disable=SC2046
        "$B/filter_bound" --db="$E/run" --key_format=readzipf --num="$KEYS" \
          --segment_keys=$((32768 / BITS)) --bits_per_unit="$BITS" \
          --units_per_segment="$UNITS" \
          $(bound $w) --absent_only=0 --budgets=4 >"$L/r$round-$w-bound.log" 2>&1 || true
        tail -3 "$L/r$round-$w-bound.log"
      fi
    done
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
