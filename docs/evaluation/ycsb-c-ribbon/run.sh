#!/bin/bash
# Workload C at 3 GB with the Ribbon-unit default (2 x 12 Ribbon units):
# upstream LevelDB 1.23 (Bloom 4 bits per key), ElasticBF with its defaults
# at upstream's measured filter bytes, RocksDB 7.8 (full Bloom, 6 bits per
# key), each run on a fresh copy of its load, synced before the run starts.
# Usage (from the repository root):
#   PHASE=load bash docs/evaluation/ycsb-c-ribbon/run.sh   # the three loads, in parallel
#   PHASE=run ROUNDS=1 bash docs/evaluation/ycsb-c-ribbon/run.sh
# Env: BUILD (a build directory with benchmarks/ycsb/{ycsb,ycsb_upstream} and
# benchmarks/rocksdb_bench/ycsb_rocksdb; default build/release), EVAL_DIR
# (scratch, about 13 GB), LOGS, BUDGET (upstream's measured filter bytes of
# its load; the load phase prints them), ROCKS_BITS (6), ROUNDS (1).
set -euo pipefail
B=${BUILD:-build/release}/benchmarks
E=${EVAL_DIR:-/work/eval/yc16}
L=${LOGS:-docs/evaluation/ycsb-c-ribbon/logs}
BUDGET=${BUDGET:-19441566}
ROCKS_BITS=${ROCKS_BITS:-6}
ROUNDS=${ROUNDS:-1}
mkdir -p "$E" "$L"
. docs/evaluation/workload-c-3gb.props.sh
cmd() {
  case $1 in
    upstream) echo "$B/ycsb/ycsb_upstream -p leveldb.bloom_bits=4" ;;
    elasticbf) echo "$B/ycsb/ycsb -p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes=$BUDGET" ;;
    rocksdb) echo "$B/rocksdb_bench/ycsb_rocksdb -p leveldb.bloom_bits=$ROCKS_BITS" ;;
  esac
}
systems=(upstream elasticbf rocksdb)
if [[ ${PHASE:-run} == load ]]; then
  for s in "${systems[@]}"; do
    [[ -d $E/load-$s ]] && continue
    # shellcheck disable=SC2046
    $(cmd $s) "${PROPS[@]}" -load -fresh -dbpath "$E/load-$s" >"$L/load-$s.log" 2>&1 &
  done
  wait
  rm -rf "$E/measure"; cp -a "$E/load-upstream" "$E/measure"
  "$B/db_bench_upstream" --use_existing_db=1 --benchmarks=readzipf --reads=1 \
    --num=24000000 --io_stats=1 --open_files=100000 --bloom_bits=4 \
    --db="$E/measure" >"$L/measure-upstream.log" 2>&1 || true
  rm -rf "$E/measure"
  grep "^filter blocks in" "$L/measure-upstream.log" || true
  exit 0
fi
for round in $(seq 1 "$ROUNDS"); do
  for s in "${systems[@]}"; do
    rm -rf "$E/run"; cp -a "$E/load-$s" "$E/run"; sync
    echo "=== round $round $s $(date -u +%T)"
    # shellcheck disable=SC2046
    $(cmd $s) "${PROPS[@]}" -run -dbpath "$E/run" >"$L/r$round-$s.log" 2>&1
    grep -E "\[OVERALL\]|operations in|client read syscalls" "$L/r$round-$s.log" || true
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
