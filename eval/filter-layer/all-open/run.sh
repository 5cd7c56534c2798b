#!/usr/bin/env bash
# Every table open (4M keys, 64 MiB tables, 4 bits per key), reads at once
# after the load as in the read-path protocol: the build at the start of
# the session (92aa86c) against the final one, alternating, two rounds.
set -uo pipefail
cd /work/eval/openall-base
for round in 1 2; do
  for v in base head; do
    if [[ $v == base ]]; then B=/tmp/base/b/benchmarks/db_bench; else B=/work/eval/db_bench_head_final; fi
    rm -rf db
    $B --benchmarks=fillunique,readzipf --num=4000000 --reads=100000 --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --db=$PWD/db --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1 --bf_memory_bits_per_key=4 > r$round-$v.log 2>&1
    echo "$round $v $(grep -h 'foreground table reads per op' r$round-$v.log) | $(grep -h '^readzipf:' r$round-$v.log | grep -o '[0-9]* Gets/s')"
  done
done
rm -rf db
