#!/usr/bin/env bash
# ctest checks of rocksdb_readpath (registered in CMakeLists.txt here).
#
#   rocksdb_readpath_test.sh threads READPATH DB_BENCH WORKDIR
#     a tiny load, settle and readzipf on 3 client threads: every lookup
#     done and answered right, the same lookups as db_bench with the same
#     flags, then the database reused with --use_existing_db=1;
#   rocksdb_readpath_test.sh ribbon READPATH WORKDIR
#     the same small load and lookups with --filter=bloom and
#     --filter=ribbon: each prints its filter kind and answers every lookup
#     right, and Ribbon's filters take fewer bits per live key;
#   rocksdb_readpath_test.sh bad_flags READPATH WORKDIR
#     bad flags exit non-zero with a message and touch no database;
#     --threads=1024 (the limit) works.
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Prints "lookups found not_found absent absent_found" of a log's readzipf
# line.
zipf_counts() {
  sed -nE 's/^readzipf: ([0-9]+) lookups \(theta [0-9.]+\), ([0-9]+) found, ([0-9]+) not found; ([0-9]+) for absent keys \(([0-9]+) of them found\); [0-9]+ Gets\/s$/\1 \2 \3 \4 \5/p' "$1"
}

# The readzipf line without its rate: the same for every system when the
# lookups are the same.
zipf_line() {
  sed -nE 's/^(readzipf: [0-9]+ lookups .* of them found\)); [0-9]+ Gets\/s$/\1/p' "$1"
}

# Checks that log $1 did $2 lookups and answered each one right: every
# written key found, no absent key found.
check_lookups() {
  local log=$1 expected=$2 lookups found not_found absent absent_found
  read -r lookups found not_found absent absent_found < <(zipf_counts "$log") ||
    fail "no readzipf line in $log"
  ((lookups == expected)) || fail "$lookups lookups in $log, expected $expected"
  ((found + not_found == lookups)) ||
    fail "$found found + $not_found not found != $lookups lookups in $log"
  ((absent > 0 && absent < lookups)) || fail "$absent absent lookups in $log"
  ((absent_found == 0)) || fail "$absent_found absent keys found in $log"
  ((found == lookups - absent)) ||
    fail "$found found, but $((lookups - absent)) lookups were for written keys in $log"
}

require_line() {
  grep -Eq -e "$2" "$1" || fail "no line matching '$2' in $1"
}

# Read syscalls are counted wherever the kernel offers per-thread I/O.
check_syscall_line() {
  if [[ -r /proc/thread-self/io ]]; then
    require_line "$1" '^foreground read syscalls per op: [0-9.]+ \([0-9]+ bytes from storage per op\), background read syscalls: [0-9]+ '
  else
    require_line "$1" '^foreground read syscalls per op: n/a'
  fi
}

threads_test() {
  local readpath=$1 db_bench=$2 work=$3
  rm -rf "$work"
  mkdir -p "$work"
  # Small memtables and tables so that the load leaves compactions to wait
  # for; lookups half for absent keys.
  local workload=(--num=30000 --reads=2000 --threads=3 --seed=7
    --zero_lookup_ratio=0.5 --bloom_bits=4)
  "$readpath" "${workload[@]}" --benchmarks=fillunique,settle,readzipf \
    --write_buffer_size=65536 --target_file_size_base=65536 \
    --max_bytes_for_level_base=262144 --db="$work/rocksdb" >"$work/run.log" ||
    fail "rocksdb_readpath failed (see $work/run.log)"
  local log=$work/run.log
  require_line "$log" '^Threads: +3$'
  require_line "$log" '^load: [0-9]+ ops/s$'
  require_line "$log" '^settle +: +[0-9.]+ micros/op; \(no flush or compaction running or pending\)$'
  require_line "$log" '^readzipf +: +[0-9.]+ micros/op;$'
  require_line "$log" '^filter blocks in [1-9][0-9]* live table files: [0-9]+ bytes = [0-9.]+ bits per live key'
  check_syscall_line "$log"
  check_lookups "$log" 6000

  # db_bench's threads draw the same keys.
  "$db_bench" "${workload[@]}" --benchmarks=fillunique,readzipf \
    --db="$work/leveldb" >"$work/db_bench.log" 2>/dev/null ||
    fail "db_bench failed (see $work/db_bench.log)"
  local ours theirs
  ours=$(zipf_line "$log")
  theirs=$(zipf_line "$work/db_bench.log")
  [[ -n $ours && $ours == "$theirs" ]] ||
    fail "lookups differ from db_bench's: '$ours' vs '$theirs'"

  # The loaded database again, on one thread: no load, every key there.
  "$readpath" "${workload[@]}" --threads=1 --use_existing_db=1 \
    --benchmarks=fillunique,readzipf --max_open_files=20 \
    --db="$work/rocksdb" >"$work/reuse.log" ||
    fail "rocksdb_readpath --use_existing_db=1 failed (see $work/reuse.log)"
  require_line "$work/reuse.log" '^fillunique +: skipped \(--use_existing_db is true\)$'
  ! grep -q '^load:' "$work/reuse.log" || fail "reuse run loaded the database"
  require_line "$work/reuse.log" 'max_open_files 20,'
  check_lookups "$work/reuse.log" 2000
  rm -rf "$work"
  echo "PASS"
}

# Prints the bits per live key of the last filter line of log $1.
filter_bits() {
  sed -nE 's/^filter blocks in [1-9][0-9]* live table files: [0-9]+ bytes = ([0-9.]+) bits per live key.*/\1/p' "$1" |
    tail -n 1
}

ribbon_test() {
  local readpath=$1 work=$2
  rm -rf "$work"
  mkdir -p "$work"
  # Tables of a few thousand keys: big enough that RocksDB builds Ribbon
  # filters rather than falling back to Bloom for tiny ones.
  # shellcheck disable=SC2054  # the commas are part of one argument
  local workload=(--num=20000 --reads=2000 --seed=11 --zero_lookup_ratio=0.5
    --bloom_bits=4 --write_buffer_size=1048576 --target_file_size_base=1048576
    --benchmarks=fillunique,settle,readzipf)
  local kind
  for kind in bloom ribbon; do
    "$readpath" "${workload[@]}" --filter="$kind" --db="$work/$kind" \
      >"$work/$kind.log" || fail "--filter=$kind failed (see $work/$kind.log)"
    check_lookups "$work/$kind.log" 2000
  done
  require_line "$work/bloom.log" '^Filter: +full Bloom, 4 bits/key, held by table readers$'
  require_line "$work/ribbon.log" '^Filter: +Ribbon on every level, 4 Bloom-equivalent bits/key, held by table readers$'
  [[ $(zipf_line "$work/bloom.log") == "$(zipf_line "$work/ribbon.log")" ]] ||
    fail "bloom and ribbon runs did different lookups"
  local bloom_bits ribbon_bits
  bloom_bits=$(filter_bits "$work/bloom.log")
  ribbon_bits=$(filter_bits "$work/ribbon.log")
  [[ -n $bloom_bits && -n $ribbon_bits ]] || fail "no filter memory line"
  awk -v r="$ribbon_bits" -v b="$bloom_bits" 'BEGIN { exit !(r > 0 && r < b) }' ||
    fail "Ribbon filters take $ribbon_bits bits per live key, Bloom $bloom_bits"
  rm -rf "$work"
  echo "PASS (bits per live key: bloom $bloom_bits, ribbon $ribbon_bits)"
}

# Runs rocksdb_readpath with the remaining arguments, which must fail with
# a message matching $2.
expect_rejected() {
  local readpath=$1 message=$2 stderr
  shift 2
  if stderr=$("$readpath" "$@" 2>&1 >/dev/null); then
    fail "accepted: $*"
  fi
  grep -Eq -e "$message" <<<"$stderr" ||
    fail "'$*' said '$stderr', expected '$message'"
}

# A listing with checksums of every file of directory $1.
fingerprint() {
  (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum)
}

bad_flags_test() {
  local readpath=$1 work=$2
  rm -rf "$work"
  mkdir -p "$work"
  local db=$work/db absent=$work/absent
  # The largest thread count builds a database (most threads write no key).
  "$readpath" --num=1000 --reads=1 --threads=1024 --seed=3 \
    --zero_lookup_ratio=0.5 --db="$db" >"$work/limit.log" ||
    fail "--threads=1024 failed (see $work/limit.log)"
  check_lookups "$work/limit.log" 1024
  local before
  before=$(fingerprint "$db")
  local range='--threads must be in \[1, 1024\]'
  local files='--max_open_files must be -1 \(all tables open\) or at least 20'
  local target
  for target in "$db" "$absent"; do
    expect_rejected "$readpath" "$range" --db="$target" --threads=0
    expect_rejected "$readpath" "$range" --db="$target" --threads=1025
    expect_rejected "$readpath" "$range" --db="$target" --threads=-2
    expect_rejected "$readpath" "invalid value 'two' for --threads" \
      --db="$target" --threads=two
    expect_rejected "$readpath" "$files" --db="$target" --max_open_files=0
    expect_rejected "$readpath" "$files" --db="$target" --max_open_files=19
    expect_rejected "$readpath" "$files" --db="$target" --max_open_files=-2
    expect_rejected "$readpath" "unknown benchmark 'setle'" --db="$target" \
      --benchmarks=fillunique,setle,readzipf
    expect_rejected "$readpath" "--filter must be bloom or ribbon, got 'cuckoo'" \
      --db="$target" --filter=cuckoo
    expect_rejected "$readpath" "--filter must be bloom or ribbon, got ''" \
      --db="$target" --filter=
    expect_rejected "$readpath" "--filter needs a value" --db="$target" \
      --filter
  done
  expect_rejected "$readpath" "--use_existing_db: no database in $absent" \
    --db="$absent" --use_existing_db=1 --benchmarks=readzipf
  [[ ! -e $absent ]] || fail "a rejected run created $absent"
  [[ $(fingerprint "$db") == "$before" ]] ||
    fail "a rejected run changed the database in $db"
  rm -rf "$work"
  echo "PASS"
}

case ${1:-} in
  threads) (($# == 4)) || fail "usage: $0 threads READPATH DB_BENCH WORKDIR"
    threads_test "$2" "$3" "$4" ;;
  ribbon) (($# == 3)) || fail "usage: $0 ribbon READPATH WORKDIR"
    ribbon_test "$2" "$3" ;;
  bad_flags) (($# == 3)) || fail "usage: $0 bad_flags READPATH WORKDIR"
    bad_flags_test "$2" "$3" ;;
  *) fail "usage: $0 threads|ribbon|bad_flags ..." ;;
esac
