#!/usr/bin/env bash
# Instructions inside DBImpl::Get with the default shape (2 x 12): Ribbon units vs Bloom units,
# 10 bits per key of budget, 2M keys compacted into one level, page-cache reads. One binary.
set -euo pipefail
E=/work/eval/cg
B=${B:-$E/db_bench_r16}
for kind in ribbon bloom; do
  db=$E/$kind-212
  if [[ ! -d $db ]]; then
    $B --elastic_bf=1 --bf_memory_bits_per_key=10 --bf_unit_kind=$kind --benchmarks=fillrandom --num=2000000 --value_size=100 --db=$db > $E/load-$kind-212.log 2>&1
    $B --elastic_bf=1 --bf_memory_bits_per_key=10 --bf_unit_kind=$kind --benchmarks=compact,stats --use_existing_db=1 --num=2000000 --db=$db > $E/compact-$kind-212.log 2>&1
  fi
done
for bench in readrandom readmissing; do
  for kind in ribbon bloom; do
    reads=200000; [[ $bench == readmissing ]] && reads=100000
    valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
      --callgrind-out-file="$E/cg16-$bench-$kind.out" $B --elastic_bf=1 --bf_memory_bits_per_key=10 \
      --bf_unit_kind=$kind --benchmarks=$bench --use_existing_db=1 --num=2000000 --reads=$reads \
      --db="$E/$kind-212" >"$E/callgrind16-$bench-$kind.log" 2>&1
    echo "callgrind $kind $bench $reads $(grep -o 'Collected : [0-9]*' "$E/callgrind16-$bench-$kind.log")"
  done
done
