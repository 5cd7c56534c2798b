#!/usr/bin/env bash
cd /work/eval/reg
while pgrep -f alts.sh > /dev/null; do sleep 10; done
for r in 1 2 3; do
  ./run1s.sh /work/eval/reg/db_bench_fixb2 sfixb-r$r 4
done
