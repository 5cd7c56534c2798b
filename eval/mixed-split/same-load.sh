#!/bin/bash
# Inheritance off on a copy of the inheritance-on load (same tree as the on runs).
set -euo pipefail
cd "$(dirname "$0")/../../.."
Y=${YCSB:-build/release/benchmarks/ycsb/ycsb}
E=${EVAL_DIR:-/work/eval/mixed-split}
W=benchmarks/ycsb/workloads
COMMON=(-p recordcount=24000000 -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0
  -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
  -p status.interval=60 -p leveldb.elastic_bf=true
  -p leveldb.bf_memory_bits_per_key=4)
for round in 3; do
  rm -rf "$E/run"; cp -a "$E/load-on" "$E/run"
  echo "=== round $round off-on-same-load $(date -u +%T)"
  "$Y" "${COMMON[@]}" -p leveldb.bf_inherit_hotness=false -P $W/workloada.spec \
    -p operationcount=2000000 -p readproportion=0.50 -p updateproportion=0.50 \
    -p writeallfields=true -p zerolookupproportion=0.5 -run -dbpath "$E/run" \
    >"$E/logs/r$round-off-sameload.log" 2>&1
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
