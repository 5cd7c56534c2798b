#!/usr/bin/env bash
# Instructions inside DBImpl::Get, ElasticBF with Ribbon units vs Bloom units (10 bits per key of budget),
# 2M keys compacted into one level, page-cache reads, 200k found-key Gets; one binary.
E=/work/eval/cg
B=${B:-$E/db_bench_ep}
for kind in ribbon bloom; do
  db=$E/ribbon; [[ $kind == bloom ]] && db=$E/elasticbf
  valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
    --callgrind-out-file="$E/cg-kind-$kind.out" $B --elastic_bf=1 --bf_memory_bits_per_key=10 \
    --bf_unit_kind=$kind --benchmarks=readrandom --use_existing_db=1 --num=2000000 --reads=200000 \
    --db="$db" >"$E/callgrind-kind-$kind.log" 2>&1
  echo "callgrind $kind readrandom 200k $(grep -o 'Collected : [0-9]*' "$E/callgrind-kind-$kind.log")"
done
