#!/bin/bash
# Issue 5's mixed workloads at 3 GB on one load per engine: ElasticBF at a
# true 4 bits per live key with hotness inheritance off and on (three
# alternating rounds of the 50/50 mix, one of the 90/10 mix), and upstream
# LevelDB (Bloom "4 bits", 6.48 measured) once per mix. 2M operations per
# run, Zipfian 0.99, half of the reads for absent keys, blind updates;
# every run on a fresh copy of its load.
# Usage (from the repository root): bash eval/mixed-final/run.sh
# Env: YCSB, YCSB_UPSTREAM (binaries), EVAL_DIR (scratch, 10 GB), LOGS,
# UP_LOAD (upstream's load, eval/ycsb-c-latency/run.sh uses it too).
set -euo pipefail
B=build/release/benchmarks
Y=${YCSB:-$B/ycsb/ycsb}
YU=${YCSB_UPSTREAM:-$B/ycsb/ycsb_upstream}
E=${EVAL_DIR:-/work/eval/s3}
L=${LOGS:-eval/mixed-final/logs}
UP_LOAD=${UP_LOAD:-/work/eval/up/load}
mkdir -p "$E" "$L"
COMMON=(-p recordcount=24000000 -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0
  -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
  -p status.interval=60)
EBF=(-p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4)
W=benchmarks/ycsb/workloads
if [[ ! -d $E/load ]]; then
  "$Y" "${COMMON[@]}" "${EBF[@]}" -P $W/workloadc.spec -p operationcount=0 \
    -load -fresh -dbpath "$E/load" >"$L/load.log" 2>&1
fi
run() {  # run NAME LOAD READ_SHARE UPDATE_SHARE ENGINE_ARGS...
  local name=$1 load=$2 reads=$3 updates=$4; shift 4
  rm -rf "$E/run"; cp -a "$load" "$E/run"
  echo "=== $name $(date -u +%T)"
  "$@" "${COMMON[@]}" -P $W/workloada.spec -p readproportion="$reads" \
    -p updateproportion="$updates" -p operationcount=2000000 \
    -p writeallfields=true -p zerolookupproportion=0.5 -run \
    -dbpath "$E/run" >"$L/$name.log" 2>&1
  grep -E "operations in|client read syscalls|^UPDATE|wasted_reads_per_get" \
    "$L/$name.log" || true
}
for round in 1 2 3; do
  run "r$round-50-off" "$E/load" 0.50 0.50 "$Y" "${EBF[@]}" -p leveldb.bf_inherit_hotness=false
  run "r$round-50-on" "$E/load" 0.50 0.50 "$Y" "${EBF[@]}"
done
run "r1-90-off" "$E/load" 0.90 0.10 "$Y" "${EBF[@]}" -p leveldb.bf_inherit_hotness=false
run "r1-90-on" "$E/load" 0.90 0.10 "$Y" "${EBF[@]}"
run "r1-50-upstream" "$UP_LOAD" 0.50 0.50 "$YU" -p leveldb.bloom_bits=4
run "r1-90-upstream" "$UP_LOAD" 0.90 0.10 "$YU" -p leveldb.bloom_bits=4
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
