#!/bin/bash
# Reads served from the page cache (no direct I/O, 8 MiB block cache, the
# db_bench defaults): 2M keys per system, compacted into one level so that
# every system has the same tree, then readrandom (every key found)
# and readmissing (every key absent, inside the key range) three times,
# alternating upstream LevelDB 1.23 (Bloom 10 bits), the fork (Bloom 10
# bits) and the fork with ElasticBF (10 bits per key of units). CPU-bound:
# a Get here is table probes and memory reads, no device I/O.
# Usage (from the repository root): bash eval/buffered-2m/run.sh
# Env: EVAL_DIR (scratch, 0.4 GB), LOGS.
set -euo pipefail
B=build/release/benchmarks
E=${EVAL_DIR:-/work/eval/buf}
L=${LOGS:-eval/buffered-2m/logs}
mkdir -p "$E" "$L"
cmd() {
  case $1 in
    upstream) echo "$B/db_bench_upstream --bloom_bits=10" ;;
    fork) echo "$B/db_bench --bloom_bits=10" ;;
    elasticbf) echo "$B/db_bench --elastic_bf=1 --bf_memory_bits_per_key=10" ;;
  esac
}
systems=(upstream fork elasticbf)
for s in "${systems[@]}"; do
  rm -rf "${E:?}/$s"
  # shellcheck disable=SC2046
  $(cmd $s) --benchmarks=fillrandom --num=2000000 --value_size=100 \
    --db="$E/$s" 2>&1 | tr '\r' '\n' | grep -v finished >"$L/load-$s.log"
  # shellcheck disable=SC2046
  $(cmd $s) --benchmarks=compact,stats --use_existing_db=1 --num=2000000 \
    --db="$E/$s" 2>&1 | tr '\r' '\n' | grep -v finished >"$L/compact-$s.log"
done
for round in 1 2 3; do
  for bench in readrandom readmissing; do
    for s in "${systems[@]}"; do
      # shellcheck disable=SC2046
      $(cmd $s) --benchmarks=$bench --use_existing_db=1 --num=2000000 \
        --reads=1000000 --db="$E/$s" 2>&1 | tr '\r' '\n' |
        grep -v finished >"$L/r$round-$bench-$s.log"
      echo "round $round $s $(grep -E "^$bench" "$L/r$round-$bench-$s.log" | tr -s ' ')"
    done
  done
done
# Exact instructions inside DBImpl::Get (the fork's two builds only:
# Debian's library does not export the symbol), 100k Gets each.
for s in fork elasticbf; do
  for bench in readrandom readmissing; do
    # shellcheck disable=SC2046
    valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
      --callgrind-out-file="$E/cg-$bench-$s.out" $(cmd $s) \
      --benchmarks=$bench --use_existing_db=1 --num=2000000 --reads=100000 \
      --db="$E/$s" >"$L/callgrind-$bench-$s.log" 2>&1
    echo "callgrind $s $bench $(grep -o 'Collected : [0-9]*' "$L/callgrind-$bench-$s.log")"
  done
done
