#!/bin/bash
# CPU seconds (user+sys, all threads) of a 2M-key fillunique: fork Bloom 4 (b) vs ElasticBF (c), alternating.
B=/work/evalbuild/benchmarks/db_bench; D=/work/eval/loadcmp/cpudb
C="--benchmarks=fillunique --num=2000000 --value_size=112 --seed=0 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000"
for r in 1 2 3; do
  for s in b c; do
    rm -rf $D
    if [ $s = b ]; then X="--bloom_bits=4"; else X="--elastic_bf=1"; fi
    /usr/bin/time -f "cpu $r $s user %U sys %S wall %e" $B $C $X --db=$D > /work/eval/loadcmp/cpu-r$r-$s.log 2>&1
    tail -1 /work/eval/loadcmp/cpu-r$r-$s.log; grep "^load:" /work/eval/loadcmp/cpu-r$r-$s.log
  done
done
rm -rf $D
