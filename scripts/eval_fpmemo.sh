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
#   [--dists=zipf,ordered_zipf,hotspot,uniform,ycsbc]
#   [--configs=off,memo262144,big] [--big_memo_bytes=N] [--build_dir=DIR]
#   [--eval_dir=DIR]
# uniform is readzipf with --zipf=0.01. ycsbc is YCSB workload C (the
# runner of benchmarks/ycsb, its scrambled Zipfian) with half of the reads
# for absent keys, on a second database that the runner loads with the
# same pair size and options (db_bench's settle then waits out its
# compactions); it runs only when named. For each distribution,
# filter_bound prints the static and adaptive bounds of its tree to stderr.
# Prints CSV rows on stdout.
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
IFS=, read -r -a dist_list <<<"$dists"
IFS=, read -r -a config_list <<<"$configs"
# Which databases the distributions need: db_bench's, the YCSB runner's.
need_base=0
need_ycsb=0
for dist in "${dist_list[@]}"; do
  case $dist in
    zipf | ordered_zipf | hotspot | uniform) need_base=1 ;;
    ycsbc) need_ycsb=1 ;;
    *) echo "eval_fpmemo.sh: unknown distribution '$dist'" >&2; exit 2 ;;
  esac
done
db_bench=$build_dir/benchmarks/db_bench
ycsb=$build_dir/benchmarks/ycsb/ycsb
[[ -x $db_bench ]] || { echo "eval_fpmemo.sh: no $db_bench" >&2; exit 1; }
if ((need_ycsb)) && [[ ! -x $ycsb ]]; then
  echo "eval_fpmemo.sh: no $ycsb (needed for ycsbc)" >&2
  exit 1
fi
mkdir -p "$eval_dir"
base=$eval_dir/fpmemo-base.$$
ybase=$eval_dir/fpmemo-ycsb-base.$$
work=$eval_dir/fpmemo-run.$$
trap 'rm -rf "$base" "$ybase" "$work"' EXIT

# 4 bits per live key: the budget of 'off' and 'memo'.
budget=$((keys / 2))
common=(--num="$keys" --value_size=112 --max_file_size=67108864
  --direct_io=1 --fill_cache=0 --open_files=100000 --io_stats=1 --seed=0)
# YCSB workload C at the pair size of the read-path protocol: one field of
# 100 bytes (a 24-byte key, a 109-byte record), 64 MiB tables.
ycsb_props=(-P "$(dirname "$0")/../benchmarks/ycsb/workloads/workloadc.spec"
  -p recordcount="$keys" -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false
  -p leveldb.max_open_files=100000 -p leveldb.max_file_size=67108864
  -p status.interval=0)
if ((need_base)); then
  LEVELDB_ELASTICBF=memory_bits_per_key=4 "$db_bench" "${common[@]}" \
    --benchmarks=fillunique,settle --db="$base" >/dev/null 2>&1
fi
if ((need_ycsb)); then
  LEVELDB_ELASTICBF=memory_bits_per_key=4 "$ycsb" "${ycsb_props[@]}" \
    -p operationcount=0 -load -fresh -dbpath "$ybase" >/dev/null
  LEVELDB_ELASTICBF=memory_bits_per_key=4 "$db_bench" "${common[@]}" \
    --benchmarks=settle --use_existing_db=1 --db="$ybase" >/dev/null 2>&1
fi

# The static and adaptive bounds for the tree of one distribution
# (benchmarks/filter_bound), to stderr.
bound() {
  local flags=(--db="$base" --key_format=readzipf)
  case $1 in
    uniform) flags+=(--zipf=0.01) ;;
    ycsbc) flags=(--ycsb_db="$ybase") ;;
    *) flags+=(--key_dist="$1") ;;
  esac
  echo "filter_bound for $1:" >&2
  "$build_dir/benchmarks/filter_bound" "${flags[@]}" --num="$keys" \
    --bits_per_unit=1 --units_per_segment=16 --segment_keys=32768 \
    --budgets=4 --adaptive_gets="$reads" >&2 || true
}

setting() {
  case $1 in
    off) echo "memory_bits_per_key=4" ;;
    memo*) echo "memory_bits_per_key=4,false_positive_memo_bytes=${1#memo}" ;;
    big) echo "memory_budget_bytes=$((budget + big_memo_bytes)),false_positive_memo_bytes=$big_memo_bytes" ;;
  esac
}

# YCSB workload C on the copy in $work, half of the reads absent; prints
# the runner's report.
run_ycsbc() {
  LEVELDB_ELASTICBF=$(setting "$1") "$ycsb" "${ycsb_props[@]}" \
    -p operationcount="$reads" -p zerolookupproportion=0.5 -run \
    -dbpath "$work" 2>/dev/null
}

# One readzipf (or YCSB C); prints the CSV row.
run() {
  local round=$1 dist=$2 config=$3 flags=()
  case $dist in
    uniform) flags=(--zipf=0.01) ;;
    *) flags=(--key_dist="$dist") ;;
  esac
  rm -rf "$work"
  local out
  if [[ $dist == ycsbc ]]; then
    cp -r "$ybase" "$work"
    out=$(run_ycsbc "$config")
  else
    cp -r "$base" "$work"
    out=$(LEVELDB_ELASTICBF=$(setting "$config") "$db_bench" "${common[@]}" \
      --benchmarks=readzipf --use_existing_db=1 --reads="$reads" \
      --zero_lookup_ratio=0.5 --zipf=0.99 "${flags[@]}" --db="$work" \
      2>/dev/null)
  fi
  awk -v round="$round" -v dist="$dist" -v config="$config" '
    function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s }
    /^readzipf: / {
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "found,") found = num($i)
        if ($(i + 1) == "Gets/s") gets_s = num($i)
      }
    }
    # The YCSB runner: reads found, and all operations (Gets) per second.
    $1 == "READ" && NF >= 9 { found = $2 }
    /^\[run\] / {
      for (i = 1; i <= NF; i++)
        if ($i == "ops/s") gets_s = sprintf("%.0f", num($(i - 1)))
    }
    $1 == "gets:" { gets = $2 }
    $1 == "false_positives:" { fp = $2 }
    $1 == "filter_rejections:" { rej = $2 }
    $1 == "data_block_reads:" { reads = $2 }
    $1 == "data_block_ios_per_get:" { ios = $2 }
    /^approximate-memory-usage:/ { mem = $2 }
    $1 == "fp_memo_hits:" { hits = $2 }
    $1 == "fp_memo_bytes:" { memo = $2 }
    END {
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", round, dist,
        config, gets, found, reads, ios, fp, rej, gets_s, mem, hits, memo
    }' <<<"$out"
}

# approximate_memory_bytes: db_bench's rows only; fp_memo_hits and
# fp_memo_bytes (the memo's size at the end): from leveldb.elasticbf.
echo "round,dist,config,gets,found,data_block_reads,ios_per_get,false_positives,filter_rejections,gets_per_s,approximate_memory_bytes,fp_memo_hits,fp_memo_bytes"
for dist in "${dist_list[@]}"; do bound "$dist"; done
for ((r = 1; r <= rounds; r++)); do
  order=()
  for c in "${config_list[@]}"; do
    if ((r % 2 == 0)); then order=("$c" ${order[@]+"${order[@]}"}); else order+=("$c"); fi
  done
  for dist in "${dist_list[@]}"; do
    for config in "${order[@]}"; do run "$r" "$dist" "$config"; done
  done
done
