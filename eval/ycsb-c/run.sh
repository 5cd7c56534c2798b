#!/bin/bash
# Workload C at 3 GB, three systems at equal measured filter memory, three
# alternating rounds on fresh copies of one load per system.
# Usage (from the repository root): bash eval/ycsb-c/run.sh
# Env: BUILD (build dir, default build/release), EVAL_DIR (scratch, ~15 GB),
# LOGS (default eval/ycsb-c/logs), BUDGET (ElasticBF bytes:
# upstream's measured filter bytes of this load, 19441566 in
# eval/3gb), ROCKS_BITS (round of upstream's bits per key, 6).
set -euo pipefail
B=${BUILD:-build/release}/benchmarks
E=${EVAL_DIR:-/work/eval/ycsbc}
L=${LOGS:-eval/ycsb-c/logs}
BUDGET=${BUDGET:-19441566}
ROCKS_BITS=${ROCKS_BITS:-6}
W=benchmarks/ycsb/workloads/workloadc.spec
mkdir -p "$E" "$L"
PROPS=(-p recordcount=24000000 -p operationcount=200000 -p fieldcount=1
  -p fieldlength=100 -p leveldb.direct_io=true -p leveldb.fill_cache=false
  -p leveldb.cache_size=0 -p leveldb.max_file_size=67108864
  -p leveldb.max_open_files=100000 -p status.interval=60)
cmd() {
  case $1 in
    upstream) echo "$B/ycsb/ycsb_upstream -p leveldb.bloom_bits=4" ;;
    elasticbf) echo "$B/ycsb/ycsb -p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes=$BUDGET" ;;
    rocksdb) echo "$B/rocksdb_bench/ycsb_rocksdb -p leveldb.bloom_bits=$ROCKS_BITS" ;;
  esac
}
systems=(upstream elasticbf rocksdb)
# Loads, in parallel (load throughput is not what this measures).
for s in "${systems[@]}"; do
  [[ -d $E/load-$s ]] && continue
  # shellcheck disable=SC2046
  $(cmd $s) -P $W "${PROPS[@]}" -load -fresh -dbpath "$E/load-$s" \
    >"$L/load-$s.log" 2>&1 &
done
wait
# Upstream's filter memory as loaded (what BUDGET should equal).
rm -rf "$E/measure"; cp -a "$E/load-upstream" "$E/measure"
"$B/db_bench_upstream" --use_existing_db=1 --benchmarks=readzipf --reads=1 \
  --num=24000000 --io_stats=1 --open_files=100000 --bloom_bits=4 \
  --db="$E/measure" >"$L/measure-upstream.log" 2>&1 || true
rm -rf "$E/measure"
grep "^filter blocks in" "$L/measure-upstream.log" || true
for round in 1 2 3; do
  for s in "${systems[@]}"; do
    rm -rf "$E/run"; cp -a "$E/load-$s" "$E/run"
    echo "=== round $round $s $(date -u +%T)"
    # shellcheck disable=SC2046
    $(cmd $s) -P $W "${PROPS[@]}" -run -dbpath "$E/run" >"$L/r$round-$s.log" 2>&1
    grep -E "\[OVERALL\]|operations in|client read syscalls" "$L/r$round-$s.log" || true
  done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
