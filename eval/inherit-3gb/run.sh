#!/bin/bash
# Hotness inheritance off against on at 3 GB, ElasticBF at 4 bits per key,
# the two settings alternating, each run on a fresh copy of its load:
#  locality: the db_bench loads of eval/locality-24m (24M keys, 128-byte
#    pairs), READS lookups per workload (readlatest inserts 5%);
#  mixes: the YCSB load of eval/ycsb-c-ribbon (24M records), 2M operations,
#    50/50 and 90/10 reads/blind updates, half of the reads absent;
#  readpath: the read-path protocol (fillunique then readzipf, one process).
# Usage (from the repository root): bash eval/inherit-3gb/run.sh
# Env: BUILD (dir holding db_bench and ycsb), LOC_LOAD, YCSB_LOAD, EVAL_DIR,
# LOGS, PARTS (locality mixes readpath), ROUNDS, READS.
set -euo pipefail
B=${BUILD:-build/release/benchmarks}
E=${EVAL_DIR:-/work/eval/inherit}
L=${LOGS:-eval/inherit-3gb/logs}
LOC_LOAD=${LOC_LOAD:-/work/eval/loc/load-elasticbf}
YCSB_LOAD=${YCSB_LOAD:-/work/eval/ycsbc/load-elasticbf}
READS=${READS:-300000}
ROUNDS=${ROUNDS:-1}
read -r -a PARTS <<<"${PARTS:-locality mixes readpath}"
DBB=$B/db_bench
[[ -x $DBB ]] || DBB=$B/benchmarks/db_bench
Y=$B/ycsb
[[ -x $Y ]] || Y=$B/ycsb/ycsb
mkdir -p "$E" "$L"
DB=(--num=24000000 --reads="$READS" --value_size=112 --seed=0 --zipf=0.99
  --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0
  --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1
  --bf_memory_bits_per_key=4)
YC=(-p recordcount=24000000 -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0
  -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
  -p status.interval=60 -p leveldb.elastic_bf=true
  -p leveldb.bf_memory_bits_per_key=4)
# shellcheck source=eval/locality-24m/workloads.sh
source "$(dirname "${BASH_SOURCE[0]}")/../locality-24m/workloads.sh"
fresh() { rm -rf "$E/run"; cp -a "$1" "$E/run"; sync; }
summary() {
  grep -hE "^(readzipf|readlatest|fillunique):|^foreground table reads per op|operations in|client read syscalls|wasted_reads_per_get" "$1" || true
}
locality() {  # locality ROUND
  for w in ozipf hotspot latest zipf; do
    for inherit in 0 1; do
      fresh "$LOC_LOAD"
      log=$L/r$1-$w-inherit$inherit.log
      echo "=== r$1 $w inherit=$inherit $(date -u +%T)"
      # shellcheck disable=SC2046
      "$DBB" "${DB[@]}" --bf_inherit_hotness=$inherit --use_existing_db=1 \
        $(reads $w) --db="$E/run" >"$log" 2>&1
      summary "$log"
    done
  done
}
mixes() {  # mixes ROUND
  for mix in "50 0.50 0.50" "90 0.90 0.10"; do
    read -r name r u <<<"$mix"
    for inherit in false true; do
      fresh "$YCSB_LOAD"
      log=$L/r$1-mix$name-inherit-$inherit.log
      echo "=== r$1 mix $name inherit=$inherit $(date -u +%T)"
      "$Y" "${YC[@]}" -p leveldb.bf_inherit_hotness=$inherit \
        -P benchmarks/ycsb/workloads/workloada.spec -p readproportion="$r" \
        -p updateproportion="$u" -p operationcount=2000000 \
        -p writeallfields=true -p zerolookupproportion=0.5 -run \
        -dbpath "$E/run" >"$log" 2>&1
      summary "$log"
    done
  done
}
readpath() {  # readpath ROUND
  for inherit in 0 1; do
    rm -rf "$E/run"
    log=$L/r$1-readpath-inherit$inherit.log
    echo "=== r$1 readpath inherit=$inherit $(date -u +%T)"
    "$DBB" "${DB[@]}" --bf_inherit_hotness=$inherit \
      --benchmarks=fillunique,readzipf --db="$E/run" >"$log" 2>&1
    summary "$log"
  done
}
for round in $(seq 1 "$ROUNDS"); do
  for p in "${PARTS[@]}"; do "$p" "$round"; done
done
rm -rf "$E/run"
echo "=== done $(date -u +%T)"
