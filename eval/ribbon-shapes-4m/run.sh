#!/usr/bin/env bash
# usage: run.sh TAG BITS [extra flags]; 4M keys, settle, 100k Gets half absent
T=$1; BITS=$2; shift 2
D=/work/eval/shape/db-$T; rm -rf $D
./db_bench --benchmarks=fillunique,settle,readzipf --num=4000000 --reads=100000 --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --db=$D --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1 --bf_memory_bits_per_key=$BITS "$@" > $T.log 2>&1
rm -rf $D
echo "$T $(grep -h 'foreground table reads per op' $T.log | cut -d, -f1) | $(grep -h '^readzipf:' $T.log | grep -o '[0-9]* Gets/s') | $(grep -h 'unfiltered_misses\|false_positives:' $T.log | tr -s ' ' | tr '\n' ' ')"
