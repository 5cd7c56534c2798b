#!/bin/bash
# Instructions (all threads) of a 150k-key fillunique: fork Bloom 4 (b) vs ElasticBF (c).
B=${DB_BENCH:-build/release/benchmarks/db_bench}
C="--benchmarks=fillunique --num=150000 --value_size=112 --seed=0 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000 --io_stats=1"
for s in b c; do
  rm -rf ${CG_DIR:-/tmp}/cg-db-$s
  if [ $s = b ]; then X="--bloom_bits=4"; else X="--elastic_bf=1"; fi
  valgrind --tool=callgrind --callgrind-out-file=cg-$s.out $B $C $X --db=${CG_DIR:-/tmp}/cg-db-$s > cg-$s.log 2>&1
  grep -E "Collected|compaction_bytes_written" cg-$s.log
done
