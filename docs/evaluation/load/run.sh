#!/bin/bash
# Load throughput: fork Bloom 4 (b) vs ElasticBF (c), alternating, 3 rounds, fillunique of 4M keys.
B=/work/evalbuild/benchmarks/db_bench; D=/work/eval/loadcmp/db
C="--benchmarks=fillunique --num=4000000 --value_size=112 --seed=0 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000"
for r in 1 2 3; do
  for s in b c; do
    rm -rf $D
    if [ $s = b ]; then X="--bloom_bits=4"; else X="--elastic_bf=1"; fi
    echo "=== round $r $s $(date): $B $C $X --db=$D"
    $B $C $X --db=$D > /work/eval/loadcmp/r$r-$s.log 2>&1
    grep -E "^fillunique" /work/eval/loadcmp/r$r-$s.log
  done
done
rm -rf $D
echo "=== done $(date)"
