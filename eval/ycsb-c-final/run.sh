#!/bin/bash
# Workload C at 3 GB: upstream LevelDB, ElasticBF before and after the
# segment locator, RocksDB; rounds alternating the systems, each run on a
# fresh copy of its load that is synced to disk before the run starts (the
# earlier scripts did not sync, so the copy's writeback overlapped the first
# seconds of each run).
# Usage (from the repository root), after the loads exist:
#   bash eval/ycsb-c-final/run.sh
# Env: ROUNDS (3), SYSTEMS ("upstream before after rocksdb"), YCSB (after),
# YCSB_BEFORE (a build without the locator, e.g. commit bb03c07),
# YCSB_UPSTREAM, YCSB_ROCKSDB, UP_LOAD, EBF_LOAD, ROCKS_LOAD (the loads:
# eval/ycsb-c/run.sh and eval/mixed-final/run.sh make
# them), EVAL_DIR (scratch, 3.1 GB), LOGS, BUDGET (upstream's measured
# filter bytes), ROCKS_BITS (6).
set -euo pipefail
B=build/release/benchmarks
Y=${YCSB:-$B/ycsb/ycsb}
YB=${YCSB_BEFORE:-/work/eval/bin/ycsb-685c140}
YU=${YCSB_UPSTREAM:-$B/ycsb/ycsb_upstream}
YR=${YCSB_ROCKSDB:-$B/rocksdb_bench/ycsb_rocksdb}
UP_LOAD=${UP_LOAD:-/work/eval/up/load}
EBF_LOAD=${EBF_LOAD:-/work/eval/s3/load}
ROCKS_LOAD=${ROCKS_LOAD:-/work/eval/rk/load}
E=${EVAL_DIR:-/work/eval/cl}
L=${LOGS:-eval/ycsb-c-final/logs}
BUDGET=${BUDGET:-19441566}
ROCKS_BITS=${ROCKS_BITS:-6}
ROUNDS=${ROUNDS:-3}
SYSTEMS=${SYSTEMS:-upstream before after rocksdb}
mkdir -p "$E" "$L"
. eval/workload-c-3gb.props.sh
EBF=(-p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes="$BUDGET")
for round in $(seq 1 "$ROUNDS"); do
  for s in $SYSTEMS; do
    case $s in
      upstream) load=$UP_LOAD; cmd=("$YU" -p leveldb.bloom_bits=4) ;;
      before) load=$EBF_LOAD; cmd=("$YB" "${EBF[@]}") ;;
      after) load=$EBF_LOAD; cmd=("$Y" "${EBF[@]}") ;;
      rocksdb) load=$ROCKS_LOAD; cmd=("$YR" -p leveldb.bloom_bits="$ROCKS_BITS") ;;
      *) echo "unknown system $s" >&2; exit 2 ;;
    esac
    rm -rf "$E/run"
    cp -a "$load" "$E/run"
    sync
    echo "=== round $round $s $(date -u +%T)"
    "${cmd[@]}" "${PROPS[@]}" -run -dbpath "$E/run" >"$L/r$round-$s.log" 2>&1
    grep -E "operations in|client read syscalls" "$L/r$round-$s.log" || true
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
