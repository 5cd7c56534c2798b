#!/bin/bash
# Load throughput: fork Bloom 4 (b) vs ElasticBF (c), alternating, ROUNDS (default 3) rounds
# of fillunique. Usage: loadcmp.sh KEYS (the runs here: 4000000, then
# 2000000; the 4M runs were made without /usr/bin/time).
B=${DB_BENCH:-build/release/benchmarks/db_bench}
D=${DB_DIR:-/work/eval/loadcmp/db}
keys=${1:?usage: loadcmp.sh KEYS}
C="--benchmarks=fillunique --num=$keys --value_size=112 --seed=0 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000"
for r in $(seq 1 "${ROUNDS:-3}"); do
  for s in b c; do
    rm -rf "$D"
    if [ $s = b ]; then X="--bloom_bits=4"; else X="--elastic_bf=1"; fi
    /usr/bin/time -f "cpu $r $s user %U sys %S wall %e" $B $C $X --db="$D" >"$s-$keys-r$r.log" 2>&1
    tail -1 "$s-$keys-r$r.log"
    grep "^load:" "$s-$keys-r$r.log"
  done
done
rm -rf "$D"
