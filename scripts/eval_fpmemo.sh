#!/usr/bin/env bash
# The false-positive memo against none (docs/evaluation.md, "False
# positives paid once"): one settled database of the read-path protocol,
# then, per round and key distribution, readzipf on a fresh copy of it for
# each configuration in turn (the order reversed every other round):
#
#   off    ElasticBF, memory_bits_per_key=4, no memo
#   memoN  the same budget, of which N bytes go to the memo
#   big    the units' budget of 'off' plus a memo of --big_memo_bytes on
#          top: in effect unbounded, so that its hits count the false
#          positives that repeat a (table, key) pair
#
# ElasticBF is chosen through LEVELDB_ELASTICBF (db_bench has no memo
# flag). Usage: scripts/eval_fpmemo.sh [--keys=N] [--reads=N] [--rounds=N]
#   [--dists=zipf,ordered_zipf,hotspot,uniform] [--configs=off,memo262144,big]
#   [--big_memo_bytes=N] [--build_dir=DIR] [--eval_dir=DIR]
# uniform is readzipf with --zipf=0.01. Prints CSV rows on stdout.
set -euo pipefail

keys=4000000
reads=300000
rounds=2
dists=zipf,ordered_zipf,hotspot,uniform
configs=off,memo262144,big
big_memo_bytes=33554432
build_dir=${LEVELDB_RELEASE_DIR:-build/release}
eval_dir=${EVAL_DIR:-build/eval}
for arg in "$@"; do
  case $arg in
    --keys=*) keys=${arg#*=} ;;
    --reads=*) reads=${arg#*=} ;;
    --rounds=*) rounds=${arg#*=} ;;
    --dists=*) dists=${arg#*=} ;;
    --configs=*) configs=${arg#*=} ;;
    --big_memo_bytes=*) big_memo_bytes=${arg#*=} ;;
    --build_dir=*) build_dir=${arg#*=} ;;
    --eval_dir=*) eval_dir=${arg#*=} ;;
    *) echo "eval_fpmemo.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
db_bench=$build_dir/benchmarks/db_bench
[[ -x $db_bench ]] || { echo "eval_fpmemo.sh: no $db_bench" >&2; exit 1; }
mkdir -p "$eval_dir"
base=$eval_dir/fpmemo-base.$$
work=$eval_dir/fpmemo-run.$$
trap 'rm -rf "$base" "$work"' EXIT

# 4 bits per live key: the budget of 'off' and 'memo'.
budget=$((keys / 2))
common=(--num="$keys" --value_size=112 --max_file_size=67108864
  --direct_io=1 --fill_cache=0 --open_files=100000 --io_stats=1 --seed=0)
LEVELDB_ELASTICBF=memory_bits_per_key=4 "$db_bench" "${common[@]}" \
  --benchmarks=fillunique,settle --db="$base" >/dev/null 2>&1
# The static bound for this very tree (benchmarks/filter_bound), to stderr.
"$build_dir/benchmarks/filter_bound" --db="$base" --key_format=readzipf \
  --num="$keys" --bits_per_unit=1 --units_per_segment=16 \
  --segment_keys=32768 --budgets=4 >&2 || true

setting() {
  case $1 in
    off) echo "memory_bits_per_key=4" ;;
    memo*) echo "memory_bits_per_key=4,false_positive_memo_bytes=${1#memo}" ;;
    big) echo "memory_budget_bytes=$((budget + big_memo_bytes)),false_positive_memo_bytes=$big_memo_bytes" ;;
  esac
}

# One readzipf; prints the CSV row.
run() {
  local round=$1 dist=$2 config=$3 flags=()
  case $dist in
    uniform) flags=(--zipf=0.01) ;;
    *) flags=(--key_dist="$dist") ;;
  esac
  rm -rf "$work"
  cp -r "$base" "$work"
  local out
  out=$(LEVELDB_ELASTICBF=$(setting "$config") "$db_bench" "${common[@]}" \
    --benchmarks=readzipf --use_existing_db=1 --reads="$reads" \
    --zero_lookup_ratio=0.5 --zipf=0.99 "${flags[@]}" --db="$work" 2>/dev/null)
  awk -v round="$round" -v dist="$dist" -v config="$config" '
    function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s }
    /^readzipf: / {
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "found,") found = num($i)
        if ($(i + 1) == "Gets/s") gets_s = num($i)
      }
    }
    $1 == "gets:" { gets = $2 }
    $1 == "false_positives:" { fp = $2 }
    $1 == "filter_rejections:" { rej = $2 }
    $1 == "data_block_reads:" { reads = $2 }
    $1 == "data_block_ios_per_get:" { ios = $2 }
    /^approximate-memory-usage:/ { mem = $2 }
    END {
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", round, dist, config,
        gets, found, reads, ios, fp, rej, gets_s, mem
    }' <<<"$out"
}

echo "round,dist,config,gets,found,data_block_reads,ios_per_get,false_positives,filter_rejections,gets_per_s,approximate_memory_bytes"
IFS=, read -r -a dist_list <<<"$dists"
IFS=, read -r -a config_list <<<"$configs"
for ((r = 1; r <= rounds; r++)); do
  order=()
  for c in "${config_list[@]}"; do
    if ((r % 2 == 0)); then order=("$c" ${order[@]+"${order[@]}"}); else order+=("$c"); fi
  done
  for dist in "${dist_list[@]}"; do
    for config in "${order[@]}"; do run "$r" "$dist" "$config"; done
  done
done
