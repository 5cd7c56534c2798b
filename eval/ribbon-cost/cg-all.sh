#!/usr/bin/env bash
# Instructions inside DBImpl::Get for found keys with every unit loaded (budget 100 bits per key,
# `settle` waits for the loads), default shape 2 x 12, 2M keys compacted into one level
# (databases built by cg16.sh), page-cache reads, 200k Gets. Deterministic: a repeat differs by 0.001%.
#   db_bench_r16  = build/release/benchmarks/db_bench at 52ce08a (each unit derives its own key probe)
#   db_bench_r16b = the same at bfc6dbb (the units of a segment share one key probe)
E=/work/eval/cg
for cfg in "r16 ribbon" "r16b ribbon" "r16b bloom"; do
  set -- $cfg
  valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
    --callgrind-out-file=$E/cgall-$1-$2.out $E/db_bench_$1 --elastic_bf=1 --bf_memory_bits_per_key=100 \
    --bf_unit_kind=$2 --benchmarks=settle,readrandom --use_existing_db=1 --num=2000000 --reads=200000 \
    --db=$E/$2-212 > $E/cgall-$1-$2.log 2>&1
  echo "$1 $2 $(grep -o 'Collected : [0-9]*' $E/cgall-$1-$2.log)"
done
