#!/usr/bin/env bash
# Settled all-open, 4M keys, 64 MiB tables, 4 bits per key: Bloom units vs Ribbon units (one binary).
cd /work/eval/reg
for r in 1 2 3; do
  ./run1s.sh /work/eval/reg/db_bench_rb rbloom-r$r 4 --bf_unit_kind=bloom
  ./run1s.sh /work/eval/reg/db_bench_rb rribbon-r$r 4 --bf_unit_kind=ribbon
done
