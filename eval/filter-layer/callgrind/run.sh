#!/usr/bin/env bash
# Instructions inside DBImpl::Get, fork Bloom 10 vs ElasticBF 10 bits/key,
# 2M keys compacted into one level, page-cache reads (db_bench defaults).
set -euo pipefail
E=/work/eval/cg
B=${B:-$E/db_bench_head}
cmd() { case $1 in fork) echo "$B --bloom_bits=10" ;; elasticbf) echo "$B --elastic_bf=1 --bf_memory_bits_per_key=10" ;; esac; }
for s in fork elasticbf; do
  if [[ ! -d $E/$s ]]; then
    $(cmd $s) --benchmarks=fillrandom --num=2000000 --value_size=100 --db="$E/$s" > "$E/load-$s.log" 2>&1
    $(cmd $s) --benchmarks=compact,stats --use_existing_db=1 --num=2000000 --db="$E/$s" > "$E/compact-$s.log" 2>&1
  fi
done
for s in fork elasticbf; do
  for bench in readrandom readmissing; do
    valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
      --callgrind-out-file="$E/cg-$bench-$s${TAG:-}.out" $(cmd $s) \
      --benchmarks=$bench --use_existing_db=1 --num=2000000 --reads=100000 \
      --db="$E/$s" >"$E/callgrind-$bench-$s${TAG:-}.log" 2>&1
    echo "callgrind $s $bench $(grep -o 'Collected : [0-9]*' "$E/callgrind-$bench-$s${TAG:-}.log")"
  done
done
