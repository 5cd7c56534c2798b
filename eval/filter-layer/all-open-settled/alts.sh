#!/usr/bin/env bash
# Settled all-open comparison: base (92aa86c) vs head, alternating.
cd /work/eval/reg
for r in 1 2 3; do
  ./run1s.sh /tmp/base/b/benchmarks/db_bench sbase-r$r 4
  ./run1s.sh /work/eval/reg/db_bench_m2 shead-r$r 4
done
