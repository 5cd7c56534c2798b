#!/usr/bin/env bash
# The ElasticBF papers' experiments, side by side with Debian's LevelDB 1.23
# and RocksDB 7.8, at equal MEASURED filter memory (docs/evaluation.md).
#
# Experiments (--experiments, comma-separated; default all):
#   readonly  Fig. 10 (ATC'19): scripts/eval_readpath.sh (fresh random load,
#             then scrambled-Zipfian Gets, half absent, direct I/O, no block
#             cache), plus RocksDB with Bloom bits = upstream's measured
#             bits per key (equal memory)
#   mixed     Fig. 11: 50% read / 50% update and 90% / 10% (YCSB runner,
#             Zipfian, half of the reads absent), ElasticBF with hotness
#             inheritance on and off
#   ycsb      Fig. 13: YCSB workloads a-f
#   zero      Fig. 16b: workload c with 0/25/50/75/100% absent-key reads
#   memory    HotStorage'18 Fig. 6: filter memory 2/4/6/8/10 bits per key:
#             upstream, ElasticBF with Ribbon (default) and with Bloom
#             units, RocksDB with full Bloom and with Ribbon filters
#   segment   Fig. 16f: ElasticBF segment size
#   bpu       Fig. 16h: ElasticBF bits per filter unit
#
# Systems: upstream = Debian's LevelDB 1.23 (db_bench_upstream,
# ycsb_upstream) with 4-bit Bloom filters; ElasticBF = this fork with a
# filter budget EQUAL to upstream's measured filter bytes; RocksDB 7.8 with
# full Bloom filters of round(upstream's measured bits per key) bits. mixed,
# ycsb and zero share one loaded database per system (every run works on an
# exact copy of it); the others load a fresh database per run. Systems
# alternate inside every experiment.
#
# Usage: scripts/evaluate.sh [options]
#   --size_gb=X        data size in GB of 128-byte pairs (default 3: 24M keys)
#   --keys=N           keys instead of --size_gb
#   --reads=N          Gets per read-only run (default 300000)
#   --ops=N            operations per YCSB/mixed run (default 300000)
#   --experiments=L    subset of readonly,mixed,ycsb,zero,memory,segment,bpu
#   --memory_bits=L    bits per key of the memory sweep (default 2,4,6,8,10)
#   --segment_list=L   segment_bytes of the segment sweep, 0 = automatic
#                      (default 65536,262144,0,2097152,8388608)
#   --bpu_list=L       bits_per_unit:units_per_segment pairs of the bpu sweep
#                      (default 2:12,3:8,4:6,6:4,8:3; 24 bits per key on disk)
#   --max_file_size=N  table size (default 67108864, the paper's 64 MiB)
#   --build_dir=DIR    CMake build directory (default build/release); missing
#                      programs are configured and built there
#   --eval_dir=DIR     where databases live (default $EVAL_DIR or build/eval)
#   --out=DIR          results (default eval)
#   --dry_run          print the commands, run nothing
#   --report_only      run nothing: redraw the plots and results.md from the
#                      CSVs and commands.txt already in --out
#   -h, --help
# Output in --out: <experiment>.csv, results.md (Markdown tables, machine,
# commands), commands.txt, *.png (gnuplot, installed if missing), logs/.
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh disable=SC1091
source "$LEVELDB_ROOT/scripts/common.sh"

size_gb=3
keys=""
reads=300000
ops=300000
experiments=readonly,mixed,ycsb,zero,memory,segment,bpu
memory_bits=2,4,6,8,10
segment_list=65536,262144,0,2097152,8388608
bpu_list=2:12,3:8,4:6,6:4,8:3
max_file_size=67108864
build_dir=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
eval_dir=${EVAL_DIR:-$LEVELDB_ROOT/build/eval}
out_dir=$LEVELDB_ROOT/eval
dry_run=0
report_only=0

usage() { sed -n '2,49p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
int_list() {
  [[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]] || die "$1 needs a comma-separated list of integers, got '$2'"
}

for arg in "$@"; do
  case $arg in
    --size_gb=*) size_gb=${arg#*=}
      if ! [[ $size_gb =~ ^[0-9]*\.?[0-9]+$ ]] ||
        ! awk -v x="$size_gb" 'BEGIN { exit !(x > 0) }'; then
        die "--size_gb needs a positive number, got '$size_gb'"
      fi ;;
    --keys=*) keys=${arg#*=}; positive_int --keys "$keys" ;;
    --reads=*) reads=${arg#*=}; positive_int --reads "$reads" ;;
    --ops=*) ops=${arg#*=}; positive_int --ops "$ops" ;;
    --experiments=*) experiments=${arg#*=} ;;
    --memory_bits=*) memory_bits=${arg#*=}; int_list --memory_bits "$memory_bits" ;;
    --segment_list=*) segment_list=${arg#*=}; int_list --segment_list "$segment_list" ;;
    --bpu_list=*) bpu_list=${arg#*=}
      [[ $bpu_list =~ ^[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$ ]] ||
        die "--bpu_list needs bits:units pairs, e.g. 2:12,4:6, got '$bpu_list'" ;;
    --max_file_size=*) max_file_size=${arg#*=}
      positive_int --max_file_size "$max_file_size" ;;
    --build_dir=*) build_dir=${arg#*=} ;;
    --eval_dir=*) eval_dir=${arg#*=} ;;
    --out=*) out_dir=${arg#*=} ;;
    --dry_run) dry_run=1 ;;
    --report_only) report_only=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$arg'" ;;
  esac
done
[[ -n $keys ]] || keys=$(awk -v g="$size_gb" 'BEGIN { printf "%d", g * 8000000 }')
((keys >= 1000)) || die "--keys (or --size_gb) gives $keys keys; at least 1000 are needed"
((keys <= 2147483647)) || die "--keys must fit in 31 bits"
IFS=, read -r -a exp_list <<<"$experiments"
((${#exp_list[@]} > 0)) || die "--experiments is empty"
declare -A want=()
for e in "${exp_list[@]}"; do
  case $e in
    readonly | mixed | ycsb | zero | memory | segment | bpu) want[$e]=1 ;;
    *) die "unknown experiment '$e' (readonly, mixed, ycsb, zero, memory, segment, bpu)" ;;
  esac
done
for b in ${memory_bits//,/ }; do
  ((b >= 1 && b <= 100)) || die "--memory_bits values must be in [1, 100], got $b"
done
for s in ${segment_list//,/ }; do
  ((s == 0 || s >= 1024)) || die "--segment_list values must be 0 or >= 1024, got $s"
done
for p in ${bpu_list//,/ }; do
  ((${p%%:*} >= 1 && ${p%%:*} <= 32 && ${p##*:} >= 1 && ${p##*:} <= 16)) ||
    die "--bpu_list: bits must be in [1, 32] and units in [1, 16], got $p"
done
build_dir=$(realpath -m -- "$build_dir")
eval_dir=$(realpath -m -- "$eval_dir")
out_dir=$(realpath -m -- "$out_dir")

B=$build_dir/benchmarks
db_bench=$B/db_bench
db_bench_upstream=$B/db_bench_upstream
rocksdb_readpath=$B/rocksdb_bench/rocksdb_readpath
ycsb_up=$B/ycsb/ycsb_upstream
ycsb_fork=$B/ycsb/ycsb
ycsb_rocks=$B/rocksdb_bench/ycsb_rocksdb
workloads=$LEVELDB_ROOT/benchmarks/ycsb/workloads

# ---------------------------------------------------------------------------
# Packages and programs
# ---------------------------------------------------------------------------
if ((report_only)); then
  [[ -d $out_dir ]] || die "--report_only: $out_dir does not exist"
  command -v gnuplot >/dev/null || {
    LEVELDB_PACKAGES=(gnuplot-nox)
    ensure_packages >&2
  }
elif ((!dry_run)); then
  # common.sh's installer, for the build packages plus gnuplot and RocksDB.
  LEVELDB_PACKAGES+=(gnuplot-nox librocksdb-dev)
  ensure_packages >&2
  missing=0
  for p in "$db_bench" "$db_bench_upstream" "$rocksdb_readpath" "$ycsb_up" \
    "$ycsb_fork" "$ycsb_rocks"; do
    [[ -x $p ]] || missing=1
  done
  if ((missing)); then
    echo "evaluate.sh: building the benchmark programs in $build_dir" >&2
    [[ -f $build_dir/build.ninja ]] ||
      cmake -S "$LEVELDB_ROOT" -B "$build_dir" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DLEVELDB_UPSTREAM=ON >&2
    ninja -C "$build_dir" -j "${LEVELDB_JOBS:-2}" db_bench db_bench_upstream \
      rocksdb_readpath ycsb_upstream ycsb ycsb_rocksdb >&2
  fi
fi

# ---------------------------------------------------------------------------
# Space, output, bookkeeping
# ---------------------------------------------------------------------------
if ((report_only)); then
  eval_dir=$out_dir  # nothing is written there; only for the machine lines
fi
mkdir -p "$eval_dir" 2>/dev/null || die "cannot create --eval_dir $eval_dir"
[[ -d $eval_dir && -w $eval_dir ]] || die "$eval_dir is not a writable directory"
# Up to five databases at once (the shared loads plus one copy), each the
# raw pairs plus compaction slack.
need=$((keys * 160 * 2 * 5 + (1 << 30)))
avail=$(df -PB1 "$eval_dir" | awk 'NR == 2 { print $4 }')
((report_only || avail >= need)) ||
  die "not enough free space in $eval_dir: $((avail >> 20)) MiB free, about $((need >> 20)) MiB needed"
db_root=$eval_dir/evaluate-db.$$
((dry_run || report_only)) || mkdir -p "$db_root"
mkdir -p "$out_dir/logs"
commands=$out_dir/commands.txt
((dry_run || report_only)) || : >"$commands"
cleanup() { rm -rf "$db_root"; }
trap cleanup EXIT

note() { echo "=== $*" >&2; }
# Runs "$@" with output to log $1 (stdout) and $1.stderr; records the
# command. With --dry_run prints it only.
run_logged() {
  local log=$1
  shift
  local line
  line=$(printf '%q ' "$@")
  line=${line//\\,/,}
  if ((dry_run)); then
    echo "$line"
    return 0
  fi
  echo "$line" >>"$commands"
  note "$line"
  "$@" >"$log" 2>"$log.stderr" || die "command failed (see $log.stderr): $line"
}
copy_db() {
  if ((dry_run)); then
    echo "cp -a $1 $2 && sync"
    return 0
  fi
  echo "cp -a $1 $2 && sync" >>"$commands"
  rm -rf "$2"
  cp -a "$1" "$2"
  # The copy's writeback must not overlap the run that follows.
  sync
}
drop_db() { ((dry_run)) || rm -rf "$1"; }

# "key=value" lines from a db_bench / rocksdb_readpath log (read phase).
parse_readpath() {
  awk '
    function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s }
    /^load: / && load == "" { load = num($2) }
    /^readzipf: / {
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "found," && found == "") found = num($i)
        if ($(i + 1) == "Gets/s") gets = num($i)
      }
      lookups = num($2); in_read = 1
    }
    /^readzipf +: / { for (i = 1; i <= NF; i++) if ($i == "micros/op;") us = num($(i - 1)) }
    /^foreground read syscalls per op: / { io = num($6) }
    /^filter blocks in / && in_read { fbits = num($11); fbytes = num($8) }
    /^filter memory \(elastic, loaded units\): / && in_read { ebits = num($9); ebytes = num($6) }
    /^false_positives_per_get: / && in_read { fp = num($2) }
    END {
      if (ebits != "") { fbits = ebits; fbytes = ebytes }
      printf "load=%s\ngets=%s\nio=%s\nfbits=%s\nfbytes=%s\nfp=%s\nfound=%s\nlookups=%s\nus=%s\n", load, gets, io, fbits, fbytes, fp, found, lookups, us
    }' "$1"
}

# "key=value" lines from a YCSB runner log (run phase).
parse_ycsb() {
  awk '
    function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s }
    /^\[run\] [0-9]+ operations in / { run = 1; tput = num($7) }
    run && /^(READ|READ_ABSENT|UPDATE|INSERT|SCAN|READ_MODIFY_WRITE) +[0-9]/ {
      n[$1] = $2; rate[$1] = $3; avg[$1] = $4; p50[$1] = $5; p99[$1] = $6
      p999[$1] = $7; nf[$1] = $8
    }
    run && /^client read syscalls: / { creads = num($5); cgets = $9; bgreads = $12 }
    run && /^data_block_ios_per_get:/ { io = $2 }
    run && /^false_positives_per_get:/ { fp = $2 }
    run && /^memory_used_bytes:/ { ebytes = $2 }
    run && /^gets: / && rocks { rgets = $2 }
    run && /^rocksdb:/ { rocks = 1 }
    run && /^false_positives: / { rfp = $2 }
    run && /^filter_bits_per_entry: / { rbits = $2 }
    run && /^filter_bytes: / { rbytes = $2 }
    END {
      if (rocks && rgets > 0) fp = sprintf("%.4f", rfp / rgets)
      r = (n["READ"] != "") ? "READ" : (n["SCAN"] != "" ? "SCAN" : "READ_ABSENT")
      printf "tput=%s\nio=%s\nfp=%s\nebytes=%s\nrbits=%s\nrbytes=%s\n", tput, io, fp, ebytes, rbits, rbytes
      printf "op=%s\np50=%s\np99=%s\np999=%s\navg=%s\n", r, p50[r], p99[r], p999[r], avg[r]
      gets = n["READ"] + n["READ_ABSENT"] + n["READ_MODIFY_WRITE"]
      found = gets - nf["READ"] - nf["READ_ABSENT"] - nf["READ_MODIFY_WRITE"]
      printf "gets_s=%.1f\nwrites_s=%.1f\n", rate["READ"] + rate["READ_ABSENT"] + rate["READ_MODIFY_WRITE"], rate["UPDATE"] + rate["INSERT"] + rate["READ_MODIFY_WRITE"]
      if (creads != "" && gets > 0) {
        printf "creads=%s\nfound=%.4f\nfpio=%.4f\nbgreads=%s\n", creads, found / gets, creads - found / gets, bgreads
      }
      printf "wp99=%s\n", (p99["UPDATE"] != "" ? p99["UPDATE"] : (p99["INSERT"] != "" ? p99["INSERT"] : p99["READ_MODIFY_WRITE"]))
    }' "$1"
}
declare -A kv
load_kv() {
  kv=()
  local k v
  while IFS='=' read -r k v; do kv[$k]=$v; done < <("$@")
}

# ---------------------------------------------------------------------------
# Read-path runs (db_bench, db_bench_upstream, rocksdb_readpath)
# ---------------------------------------------------------------------------
readpath_common() {
  # shellcheck disable=SC2054  # the commas are part of one argument
  rp_common=(--num="$keys" --reads="$reads" --value_size=112 --seed=0
    --zipf=0.99 --direct_io=1 --fill_cache=0)
  rp_leveldb=(--max_file_size="$max_file_size" --open_files=100000 --io_stats=1)
}
readpath_common

# One fresh fillunique+readzipf run; appends a CSV row to $1.
# Args: csv experiment param system log program args...
readpath_row() {
  local csv=$1 exp=$2 param=$3 system=$4 log=$5
  shift 5
  run_logged "$log" "$@"
  ((dry_run)) && return 0
  load_kv parse_readpath "$log"
  local floor
  floor=$(awk -v f="${kv[found]}" -v n="${kv[lookups]}" 'BEGIN { printf "%.4f", (n > 0 ? f / n : 0) }')
  echo "$exp,$param,$system,${kv[gets]},${kv[io]},$floor,${kv[fp]},${kv[fbits]},${kv[fbytes]},${kv[load]}" >>"$csv"
}
readpath_header="experiment,param,system,gets_per_s,fg_ios_per_get,floor,false_positives_per_get,filter_bits_per_key,filter_bytes,load_ops_s"

# ---------------------------------------------------------------------------
# readonly (Fig. 10)
# ---------------------------------------------------------------------------
up_bits=""   # upstream's measured filter bits per key at bloom_bits=4
exp_readonly() {
  local dir=$out_dir/readonly csv=$out_dir/readonly.csv
  # shellcheck disable=SC2054  # the commas are part of one argument
  local cmd=(bash "$LEVELDB_ROOT/scripts/eval_readpath.sh" --build_dir="$build_dir"
    --keys="$keys" --reads="$reads" --max_file_size="$max_file_size"
    --eval_dir="$eval_dir" --out="$dir" --systems=a,b,c,d,e)
  ((dry_run)) && cmd+=(--dry_run)
  if ((dry_run)); then
    "${cmd[@]}"
  else
    mkdir -p "$dir"
    run_logged "$out_dir/logs/readonly-eval_readpath.log" "${cmd[@]}"
  fi
  echo "$readpath_header" >"$csv.tmp"
  local rocks_bits=6
  if ((!dry_run)); then
    # eval_readpath's CSV: system, load, gets, floor, fg syscalls, bits.
    awk -F, 'NR > 1 {
      name = ($2 == "a") ? "upstream-bloom4" : ($2 == "b") ? "fork-bloom4" : ($2 == "c") ? "elasticbf-equal" : ($2 == "d") ? "elasticbf-4bits" : "rocksdb-bloom4"
      printf "readonly,-,%s,%s,%s,%s,%s,%s,%s,%s\n", name, $4, $9, $7, $19, $16, $17, $3 }' \
      "$dir/results.csv" >>"$csv.tmp"
    up_bits=$(awk -F, 'NR > 1 && $2 == "a" { print $16; exit }' "$dir/results.csv")
    rocks_bits=$(awk -v b="$up_bits" 'BEGIN { printf "%d", b + 0.5 }')
  fi
  readpath_row "$csv.tmp" readonly - "rocksdb-bloom${rocks_bits}-equal" \
    "$out_dir/logs/readonly-rocksdb-equal.log" "$rocksdb_readpath" \
    --benchmarks=fillunique,readzipf "${rp_common[@]}" --zero_lookup_ratio=0.5 \
    --bloom_bits="$rocks_bits" --target_file_size_base="$max_file_size" \
    --db="$db_root/ro-rocks"
  drop_db "$db_root/ro-rocks"
  ((dry_run)) || mv "$csv.tmp" "$csv"
}

# ---------------------------------------------------------------------------
# YCSB family: one load per system, runs on copies (mixed, ycsb, zero)
# ---------------------------------------------------------------------------
ycsb_props=(-p recordcount="$keys" -p operationcount="$ops" -p fieldcount=1
  -p fieldlength=100 -p leveldb.direct_io=true -p leveldb.fill_cache=false
  -p leveldb.cache_size=0 -p leveldb.max_file_size="$max_file_size"
  -p leveldb.max_open_files=100000 -p status.interval=30)
ebf_budget=""
rocks_bloom=""
# Program and system properties of system $1 in `sys_cmd`.
system_command() {
  case $1 in
    upstream) sys_cmd=("$ycsb_up" -p leveldb.bloom_bits=4) ;;
    elasticbf) sys_cmd=("$ycsb_fork" -p leveldb.elastic_bf=true
      -p leveldb.bf_memory_budget_bytes="$ebf_budget") ;;
    elasticbf-noinherit) sys_cmd=("$ycsb_fork" -p leveldb.elastic_bf=true
      -p leveldb.bf_memory_budget_bytes="$ebf_budget"
      -p leveldb.bf_inherit_hotness=false) ;;
    elasticbf-4bpk) sys_cmd=("$ycsb_fork" -p leveldb.elastic_bf=true
      -p leveldb.bf_memory_bits_per_key=4) ;;
    elasticbf-4bpk-noinherit) sys_cmd=("$ycsb_fork" -p leveldb.elastic_bf=true
      -p leveldb.bf_memory_bits_per_key=4 -p leveldb.bf_inherit_hotness=false) ;;
    rocksdb) sys_cmd=("$ycsb_rocks" -p leveldb.bloom_bits="$rocks_bloom") ;;
  esac
}
# The loaded database system $1 runs on: the budget does not change what a
# load writes, so the 4-bit ElasticBF systems share the equal-memory loads.
load_of() {
  case $1 in
    elasticbf-4bpk) echo "$db_root/load-elasticbf" ;;
    elasticbf-4bpk-noinherit) echo "$db_root/load-elasticbf-noinherit" ;;
    *) echo "$db_root/load-$1" ;;
  esac
}
ycsb_loaded=0
ycsb_systems=(upstream elasticbf elasticbf-noinherit rocksdb)
ycsb_load_all() {
  ((ycsb_loaded)) && return 0
  ycsb_loaded=1
  local s
  for s in "${ycsb_systems[@]}"; do
    system_command "$s"
    run_logged "$out_dir/logs/ycsb-load-$s.log" "${sys_cmd[@]}" \
      -P "$workloads/workloadc.spec" "${ycsb_props[@]}" -load \
      -dbpath "$db_root/load-$s" -fresh
    if [[ $s == upstream ]]; then
      # Upstream's filter memory as loaded: the filter blocks of its live
      # tables, measured by db_bench_upstream on a copy.
      copy_db "$db_root/load-upstream" "$db_root/measure"
      run_logged "$out_dir/logs/ycsb-measure-upstream.log" "$db_bench_upstream" \
        --use_existing_db=1 --benchmarks=readzipf --reads=1 --num="$keys" \
        --io_stats=1 --open_files=100000 --bloom_bits=4 --db="$db_root/measure"
      drop_db "$db_root/measure"
      if ((dry_run)); then
        ebf_budget=UPSTREAM_FILTER_BYTES
        rocks_bloom=ROUND_UPSTREAM_BITS
      else
        ebf_budget=$(awk '/^filter blocks in / { b = $8 } END { gsub(/[^0-9]/, "", b); print b }' \
          "$out_dir/logs/ycsb-measure-upstream.log")
        [[ -n $ebf_budget && $ebf_budget -gt 0 ]] ||
          die "no filter memory measured for upstream (see $out_dir/logs/ycsb-measure-upstream.log)"
        ycsb_up_bits=$(awk -v b="$ebf_budget" -v n="$keys" 'BEGIN { printf "%.2f", b * 8 / n }')
        rocks_bloom=$(awk -v b="$ycsb_up_bits" 'BEGIN { printf "%d", b + 0.5 }')
      fi
    fi
  done
}
ycsb_up_bits=""
ycsb_header="experiment,param,system,ops_per_s,op,p50_us,p99_us,p999_us,avg_us,write_p99_us,ios_per_get,false_positives_per_get,filter_bits_per_key,gets_per_s,writes_per_s,client_reads_per_get,found_per_get,fp_reads_per_get,background_reads"
# One run of workload file $3 (+ extra props) for system $4 on a copy.
# Args: csv experiment param system workload-file extra-props...
ycsb_row() {
  local csv=$1 exp=$2 param=$3 system=$4 spec=$5
  shift 5
  local db=$db_root/run log=$out_dir/logs/$exp-$param-$system.log
  copy_db "$(load_of "$system")" "$db"
  system_command "$system"
  run_logged "$log" "${sys_cmd[@]}" -P "$spec" "${ycsb_props[@]}" "$@" \
    -run -dbpath "$db"
  drop_db "$db"
  ((dry_run)) && return 0
  load_kv parse_ycsb "$log"
  local bits
  case $system in
    upstream) bits=$ycsb_up_bits ;;
    rocksdb) bits=${kv[rbits]} ;;
    *) bits=$(awk -v b="${kv[ebytes]}" -v n="$keys" 'BEGIN { printf "%.2f", b * 8 / n }') ;;
  esac
  echo "$exp,$param,$system,${kv[tput]},${kv[op]},${kv[p50]},${kv[p99]},${kv[p999]},${kv[avg]},${kv[wp99]},${kv[io]:--},${kv[fp]:--},$bits,${kv[gets_s]},${kv[writes_s]},${kv[creads]:--},${kv[found]:--},${kv[fpio]:--},${kv[bgreads]:--}" >>"$csv"
}

exp_mixed() {
  ycsb_load_all
  local csv=$out_dir/mixed.csv mix s
  ((dry_run)) || echo "$ycsb_header" >"$csv"
  for mix in 50:50 90:10; do
    for s in upstream elasticbf-4bpk-noinherit elasticbf-4bpk rocksdb; do
      ycsb_row "$csv" mixed "r${mix%%:*}w${mix##*:}" "$s" \
        "$workloads/workloada.spec" \
        -p readproportion="0.${mix%%:*}" -p updateproportion="0.${mix##*:}" \
        -p writeallfields=true -p zerolookupproportion=0.5
    done
  done
}

exp_ycsb() {
  ycsb_load_all
  local csv=$out_dir/ycsb.csv w s
  ((dry_run)) || echo "$ycsb_header" >"$csv"
  for w in a b c d e f; do
    for s in upstream elasticbf rocksdb; do
      ycsb_row "$csv" ycsb "$w" "$s" "$workloads/workload$w.spec"
    done
  done
}

exp_zero() {
  ycsb_load_all
  local csv=$out_dir/zero.csv z s
  ((dry_run)) || echo "$ycsb_header" >"$csv"
  for z in 0 0.25 0.5 0.75 1; do
    for s in upstream elasticbf rocksdb; do
      ycsb_row "$csv" zero "$z" "$s" "$workloads/workloadc.spec" \
        -p zerolookupproportion="$z"
    done
  done
}

# ---------------------------------------------------------------------------
# memory (HotStorage Fig. 6), segment (Fig. 16f), bpu (Fig. 16h)
# ---------------------------------------------------------------------------
# Loads are separate processes from the reads here (fillunique, then
# readzipf on the loaded database, or on a copy of it for ElasticBF, whose
# budget is a run-time setting), so every point starts from a closed,
# reopened database.
exp_memory() {
  local csv=$out_dir/memory.csv b kind filter
  ((dry_run)) || echo "$readpath_header" >"$csv"
  for kind in ribbon bloom; do
    run_logged "$out_dir/logs/memory-load-elasticbf-$kind.log" "$db_bench" \
      --benchmarks=fillunique "${rp_common[@]}" "${rp_leveldb[@]}" \
      --elastic_bf=1 --bf_unit_kind="$kind" --db="$db_root/mem-ebf-load-$kind"
  done
  for b in ${memory_bits//,/ }; do
    run_logged "$out_dir/logs/memory-load-upstream-$b.log" "$db_bench_upstream" \
      --benchmarks=fillunique "${rp_common[@]}" "${rp_leveldb[@]}" \
      --bloom_bits="$b" --db="$db_root/mem-up"
    readpath_row "$csv" memory "$b" upstream "$out_dir/logs/memory-upstream-$b.log" \
      "$db_bench_upstream" --use_existing_db=1 --benchmarks=readzipf \
      "${rp_common[@]}" "${rp_leveldb[@]}" --zero_lookup_ratio=0.5 \
      --bloom_bits="$b" --db="$db_root/mem-up"
    drop_db "$db_root/mem-up"
    # elasticbf: the default (Ribbon) units; elasticbf_bloom: Bloom units.
    for kind in ribbon bloom; do
      local name=elasticbf
      [[ $kind == bloom ]] && name=elasticbf_bloom
      copy_db "$db_root/mem-ebf-load-$kind" "$db_root/mem-ebf"
      readpath_row "$csv" memory "$b" "$name" "$out_dir/logs/memory-$name-$b.log" \
        "$db_bench" --use_existing_db=1 --benchmarks=readzipf \
        "${rp_common[@]}" "${rp_leveldb[@]}" --zero_lookup_ratio=0.5 \
        --elastic_bf=1 --bf_unit_kind="$kind" --bf_memory_bits_per_key="$b" \
        --db="$db_root/mem-ebf"
      drop_db "$db_root/mem-ebf"
    done
    # rocksdb: full Bloom; rocksdb_ribbon: Ribbon (b Bloom-equivalent bits).
    for filter in bloom ribbon; do
      local name=rocksdb
      [[ $filter == ribbon ]] && name=rocksdb_ribbon
      run_logged "$out_dir/logs/memory-load-$name-$b.log" "$rocksdb_readpath" \
        --benchmarks=fillunique "${rp_common[@]}" --bloom_bits="$b" \
        --filter="$filter" --target_file_size_base="$max_file_size" \
        --db="$db_root/mem-rocks"
      readpath_row "$csv" memory "$b" "$name" "$out_dir/logs/memory-$name-$b.log" \
        "$rocksdb_readpath" --use_existing_db=1 --benchmarks=readzipf \
        "${rp_common[@]}" --zero_lookup_ratio=0.5 --bloom_bits="$b" \
        --filter="$filter" --target_file_size_base="$max_file_size" \
        --db="$db_root/mem-rocks"
      drop_db "$db_root/mem-rocks"
    done
  done
  drop_db "$db_root/mem-ebf-load-ribbon"
  drop_db "$db_root/mem-ebf-load-bloom"
}

# Fresh fillunique+readzipf runs of ElasticBF (budget 4 bits per key).
exp_segment() {
  local csv=$out_dir/segment.csv s
  ((dry_run)) || echo "$readpath_header" >"$csv"
  for s in ${segment_list//,/ }; do
    readpath_row "$csv" segment "$s" elasticbf "$out_dir/logs/segment-$s.log" \
      "$db_bench" --benchmarks=fillunique,readzipf "${rp_common[@]}" \
      "${rp_leveldb[@]}" --zero_lookup_ratio=0.5 --elastic_bf=1 \
      --bf_memory_bits_per_key=4 --bf_segment_bytes="$s" --db="$db_root/seg"
    drop_db "$db_root/seg"
  done
}

exp_bpu() {
  local csv=$out_dir/bpu.csv p
  ((dry_run)) || echo "$readpath_header" >"$csv"
  for p in ${bpu_list//,/ }; do
    readpath_row "$csv" bpu "${p/:/x}" elasticbf "$out_dir/logs/bpu-${p/:/x}.log" \
      "$db_bench" --benchmarks=fillunique,readzipf "${rp_common[@]}" \
      "${rp_leveldb[@]}" --zero_lookup_ratio=0.5 --elastic_bf=1 \
      --bf_memory_bits_per_key=4 --bf_bits_per_unit="${p%%:*}" \
      --bf_units="${p##*:}" --db="$db_root/bpu"
    drop_db "$db_root/bpu"
  done
}

# ---------------------------------------------------------------------------
# Machine, tables, plots
# ---------------------------------------------------------------------------
machine() {
  local source fstype
  read -r source fstype < <(findmnt -n -o SOURCE,FSTYPE -T "$eval_dir" || echo "? ?")
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- kernel: $(uname -srm)"
  echo "- CPU: $(nproc) x $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "- memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "- disk: $source ($fstype) for $eval_dir, $(lsblk -dno SIZE,ROTA "/dev/$(lsblk -no PKNAME "$source" 2>/dev/null | head -1)" 2>/dev/null | awk '{ print "size " $1 ", rotational " $2 }' || echo "size ?")"
  echo "- load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- libraries: $(dpkg-query -W -f='${Package} ${Version}' libleveldb-dev 2>/dev/null || echo 'libleveldb-dev ?'); $(dpkg-query -W -f='${Package} ${Version}' librocksdb-dev 2>/dev/null || echo 'librocksdb-dev ?'); $(dpkg-query -W -f='${Package} ${Version}' libsnappy1v5 2>/dev/null || echo 'snappy ?'); $(g++ --version | head -1)"
  echo "- fork: git $(git -C "$LEVELDB_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$LEVELDB_ROOT" diff --quiet HEAD -- db table util include 2>/dev/null || echo ' + uncommitted changes in db/ table/ util/ include/'), build $build_dir"
}

# Markdown table of a CSV.
md_table() {
  awk -F, 'NR == 1 { h = "|"; s = "|"; for (i = 1; i <= NF; i++) { h = h " " $i " |"; s = s "---|" } print h; print s; next }
    { l = "|"; for (i = 1; i <= NF; i++) l = l " " $i " |"; print l }' "$1"
}

# gnuplot's plot list: one series per system of $4 (column 3 of CSV $1),
# y = column $2, x = the param column as labels, extra style $3.
plot_series() {
  local csv=$1 ycol=$2 style=$3 systems=$4 plot="" s
  for s in $systems; do
    [[ -n $plot ]] && plot+=", "
    plot+="'< awk -F, -v s=$s \"NR > 1 && \\\$3 == s\" $csv' using $ycol:xtic(2) $style title '$s'"
  done
  echo "$plot"
}
# Plot helpers: one line per system, x = param (categorical) or numeric.
plot_lines() {
  local csv=$1 png=$2 title=$3 xlabel=$4 ycol=$5 ylabel=$6 systems=$7
  local plot
  plot=$(plot_series "$csv" "$ycol" "with linespoints lw 2" "$systems")
  gnuplot <<EOF || echo "evaluate.sh: a plot could not be drawn (see the gnuplot message above)" >&2
set terminal pngcairo size 800,500 noenhanced
set output '$png'
set datafile separator ','
set title '$title'
set xlabel '$xlabel'
set ylabel '$ylabel'
set key outside right top
set grid ytics
set yrange [0:*]
plot $plot
EOF
}
plot_bars() {
  local csv=$1 png=$2 title=$3 ycol=$4 ylabel=$5 systems=$6
  local plot
  plot=$(plot_series "$csv" "$ycol" "" "$systems")
  gnuplot <<EOF || echo "evaluate.sh: a plot could not be drawn (see the gnuplot message above)" >&2
set terminal pngcairo size 900,500 noenhanced
set output '$png'
set datafile separator ','
set title '$title'
set ylabel '$ylabel'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set yrange [0:*]
plot $plot
EOF
}
plot_readonly() {
  local csv=$1
  # One bar per system (x = system).
  gnuplot <<EOF || echo "evaluate.sh: a plot could not be drawn (see the gnuplot message above)" >&2
set terminal pngcairo size 1000,500 noenhanced
set output '$out_dir/readonly.png'
set datafile separator ','
set multiplot layout 1,2 title 'Read-only (Fig. 10): $keys keys, $reads Gets, half absent'
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics
set yrange [0:*]
set xtics rotate by -30
set ylabel 'Gets/s'
plot '$csv' every ::1 using 0:4:xtic(3) with boxes notitle
set ylabel 'I/Os per Get (fg)'
plot '$csv' every ::1 using 0:5:xtic(3) with boxes notitle, '$csv' every ::1 using 0:6 with linespoints title 'floor'
unset multiplot
EOF
}

# Scale and machine of the run; kept in run-info.md so that --report_only
# redraws the report of the run, not of the current options and machine.
run_info() {
  echo "Scale: **$keys keys** ($(awk -v k="$keys" 'BEGIN { printf "%.2f", k * 128 / 1e9 }') GB of 128-byte pairs in the read-path runs; YCSB records: 24-byte key + 1 field of 100 bytes), $reads Gets per read-only run, $ops operations per YCSB run, tables of $max_file_size bytes. Experiments: $experiments."
  echo
  echo "## Machine"
  machine
}

report() {
  local md=$out_dir/results.md info=$out_dir/run-info.md e
  if ((report_only)) && [[ ! -f $info && -f $md ]]; then
    # A run from before run-info.md: its scale and machine are in results.md.
    awk '/^Scale: / { on = 1 } on && /^## / && !/^## Machine/ { exit } on' \
      "$md" >"$info"
  fi
  ((report_only)) && [[ -s $info ]] || run_info >"$info"
  {
    echo "# ElasticBF evaluation: results of scripts/evaluate.sh"
    echo
    cat "$info"
    for e in readonly mixed ycsb zero memory segment bpu; do
      [[ -f $out_dir/$e.csv && -n ${want[$e]:-} ]] || continue
      echo
      echo "## $e"
      echo
      md_table "$out_dir/$e.csv"
      if [[ $e == readonly && -f $out_dir/readonly/report.md ]]; then
        echo
        echo "eval_readpath.sh's full report (background reads, filter memory after load and after reads): [readonly/report.md](readonly/report.md)"
      fi
      [[ -f $out_dir/$e.png ]] && echo && echo "![$e]($e.png)"
      for f in "$out_dir/$e"-*.png; do
        [[ -f $f ]] && echo && echo "![$(basename "$f" .png)]($(basename "$f"))"
      done
    done
    echo
    echo "## Commands"
    echo
    echo '```'
    cat "$commands"
    echo '```'
  } >"$md"
}

plots() {
  command -v gnuplot >/dev/null || { note "gnuplot missing: no plots"; return 0; }
  local c=$out_dir
  [[ -f $c/readonly.csv ]] && plot_readonly "$c/readonly.csv"
  if [[ -f $c/mixed.csv ]]; then
    plot_bars "$c/mixed.csv" "$c/mixed.png" "Mixed read/update (Fig. 11): read syscalls per Get" 16 "I/Os per Get" "upstream elasticbf-4bpk-noinherit elasticbf-4bpk rocksdb"
  fi
  if [[ -f $c/ycsb.csv ]]; then
    plot_bars "$c/ycsb.csv" "$c/ycsb.png" "YCSB a-f (Fig. 13), ops/s" 4 "ops/s" "upstream elasticbf rocksdb"
  fi
  if [[ -f $c/zero.csv ]]; then
    plot_lines "$c/zero.csv" "$c/zero.png" "Workload c vs share of absent-key reads (Fig. 16b)" "zero-lookup ratio" 4 "ops/s" "upstream elasticbf rocksdb"
  fi
  if [[ -f $c/memory.csv ]]; then
    plot_lines "$c/memory.csv" "$c/memory.png" "I/Os per Get vs filter bits per key (HotStorage Fig. 6)" "configured bits per key (measured: see table)" 5 "I/Os per Get (fg)" "upstream elasticbf elasticbf_bloom rocksdb rocksdb_ribbon"
    plot_lines "$c/memory.csv" "$c/memory-gets.png" "Gets/s vs filter bits per key" "configured bits per key" 4 "Gets/s" "upstream elasticbf elasticbf_bloom rocksdb rocksdb_ribbon"
  fi
  if [[ -f $c/segment.csv ]]; then
    plot_lines "$c/segment.csv" "$c/segment.png" "ElasticBF: I/Os per Get vs segment_bytes (Fig. 16f; 0 = automatic)" "segment_bytes" 5 "I/Os per Get (fg)" "elasticbf"
  fi
  if [[ -f $c/bpu.csv ]]; then
    plot_lines "$c/bpu.csv" "$c/bpu.png" "ElasticBF: I/Os per Get vs bits_per_unit x units (Fig. 16h)" "bits_per_unit x units_per_segment" 5 "I/Os per Get (fg)" "elasticbf"
  fi
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
if ((report_only)); then
  plots
  report
  note "results: $out_dir/results.md (redrawn)"
  exit 0
fi
((dry_run)) || note "evaluate.sh: $keys keys, experiments $experiments, results in $out_dir"
for e in readonly mixed ycsb zero memory segment bpu; do
  [[ -n ${want[$e]:-} ]] || continue
  ((dry_run)) && echo "# experiment $e"
  "exp_$e"
done
for s in "${ycsb_systems[@]}"; do drop_db "$db_root/load-$s"; done
((dry_run)) && exit 0
plots
report
note "results: $out_dir/results.md"
