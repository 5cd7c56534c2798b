#!/bin/bash
# Prints a Markdown table of the rounds in LOGS (default: this directory's
# logs/): ops/s per system and round, medians, ratios, reads per Get and the
# client thread's time per operation.
set -euo pipefail
L=${LOGS:-eval/ycsb-c-final/logs}
systems=(upstream before after rocksdb)
ops() { awk '/operations in/ {print $(NF-3)}' "$1"; }
reads() { awk '/client read syscalls/ {gsub(/\(/, "", $5); print $5}' "$1"; }
cpu() { awk '/client CPU per operation/ {print $5 "/" $8 "/" $11}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
rounds=$(ls "$L" | sed -n 's/^r\([0-9]*\)-.*/\1/p' | sort -n | uniq)
echo "| round | upstream | ElasticBF before | ElasticBF after | RocksDB | after / upstream | after / RocksDB | after / before |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for r in $rounds; do
  row="| $r"
  for s in "${systems[@]}"; do row="$row | $(ops "$L/r$r-$s.log")"; done
  u=$(ops "$L/r$r-upstream.log"); b=$(ops "$L/r$r-before.log")
  a=$(ops "$L/r$r-after.log"); k=$(ops "$L/r$r-rocksdb.log")
  row="$row | $(awk -v a="$a" -v u="$u" 'BEGIN {printf "%.2f", a / u}')"
  row="$row | $(awk -v a="$a" -v k="$k" 'BEGIN {printf "%.2f", a / k}')"
  row="$row | $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}') |"
  echo "$row"
done
row="| **median**"
for s in "${systems[@]}"; do
  m=$(for r in $rounds; do ops "$L/r$r-$s.log"; done | median)
  row="$row | $m"
  eval "med_$s=$m"
done
# shellcheck disable=SC2154
row="$row | $(awk -v a="$med_after" -v u="$med_upstream" 'BEGIN {printf "**%.2f**", a / u}')"
row="$row | $(awk -v a="$med_after" -v k="$med_rocksdb" 'BEGIN {printf "**%.2f**", a / k}')"
row="$row | $(awk -v a="$med_after" -v b="$med_before" 'BEGIN {printf "%.2f", a / b}') |"
echo "$row"
echo
echo "| system | reads per Get (range) | client us per op: user / system / waiting for a CPU (medians) |"
echo "| --- | --- | --- |"
for s in "${systems[@]}"; do
  rd=$(for r in $rounds; do reads "$L/r$r-$s.log"; done | sort -g | sed -n '1p;$p' | paste -sd- -)
  c=$(for r in $rounds; do cpu "$L/r$r-$s.log"; done)
  if [ -n "$c" ]; then
    cu=$(echo "$c" | cut -d/ -f1 | median); cs=$(echo "$c" | cut -d/ -f2 | median)
    cw=$(echo "$c" | cut -d/ -f3 | median)
    echo "| $s | $rd | $cu / $cs / $cw |"
  else
    echo "| $s | $rd | (build without the CPU report) |"
  fi
done
