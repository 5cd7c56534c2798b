#!/bin/bash
# Workload C at 3 GB against the time of one direct block read: three
# rounds alternating upstream, ElasticBF and read_latency (20k direct reads
# of 4 KiB blocks at random offsets of ElasticBF's table files), each on
# the same machine state. One Get that finds its key needs one such read,
# so no engine can exceed 1e6 / (mean read time) Gets/s in one thread.
# Usage (from the repository root), after both loads exist:
#   bash eval/ycsb-c-latency/run.sh
# Env: YCSB, YCSB_UPSTREAM, READ_LATENCY (binaries), UP_LOAD, EBF_LOAD (the
# loads: eval/ycsb-c/run.sh and eval/mixed-final/run.sh
# make them), EVAL_DIR (scratch, 7 GB), LOGS, BUDGET (upstream's measured
# filter bytes, eval/ycsb-c).
set -euo pipefail
B=build/release/benchmarks
Y=${YCSB:-$B/ycsb/ycsb}
YU=${YCSB_UPSTREAM:-$B/ycsb/ycsb_upstream}
RL=${READ_LATENCY:-$B/read_latency}
UP_LOAD=${UP_LOAD:-/work/eval/up/load}
EBF_LOAD=${EBF_LOAD:-/work/eval/s3/load}
E=${EVAL_DIR:-/work/eval/cl}
L=${LOGS:-eval/ycsb-c-latency/logs}
BUDGET=${BUDGET:-19441566}
mkdir -p "$E" "$L"
. eval/workload-c-3gb.props.sh
for round in 1 2 3; do
  rm -rf "$E/run"; cp -a "$UP_LOAD" "$E/run"
  echo "=== round $round upstream $(date -u +%T)"
  "$YU" -p leveldb.bloom_bits=4 "${PROPS[@]}" -run -dbpath "$E/run" \
    >"$L/r$round-upstream.log" 2>&1
  grep -E "operations in|client read syscalls" "$L/r$round-upstream.log"
  rm -rf "$E/run"; cp -a "$EBF_LOAD" "$E/run"
  echo "=== round $round elasticbf $(date -u +%T)"
  "$Y" -p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes="$BUDGET" \
    "${PROPS[@]}" -run -dbpath "$E/run" >"$L/r$round-elasticbf.log" 2>&1
  grep -E "operations in|client read syscalls" "$L/r$round-elasticbf.log"
  echo "=== round $round read_latency $(date -u +%T)"
  "$RL" --reads=20000 --seed="$round" "$E"/run/*.ldb | tee "$L/r$round-read-latency.log"
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
