#!/usr/bin/env bash
# Gets/s with 1, 4, 8, 16 client threads: one load per system (4M keys,
# 128-byte pairs, 64 MiB tables, all open), settled, then readzipf on the
# existing database for each thread count (direct I/O, no block cache).
set -euo pipefail
B=/work/eval/build/benchmarks
OUT=${OUT:-/work/eval/threads}
KEYS=${KEYS:-4000000}
READS=${READS:-20000}   # per thread
mkdir -p "$OUT"
common=(--num=$KEYS --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5
  --direct_io=1 --fill_cache=0)
lv=(--max_file_size=67108864 --open_files=100000 --io_stats=1)
for sys in a d e; do
  db=/work/eval/threads-db-$sys
  rm -rf "$db"
  case $sys in
    a) cmd=("$B/db_bench_upstream" "${common[@]}" "${lv[@]}" --bloom_bits=4) ;;
    d) cmd=("$B/db_bench" "${common[@]}" "${lv[@]}" --elastic_bf=1 --bf_memory_bits_per_key=4) ;;
    e) cmd=("$B/rocksdb_bench/rocksdb_readpath" "${common[@]}" --bloom_bits=4 --target_file_size_base=67108864) ;;
  esac
  "${cmd[@]}" --db="$db" --benchmarks=fillunique,settle > "$OUT/load-$sys.log" 2>&1
  sync
done
for round in 1 2 3; do
  for t in 1 4 8 16; do
    for sys in a d e; do
      db=/work/eval/threads-db-$sys
      case $sys in
        a) cmd=("$B/db_bench_upstream" "${common[@]}" "${lv[@]}" --bloom_bits=4) ;;
        d) cmd=("$B/db_bench" "${common[@]}" "${lv[@]}" --elastic_bf=1 --bf_memory_bits_per_key=4) ;;
        e) cmd=("$B/rocksdb_bench/rocksdb_readpath" "${common[@]}" --bloom_bits=4 --target_file_size_base=67108864) ;;
      esac
      "${cmd[@]}" --db="$db" --use_existing_db=1 --benchmarks=readzipf \
        --threads=$t --reads=$READS > "$OUT/r$round-t$t-$sys.log" 2>&1
      echo "$round $t $sys $(grep -h '^readzipf:' "$OUT/r$round-t$t-$sys.log" | grep -o '[0-9.]* Gets/s')"
    done
  done
done
