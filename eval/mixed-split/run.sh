#!/bin/bash
# Long 50/50 mix at 3 GB: hotness inheritance on (counts split among the
# outputs, docs/elasticbf.md) against off. One YCSB load per setting, then
# two rounds alternating off/on, each on a fresh copy of its load.
# Usage (from the repository root): bash eval/mixed-split/run.sh
# Env: YCSB (runner binary), EVAL_DIR (scratch, about 10 GB), LOGS.
set -euo pipefail
Y=${YCSB:-build/release/benchmarks/ycsb/ycsb}
E=${EVAL_DIR:-/work/eval/mixed-split}
L=${LOGS:-$E/logs}
W=benchmarks/ycsb/workloads
mkdir -p "$E" "$L"
COMMON=(-p recordcount=24000000 -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0
  -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
  -p status.interval=60 -p leveldb.elastic_bf=true
  -p leveldb.bf_memory_bits_per_key=4)
flags() { [[ $1 == off ]] && echo "-p leveldb.bf_inherit_hotness=false" || true; }
for sys in off on; do
  [[ -d $E/load-$sys ]] && continue
  echo "=== load $sys $(date -u +%T)"
  # shellcheck disable=SC2046
  "$Y" "${COMMON[@]}" $(flags $sys) -P $W/workloadc.spec -p operationcount=0 \
    -load -fresh -dbpath "$E/load-$sys" >"$L/load-$sys.log" 2>&1
done
for round in 1 2; do
  for sys in off on; do
    rm -rf "$E/run"
    cp -a "$E/load-$sys" "$E/run"
    echo "=== round $round $sys $(date -u +%T)"
    # shellcheck disable=SC2046
    "$Y" "${COMMON[@]}" $(flags $sys) -P $W/workloada.spec \
      -p operationcount=2000000 -p readproportion=0.50 \
      -p updateproportion=0.50 -p writeallfields=true \
      -p zerolookupproportion=0.5 -run -dbpath "$E/run" \
      >"$L/r$round-$sys.log" 2>&1
    grep -E "data_block_ios_per_get|false_positives_per_get|\[OVERALL\], Throughput|\[UPDATE\], Operations" \
      "$L/r$round-$sys.log" || true
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
