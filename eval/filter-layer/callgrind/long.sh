#!/usr/bin/env bash
# Same as run.sh, readrandom only, 1M Gets: the first opens of the 41
# tables (filter blocks, locators, first units) are spread over 10x more Gets.
set -euo pipefail
E=/work/eval/cg
B=$E/db_bench_hint
cmd() { case $1 in fork) echo "$B --bloom_bits=10" ;; elasticbf) echo "$B --elastic_bf=1 --bf_memory_bits_per_key=10" ;; esac; }
for s in fork elasticbf; do
  valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
    --callgrind-out-file="$E/cg-long-$s.out" $(cmd $s) \
    --benchmarks=readrandom --use_existing_db=1 --num=2000000 --reads=1000000 \
    --db="$E/$s" >"$E/callgrind-long-$s.log" 2>&1
  echo "callgrind $s readrandom 1M $(grep -o 'Collected : [0-9]*' "$E/callgrind-long-$s.log")"
done
