#!/usr/bin/env bash
# One benchmark run of an eval/ experiment: prepares its database, runs one
# program on it with its output in one log, and prints the log's summary
# lines. The loops of an experiment (rounds, systems, settings) call this
# once per run; each eval/<experiment>/ folder records its loop.
#
# Usage: scripts/eval_run.sh [options] PROGRAM [PROGRAM ARGS...]
#   PROGRAM            a benchmark name looked up in <build_dir>/benchmarks,
#                      benchmarks/ycsb and benchmarks/rocksdb_bench
#                      (db_bench, db_bench_upstream, ycsb, ycsb_upstream,
#                      ycsb_rocksdb, rocksdb_readpath, filter_bound, ...),
#                      or a path to a program
#   --log=FILE         the program's output (stdout and stderr); required
#   --build_dir=DIR    CMake build directory (default $LEVELDB_RELEASE_DIR
#                      or build/release); for a program of another commit,
#                      that commit's build
#   --eval_dir=DIR     where the databases live, on the real disk (default
#                      $EVAL_DIR or build/eval)
#   --scratch=NAME     the experiment's folder under <eval_dir> (default
#                      eval-run); --db and --from name databases in it
#   --db=NAME          the database the program runs on (default run)
#   --from=NAME        first replace the database by a copy of NAME: a load
#                      in the scratch folder, or with a '/' a path under
#                      <eval_dir> (a load another experiment made)
#   --fresh            first remove the database (a new load)
#   --sync             sync after preparing the database, so the copy's
#                      writeback does not overlap the run
#   --remove_after     remove the database after the run
#   --no_db            pass no database to PROGRAM
#   --preset=P         flags put before PROGRAM ARGS (later flags win):
#                        readpath  db_bench's read-path protocol: 128-byte
#                                  pairs, scrambled Zipfian 0.99, half of
#                                  the lookups absent, direct I/O, no block
#                                  cache, 64 MiB tables, all open, io_stats
#                        ycsb      YCSB records of one 100-byte field,
#                                  direct I/O, no block cache, 64 MiB
#                                  tables, all open (give recordcount)
#   --workload=W       locality workload (docs/workloads.md): ozipf,
#                      hotspot, latest or zipf; db_bench gets the reads of
#                      W, filter_bound the matching key distribution
#   --callgrind=FILE   run under valgrind's callgrind, output in FILE (a
#                      relative FILE is in the scratch folder)
#   --toggle=PATTERN   callgrind: collect only inside PATTERN (default
#                      'leveldb::DBImpl::Get(*'; empty: the whole program)
#   --time=LABEL       run under /usr/bin/time; its line starts with LABEL
#   --strip_progress   drop db_bench's progress lines from the log
#   --show=REGEX       log lines to print after the run (default: the
#                      lines with the figures of db_bench, ycsb, callgrind
#                      and filter_bound)
#   --dry_run          print what would run, run nothing
# The database is passed as --db=DIR (LevelDB and RocksDB benchmarks),
# or -dbpath DIR (YCSB runners).
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh disable=SC1091
source "$LEVELDB_ROOT/scripts/common.sh"

build_dir=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
eval_dir=${EVAL_DIR:-$LEVELDB_ROOT/build/eval}
scratch=eval-run
db_name=run
from=""
fresh=0
do_sync=0
remove_after=0
no_db=0
preset=""
workload=""
callgrind=""
toggle='leveldb::DBImpl::Get(*'
time_label=""
strip_progress=0
show='^(readzipf|readlatest|readrandom|readmissing|fillunique|fillrandom|load):|foreground table reads per op|bits per --num key|operations in|client read syscalls|wasted_reads_per_get|data_block_ios_per_get|false_positives_per_get|^(false_positives|unfiltered_misses):|^lifetime:|\[OVERALL\]|Collected :|^cpu |bound'
log=""
dry_run=0

while (($# > 0)); do
  case $1 in
    --log=*) log=${1#*=} ;;
    --build_dir=*) build_dir=${1#*=} ;;
    --eval_dir=*) eval_dir=${1#*=} ;;
    --scratch=*) scratch=${1#*=} ;;
    --db=*) db_name=${1#*=} ;;
    --from=*) from=${1#*=} ;;
    --fresh) fresh=1 ;;
    --sync) do_sync=1 ;;
    --remove_after) remove_after=1 ;;
    --no_db) no_db=1 ;;
    --preset=*) preset=${1#*=}
      [[ $preset =~ ^(readpath|ycsb)$ ]] ||
        die "--preset must be readpath or ycsb, got '$preset'" ;;
    --workload=*) workload=${1#*=}
      [[ $workload =~ ^(ozipf|hotspot|latest|zipf)$ ]] ||
        die "--workload must be ozipf, hotspot, latest or zipf, got '$workload'" ;;
    --callgrind=*) callgrind=${1#*=} ;;
    --toggle=*) toggle=${1#*=} ;;
    --time=*) time_label=${1#*=} ;;
    --strip_progress) strip_progress=1 ;;
    --show=*) show=${1#*=} ;;
    --dry_run) dry_run=1 ;;
    -h|--help) header_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    --*) die "unknown option '$1' (--help lists them)" ;;
    *) break ;;
  esac
  shift
done
(($# > 0)) || die "no PROGRAM given (--help for usage)"
[[ -n $log ]] || die "--log=FILE is required"
((fresh == 0 || ${#from} == 0)) || die "--fresh and --from exclude each other"

program=$1
shift
if [[ $program != */* ]]; then
  found=""
  for sub in "" ycsb/ rocksdb_bench/; do
    if [[ -x $build_dir/benchmarks/$sub$program ]]; then
      found=$build_dir/benchmarks/$sub$program
      break
    fi
  done
  # A dry run only shows the command, so a missing build is no error there.
  [[ -n $found || $dry_run == 1 ]] ||
    die "no program '$program' under $build_dir/benchmarks"
  program=${found:-$build_dir/benchmarks/$program}
fi
name=$(basename "$program")

work=$eval_dir/$scratch
db=$work/$db_name
[[ -z $callgrind || $callgrind == /* ]] || callgrind=$work/$callgrind
if [[ $from == /* ]]; then
  load=$from
elif [[ $from == */* ]]; then
  load=$eval_dir/$from
else
  load=$work/$from
fi

args=()
case $preset in
  readpath)
    args=(--value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5
      --direct_io=1 --fill_cache=0 --max_file_size=67108864
      --open_files=100000 --io_stats=1) ;;
  ycsb)
    args=(-p fieldcount=1 -p fieldlength=100 -p leveldb.direct_io=true
      -p leveldb.fill_cache=false -p leveldb.cache_size=0
      -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
      -p status.interval=60) ;;
esac
# The locality workloads: db_bench's reads and filter_bound's matching keys.
if [[ -n $workload ]]; then
  if [[ $name == filter_bound ]]; then
    case $workload in
      ozipf) args+=(--key_dist=ordered_zipf) ;;
      hotspot) args+=(--key_dist=hotspot --hot_range_start=0.4) ;;
      latest) args+=(--key_dist=latest) ;;
      zipf) ;;
    esac
  else
    case $workload in
      ozipf) args+=(--benchmarks=readzipf --key_dist=ordered_zipf) ;;
      hotspot) args+=(--benchmarks=readzipf --key_dist=hotspot
        --hot_range_start=0.4) ;;
      latest) args+=(--benchmarks=readlatest --insert_ratio=0.05) ;;
      zipf) args+=(--benchmarks=readzipf) ;;
    esac
  fi
fi
args+=("$@")

cmd=()
if [[ -n $time_label ]]; then
  cmd+=(/usr/bin/time -f "$time_label user %U sys %S wall %e")
fi
if [[ -n $callgrind ]]; then
  cmd+=(valgrind --tool=callgrind ${toggle:+"--toggle-collect=$toggle"}
    "--callgrind-out-file=$callgrind")
fi
cmd+=("$program" "${args[@]}")
if ((no_db)); then
  :
else
  case $name in
    ycsb*) cmd+=(-dbpath "$db") ;;
    *) cmd+=("--db=$db") ;;
  esac
fi

if ((dry_run)); then
  ((fresh)) && echo "rm -rf $db"
  [[ -n $from ]] && echo "rm -rf $db; cp -a $load $db"
  ((do_sync)) && echo "sync"
  printf "%q " "${cmd[@]}"; echo ">$log 2>&1"
  ((remove_after)) && echo "rm -rf $db"
  exit 0
fi

mkdir -p "$work" "$(dirname "$log")"
if ((fresh)); then
  rm -rf "$db"
elif [[ -n $from ]]; then
  [[ -d $load ]] || die "no load $load"
  rm -rf "$db"
  cp -a "$load" "$db"
fi
((do_sync)) && sync

status=0
if ((strip_progress)); then
  "${cmd[@]}" 2>&1 | tr '\r' '\n' | grep -v finished >"$log" || status=$?
else
  "${cmd[@]}" >"$log" 2>&1 || status=$?
fi
((remove_after)) && rm -rf "$db"
echo "=== $(basename "$log" .log) $(date -u +%T)"
grep -aE "$show" "$log" || true
exit "$status"
