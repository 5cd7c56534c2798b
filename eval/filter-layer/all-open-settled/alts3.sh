#!/usr/bin/env bash
cd /work/eval/reg
while pgrep -f alts2.sh > /dev/null; do sleep 10; done
for r in 4 5; do
  ./run1s.sh /tmp/base/b/benchmarks/db_bench sbase-r$r 4
  ./run1s.sh /work/eval/reg/db_bench_fixb2 sfixb-r$r 4
done
