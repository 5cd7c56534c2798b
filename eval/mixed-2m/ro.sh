#!/bin/bash
# usage: ro.sh AGING ; readzipf 100k on a copy of the 2M load
D=/work/eval/small/ro-run-$1
rm -rf $D; cp -a /work/eval/small/ro-load $D
MQ_AGING=$1 /work/eval/small/db_bench-aging --benchmarks=readzipf --use_existing_db=1 --num=2000000 --reads=100000 --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --db=$D --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1 --bf_memory_bits_per_key=4 > /work/eval/small/ro-$1.log 2>&1
rm -rf $D
echo "== ro aging $1: $(grep -aE '^(data_block_ios_per_get|false_positives_per_get|wasted_reads_per_get):' /work/eval/small/ro-$1.log | tail -3 | tr -s ' ' | tr '\n' ' ')"
