#!/usr/bin/env bash
# The read-path evaluation protocol (docs/evaluation-readpath.md), every
# system side by side in ONE run:
#
#   for each round, for each system in turn: a fresh database on the real
#   disk, `fillunique` (every key of [0, keys) once, random order), then at
#   once `readzipf` (scrambled Zipfian 0.99, half of the lookups for absent
#   keys) with direct I/O, block cache off (fill_cache=0), all tables open.
#
# Systems (--systems, in this order inside a round):
#   a  upstream LevelDB 1.23 (db_bench_upstream), Bloom 4 bits per key
#   b  this fork (db_bench), Bloom 4 bits per key
#   c  this fork, ElasticBF with a byte budget equal to the filter memory
#      MEASURED for (a) in the same round (after its reads)
#   d  this fork, ElasticBF with Bloom units at memory_bits_per_key = 4
#   e  RocksDB 7.8 (rocksdb_readpath), full Bloom 4 bits per key, if built
#   f  this fork, ElasticBF with Ribbon units (the default) at
#      memory_bits_per_key = 4
#   g  RocksDB 7.8, Ribbon filters on every level at --ribbon_bits
#      Bloom-equivalent bits per key, if built
#   h  upstream LevelDB 1.23, Bloom 10 bits per key
#
# Usage: scripts/eval_readpath.sh [options]
#   --keys=N           keys loaded (default 24000000)
#   --reads=N          Gets in readzipf (default 300000)
#   --value_size=N     bytes per value (default 112: 128-byte pairs)
#   --max_file_size=N  table size: LevelDB max_file_size, RocksDB
#                      target_file_size_base (default 67108864)
#   --systems=LIST     e.g. a,b,c or a,d,f,g,h (default a,b,c,d,e; e and g
#                      are skipped with a note when rocksdb_readpath was
#                      not built)
#   --open_files=N     LevelDB max_open_files (default 100000: all tables
#                      open; RocksDB max_open_files, -1 for 100000)
#   --threads=N        client threads of readzipf (default 1)
#   --key_dist=D       keys the reads look up: zipf (scrambled Zipfian, the
#                      default), ordered_zipf (hot key ranges), hotspot
#                      (db_bench's --key_dist), or latest (readlatest with 5%
#                      inserts instead of readzipf; Gets of new keys the
#                      memtable answers count in its floor, which 'x floor'
#                      can then fall below); LevelDB systems only
#   --hot_range_start=X  hotspot: where the hot range begins, in [0, 1)
#                      (default 0)
#   --settle           wait for the load's compactions before the reads
#   --both             read twice: at once after the load, then again once
#                      its compactions are over (settled); each system gets
#                      a row per read ("after load", "settled")
#   --repeat=N         rounds (default 1); systems alternate inside a round,
#                      and even rounds run them in the reverse order (c
#                      still right after a)
#   --timeline_ms=N    LevelDB systems: db_bench prints a timeline line
#                      every N ms (benchmarks/bench_timeline.h); summarize
#                      the logs with scripts/timeline_summary.py
#   --seed=N           workload seed, the same for every system (default 0)
#   --budget_bytes=N   budget of (c) when (a) is not run (default: measured)
#   --ribbon_bits=X    RocksDB's Bloom-equivalent setting for (g) (default
#                      5.5: about 4 bits of memory per key; RocksDB stores a
#                      Ribbon filter in fewer bits than the Bloom filter
#                      whose false-positive rate it matches)
#   --build_dir=DIR    CMake build directory (default $LEVELDB_RELEASE_DIR
#                      or build/release)
#   --eval_dir=DIR     where the databases live, on the real disk (default
#                      $EVAL_DIR or build/eval)
#   --out=DIR          results directory (default
#                      <eval_dir>/eval-readpath-<date>)
#   --keep_dbs         keep each run's database, as it was after its reads,
#                      in <eval_dir>/eval-readpath-kept.<pid>/round<R>-<system>
#                      (for filter_bound --db); by default each is removed
#   --dry_run          print the commands, run nothing
# Output: <out>/report.md (Markdown: machine, commands, table), <out>/
# results.csv, <out>/logs/*.log; the report is also printed.
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh disable=SC1091
source "$LEVELDB_ROOT/scripts/common.sh"

keys=24000000
reads=300000
value_size=112
max_file_size=67108864
open_files=100000
threads=1
key_dist=zipf
hot_range_start=""
settle=0
both=0
timeline_ms=0
systems=a,b,c,d,e
repeat=1
seed=0
budget_override=""
ribbon_bits=5.5
build_dir=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
eval_dir=${EVAL_DIR:-$LEVELDB_ROOT/build/eval}
out_dir=""
dry_run=0
keep_dbs=0

# The header comment, up to the first line that is not one.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

for arg in "$@"; do
  case $arg in
    --keys=*) keys=${arg#*=}; positive_int --keys "$keys" ;;
    --reads=*) reads=${arg#*=}; positive_int --reads "$reads" ;;
    --value_size=*) value_size=${arg#*=}
      positive_int --value_size "$value_size" ;;
    --max_file_size=*) max_file_size=${arg#*=}
      positive_int --max_file_size "$max_file_size" ;;
    --open_files=*) open_files=${arg#*=}
      positive_int --open_files "$open_files" ;;
    --threads=*) threads=${arg#*=}; positive_int --threads "$threads" ;;
    --key_dist=*) key_dist=${arg#*=}
      [[ $key_dist =~ ^(zipf|ordered_zipf|hotspot|latest)$ ]] ||
        die "--key_dist must be zipf, ordered_zipf, hotspot or latest, got '$key_dist'" ;;
    --hot_range_start=*) hot_range_start=${arg#*=}
      [[ $hot_range_start =~ ^0(\.[0-9]+)?$ ]] ||
        die "--hot_range_start needs a number in [0, 1), got '$hot_range_start'" ;;
    --settle) settle=1 ;;
    --both) both=1 ;;
    --timeline_ms=*) timeline_ms=${arg#*=}
      positive_int --timeline_ms "$timeline_ms" ;;
    --systems=*) systems=${arg#*=} ;;
    --repeat=*) repeat=${arg#*=}; positive_int --repeat "$repeat" ;;
    --seed=*) seed=${arg#*=}
      [[ $seed =~ ^[0-9]+$ ]] || die "--seed needs a number, got '$seed'" ;;
    --budget_bytes=*) budget_override=${arg#*=}
      positive_int --budget_bytes "$budget_override" ;;
    --ribbon_bits=*) ribbon_bits=${arg#*=}
      [[ $ribbon_bits =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
        die "--ribbon_bits needs a non-negative number, got '$ribbon_bits'" ;;
    --build_dir=*) build_dir=${arg#*=} ;;
    --eval_dir=*) eval_dir=${arg#*=} ;;
    --out=*) out_dir=${arg#*=} ;;
    --keep_dbs) keep_dbs=1 ;;
    --dry_run) dry_run=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$arg'" ;;
  esac
done
((keys <= 2147483647)) || die "--keys must fit in 31 bits"
# Absolute paths: the runs happen inside the results directory.
build_dir=$(realpath -m -- "$build_dir")
eval_dir=$(realpath -m -- "$eval_dir")
[[ -z $out_dir ]] || out_dir=$(realpath -m -- "$out_dir")
((reads <= 2147483647)) || die "--reads must fit in 31 bits"
[[ -z $hot_range_start || $key_dist == hotspot ]] ||
  die "--hot_range_start applies to --key_dist=hotspot only"
((!settle || !both)) || die "--settle and --both exclude each other"

# The read phase of --key_dist: its benchmark, db_bench flags, description.
read_bench=readzipf
dist_flags=()
case $key_dist in
  zipf) lookups="scrambled Zipfian 0.99" ;;
  ordered_zipf) dist_flags=(--key_dist=ordered_zipf)
    lookups="Zipfian 0.99 over ordered keys, first key hottest" ;;
  hotspot) dist_flags=(--key_dist=hotspot --hot_range_start="${hot_range_start:-0}")
    lookups="hotspot from ${hot_range_start:-0}, db_bench's hot fractions" ;;
  latest) read_bench=readlatest; dist_flags=(--insert_ratio=0.05)
    lookups="Zipfian 0.99 over the newest keys, 5% inserts" ;;
esac

# ---------------------------------------------------------------------------
# Programs and systems
# ---------------------------------------------------------------------------
db_bench=$build_dir/benchmarks/db_bench
db_bench_upstream=$build_dir/benchmarks/db_bench_upstream
rocksdb_readpath=$build_dir/benchmarks/rocksdb_bench/rocksdb_readpath

IFS=, read -r -a wanted <<<"$systems"
((${#wanted[@]} > 0)) || die "--systems is empty"
run_systems=()
notes=()
for s in "${wanted[@]}"; do
  case $s in
    a | h) [[ -x $db_bench_upstream ]] ||
      die "$db_bench_upstream not built (configure with -DLEVELDB_UPSTREAM=ON)" ;;
    b | c | d | f) [[ -x $db_bench ]] || die "$db_bench not built" ;;
    e | g)
      [[ $key_dist == zipf ]] ||
        die "--key_dist=$key_dist: rocksdb_readpath ($s) reads scrambled Zipfian keys only"
      if [[ ! -x $rocksdb_readpath ]]; then
        notes+=("($s) RocksDB skipped: $rocksdb_readpath not built (needs librocksdb-dev)")
        continue
      fi
      ((open_files == 100000 || open_files >= 20)) ||
        die "--open_files=$open_files: RocksDB ($s) keeps at least 20 files open"
      ;;
    *) die "unknown system '$s' (a, b, c, d, e, f, g or h)" ;;
  esac
  run_systems+=("$s")
done
((${#run_systems[@]} > 0)) || die "no system to run"
if [[ ,${systems}, == *,c,* && -z $budget_override ]]; then
  a_before_c=0
  for s in "${run_systems[@]}"; do
    [[ $s == a ]] && a_before_c=1
    [[ $s == c ]] && break
  done
  ((a_before_c)) ||
    die "(c) takes its budget from (a)'s measured memory: list a before c, or pass --budget_bytes"
fi

system_name() {
  case $1 in
    a) echo "(a) upstream LevelDB 1.23, Bloom 4" ;;
    b) echo "(b) fork, Bloom 4" ;;
    c) echo "(c) fork, ElasticBF, budget = (a)'s memory" ;;
    d) echo "(d) fork, ElasticBF Bloom units, 4 bits/key" ;;
    e) echo "(e) RocksDB 7.8, full Bloom 4" ;;
    f) echo "(f) fork, ElasticBF Ribbon units, 4 bits/key" ;;
    g) echo "(g) RocksDB 7.8, Ribbon $ribbon_bits (Bloom-equivalent)" ;;
    h) echo "(h) upstream LevelDB 1.23, Bloom 10" ;;
  esac
}

# The command of system $1 on database $2 (budget $3 for c) in array `cmd`.
build_command() {
  local system=$1 db=$2 budget=${3:-}
  # shellcheck disable=SC2054  # the commas are part of one argument
  local benchmarks=fillunique,$read_bench
  ((settle)) && benchmarks=fillunique,settle,$read_bench
  ((both)) && benchmarks=fillunique,$read_bench,settle,$read_bench
  local common=(--benchmarks="$benchmarks" --num="$keys"
    --reads="$reads" --value_size="$value_size" --seed="$seed" --zipf=0.99
    --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --db="$db"
    --threads="$threads")
  local leveldb=("${common[@]}" --max_file_size="$max_file_size"
    --open_files="$open_files" --io_stats=1 ${dist_flags[@]+"${dist_flags[@]}"})
  ((timeline_ms == 0)) || leveldb+=(--timeline_ms="$timeline_ms")
  case $system in
    a) cmd=("$db_bench_upstream" "${leveldb[@]}" --bloom_bits=4) ;;
    b) cmd=("$db_bench" "${leveldb[@]}" --bloom_bits=4) ;;
    c) cmd=("$db_bench" "${leveldb[@]}" --elastic_bf=1
      --bf_memory_budget_bytes="$budget") ;;
    d) cmd=("$db_bench" "${leveldb[@]}" --elastic_bf=1
      --bf_memory_bits_per_key=4 --bf_unit_kind=bloom) ;;
    e | g)
      cmd=("$rocksdb_readpath" "${common[@]}"
        --target_file_size_base="$max_file_size"
        --max_open_files="$((open_files == 100000 ? -1 : open_files))")
      if [[ $system == g ]]; then
        cmd+=(--bloom_bits="$ribbon_bits" --filter=ribbon)
      else
        cmd+=(--bloom_bits=4)
      fi ;;
    f) cmd=("$db_bench" "${leveldb[@]}" --elastic_bf=1
      --bf_memory_bits_per_key=4 --bf_unit_kind=ribbon) ;;
    h) cmd=("$db_bench_upstream" "${leveldb[@]}" --bloom_bits=10) ;;
  esac
}

# ---------------------------------------------------------------------------
# Space and output
# ---------------------------------------------------------------------------
mkdir -p "$eval_dir" 2>/dev/null || die "cannot create --eval_dir $eval_dir"
[[ -d $eval_dir && -w $eval_dir ]] || die "$eval_dir is not a writable directory"
# One database at a time: the uncompressed pairs plus internal keys, twice
# (compaction inputs and outputs coexist), plus 1 GiB for logs and slack.
need=$((keys * (value_size + 16 + 8) * 2 + (1 << 30)))
avail=$(df -PB1 "$eval_dir" | awk 'NR == 2 { print $4 }')
if ((avail < need)); then
  die "not enough free space in $eval_dir: $((avail >> 20)) MiB free, about $((need >> 20)) MiB needed for --keys=$keys --value_size=$value_size (set EVAL_DIR or --eval_dir)"
fi

stamp=$(date +%Y%m%d-%H%M%S)
[[ -n $out_dir ]] || out_dir=$eval_dir/eval-readpath-$stamp
mkdir -p "$out_dir/logs"
db_root=$eval_dir/eval-readpath-db.$$
keep_root=$eval_dir/eval-readpath-kept.$$
csv=$out_dir/results.csv
report=$out_dir/report.md
commands=$out_dir/commands.txt
: >"$commands"
cleanup() { rm -rf "$db_root"; }
trap cleanup EXIT
cd "$out_dir"

# ---------------------------------------------------------------------------
# Parsing one log
# ---------------------------------------------------------------------------
# Prints "key=value" lines for the figures of one run's output: the load
# and the read phase number $2 (1: the first read, 2: the one after settle
# of --both).
parse_log() {
  awk -v want="$2" '
    function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s }
    /^load: / && load == "" { load = num($2) }
    /^read(zipf|latest): / {
      nread++
      in_read = nread == want
      if (!in_read) next
      lookups = num($2)
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "found,") found = num($i)
        if ($(i + 1) == "Gets/s") gets = num($i)
      }
    }
    # Figures of another read phase than the one wanted are skipped.
    nread > 0 && !in_read { next }
    /^foreground table reads per op: / {
      env_fg = num($6); env_bg = num($10); env_bg_mb = num($11)
    }
    /^foreground read syscalls per op: / {
      sys_fg = num($6); sys_fg_bytes = num($7)
      for (i = 1; i <= NF; i++) {
        if ($i == "syscalls:" && $(i - 1) == "read" && $(i - 2) == "background") {
          sys_bg = num($(i + 1)); sys_bg_mb = num($(i + 2))
        }
      }
    }
    /^filter blocks in / {
      bytes = num($8); bits = num($11)
      if (!in_read && block_load == "") block_load = bits
      if (in_read) { block_read = bits; block_read_bytes = bytes }
    }
    /^filter memory \(elastic, loaded units\): / {
      bits = num($9); bytes = num($6)
      if (!in_read && elastic_load == "") elastic_load = bits
      if (in_read) { elastic_read = bits; elastic_read_bytes = bytes }
    }
    /^memory_budget_bytes: / { budget = num($2) }
    /^false_positives_per_get: / { fp = num($2) }
    /^live keys: / { live = num($3) }
    END {
      elastic = elastic_read != ""
      print "load=" load
      print "lookups=" lookups
      print "found=" found
      print "gets=" gets
      print "env_fg=" env_fg
      print "env_bg=" env_bg
      print "env_bg_mb=" env_bg_mb
      print "sys_fg=" sys_fg
      print "sys_fg_bytes=" sys_fg_bytes
      print "sys_bg=" sys_bg
      print "sys_bg_mb=" sys_bg_mb
      print "mem_load=" (elastic ? elastic_load : block_load)
      print "mem_read=" (elastic ? elastic_read : block_read)
      print "mem_read_bytes=" (elastic ? elastic_read_bytes : block_read_bytes)
      print "budget=" budget
      print "fp=" fp
      print "live=" live
    }' "$1"
}

# ---------------------------------------------------------------------------
# Machine
# ---------------------------------------------------------------------------
machine() {
  local source fstype dev model
  read -r source fstype < <(findmnt -n -o SOURCE,FSTYPE -T "$eval_dir" || echo "? ?")
  dev=${source#/dev/}
  model=$(lsblk -dno SIZE,ROTA,MODEL "/dev/${dev%%[0-9]*}" 2>/dev/null |
    awk '{ m = (NF > 2) ? ", model " substr($0, index($0, $3)) : ""; printf "size %s, rotational %s%s", $1, $2, m }' || true)
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- host: $(uname -srm); $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo))"
  echo "- memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "- disk: $source ($fstype) ${model:+[$model] }for $eval_dir; free before: $((avail >> 30)) GiB"
  echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- libraries: upstream $(dpkg-query -W -f='${Package} ${Version}' libleveldb-dev 2>/dev/null || echo '?'); $(dpkg-query -W -f='${Package} ${Version}' librocksdb-dev 2>/dev/null || echo 'librocksdb-dev not installed')"
  echo "- build: $build_dir"
}

# ---------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------
echo "round,system,load_ops_s,gets_s,lookups,found,floor,fg_io_per_get_env,fg_syscalls_per_get,fg_storage_bytes_per_get,bg_reads_env,bg_mb_env,bg_syscalls,bg_storage_mb,filter_bits_per_live_key_after_load,filter_bits_per_live_key_after_reads,filter_bytes_after_reads,elastic_budget_bytes,false_positives_per_get,live_keys,read" >"$csv"

# The systems of round $1 in order: as given in odd rounds, reversed in
# even ones (so that no system always runs first or last), with c moved
# right after a, whose measured filter memory sizes it.
round_order() {
  order=("${run_systems[@]}")
  (($1 % 2 == 0)) || return 0
  local reversed=() s
  for s in "${run_systems[@]}"; do reversed=("$s" ${reversed[@]+"${reversed[@]}"}); done
  order=()
  for s in "${reversed[@]}"; do
    if [[ $s == c && -z $budget_override ]]; then continue; fi
    order+=("$s")
    if [[ $s == a && ,$systems, == *,c,* && -z $budget_override ]]; then
      order+=(c)
    fi
  done
}

# Appends the CSV row of the read phase numbered $3 in log $4 (1: the
# first read) of system $1 in round $round, naming it $2 ("after_load" or
# "settled"); sets budget_a after (a)'s first read.
record_read() {
  local s=$1 phase=$2 index=$3 log=$4
  row=()
  while IFS='=' read -r k v; do row[$k]=$v; done < <(parse_log "$log" "$index")
  [[ -n ${row[gets]} && -n ${row[sys_fg]} ]] ||
    die "cannot parse $log (no $read_bench or syscall line for read $index)"
  if [[ $s == a && $index == 1 && -z $budget_override ]]; then
    budget_a=${row[mem_read_bytes]}
  fi
  local floor
  floor=$(awk -v f="${row[found]}" -v n="${row[lookups]}" 'BEGIN { printf "%.4f", (n > 0 ? f / n : 0) }')
  echo "$round,$s,${row[load]},${row[gets]},${row[lookups]},${row[found]},$floor,${row[env_fg]},${row[sys_fg]},${row[sys_fg_bytes]},${row[env_bg]},${row[env_bg_mb]},${row[sys_bg]},${row[sys_bg_mb]},${row[mem_load]},${row[mem_read]},${row[mem_read_bytes]},${row[budget]},${row[fp]},${row[live]},$phase" >>"$csv"
}

declare -A row
first_read=after_load
((settle)) && first_read=settled
for ((round = 1; round <= repeat; round++)); do
  budget_a=$budget_override
  round_order "$round"
  for s in "${order[@]}"; do
    db=$db_root/$s
    budget=""
    if [[ $s == c ]]; then
      budget=$budget_a
      [[ -n $budget ]] || die "(a) reported no filter memory in round $round; cannot size (c)"
    fi
    build_command "$s" "$db" "$budget"
    printf '%s\n' "# round $round, $(system_name "$s")" "${cmd[*]}" >>"$commands"
    if ((dry_run)); then
      echo "${cmd[*]}"
      [[ $s == a && -z $budget_a ]] && budget_a=A_MEASURED_FILTER_BYTES
      continue
    fi
    log=$out_dir/logs/round$round-$s.log
    echo "=== round $round/$repeat: $(system_name "$s") -> $log" >&2
    rm -rf "$db"
    mkdir -p "$db_root"
    if ! "${cmd[@]}" >"$log" 2>"$log.stderr"; then
      die "$(system_name "$s") failed; see $log and $log.stderr"
    fi
    if ((keep_dbs)); then
      mkdir -p "$keep_root"
      mv "$db" "$keep_root/round$round-$s"
      echo "kept: $keep_root/round$round-$s" >&2
    fi
    rm -rf "$db"
    sync
    record_read "$s" "$first_read" 1 "$log"
    if ((both)); then record_read "$s" settled 2 "$log"; fi
  done
done
((dry_run)) && exit 0

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
# Markdown table from the CSV: one row per run and read, plus per-system
# medians when there are several rounds; ratios against (a)'s same read of
# the same round (or the median of (a) for median rows).
table() {
  awk -F, -v rounds="$repeat" -v ribbon_bits="$ribbon_bits" -v both="$both" '
    # A row id is system "|" read; the read is named only with --both.
    function row_name(id,   p) {
      split(id, p, "|")
      return name(p[1]) (both ? (p[2] == "settled" ? ", settled" : ", after load") : "")
    }
    function upstream(id,   p) { split(id, p, "|"); return "a|" p[2] }
    function name(s) {
      if (s == "a") return "(a) upstream, Bloom 4"
      if (s == "b") return "(b) fork, Bloom 4"
      if (s == "c") return "(c) fork, ElasticBF, budget = (a)"
      if (s == "d") return "(d) fork, ElasticBF Bloom units, 4 bits/key"
      if (s == "e") return "(e) RocksDB 7.8, Bloom 4"
      if (s == "f") return "(f) fork, ElasticBF Ribbon units, 4 bits/key"
      if (s == "g") return "(g) RocksDB 7.8, Ribbon " ribbon_bits " (Bloom-equivalent)"
      if (s == "h") return "(h) upstream, Bloom 10"
      return s
    }
    function ratio(x, y) { return (x == "" || y == "" || y + 0 == 0) ? "-" : sprintf("%.2fx", x / y) }
    function fmt(x, f) { return x == "" ? "-" : sprintf(f, x) }
    function median(list,   n, v, i, j, t) {
      n = split(list, v, " ")
      if (n == 0) return ""
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function line(label, x_load, x_gets, x_floor, x_envfg, x_sysfg, x_bgsys, x_bgmb, x_envbg, x_mload, x_mread, a_load, a_gets, a_fg,   io, bg) {
      io = x_sysfg != "" ? x_sysfg : x_envfg
      bg = x_bgsys == "" ? "-" : sprintf("%d syscalls, %.1f MB", x_bgsys, x_bgmb)
      if (x_envbg != "") bg = bg sprintf(" (Env: %d)", x_envbg)
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", \
        label, fmt(x_envfg, "%.4f"), fmt(x_sysfg, "%.4f"), ratio(io, x_floor), \
        ratio(io, a_fg), bg, fmt(x_gets, "%.0f"), ratio(x_gets, a_gets), \
        fmt(x_load, "%.0f"), ratio(x_load, a_load), \
        fmt(x_mload, "%.2f") " / " fmt(x_mread, "%.2f"), fmt(x_floor, "%.3f")
    }
    NR == 1 { next }
    {
      r = $1; s = $2 "|" $21
      key = r SUBSEP s
      load[key] = $3; gets[key] = $4; floor[key] = $7; envfg[key] = $8; sysfg[key] = $9
      envbg[key] = $11; bgsys[key] = $13; bgmb[key] = $14; mload[key] = $15; mread[key] = $16
      if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
      for (f = 3; f <= 16; f++) all[s, f] = all[s, f] " " $f
      runs[++nr] = key
    }
    END {
      print "| system | I/Os per Get, fg (Env reads) | read syscalls per Get, fg (/proc) | x floor | x (a) | background reads during reads | Gets/s | x (a) | load ops/s | x (a) | filter bits per live key (after load / after reads) | floor |"
      print "|---|---|---|---|---|---|---|---|---|---|---|---|"
      for (i = 1; i <= nr; i++) {
        split(runs[i], p, SUBSEP); r = p[1]; s = p[2]; k = runs[i]; a = r SUBSEP upstream(s)
        afg = (a in sysfg) ? sysfg[a] : ""
        line(row_name(s) (rounds > 1 ? " #" r : ""), load[k], gets[k], floor[k], envfg[k], sysfg[k], bgsys[k], bgmb[k], envbg[k], mload[k], mread[k], load[a], gets[a], afg)
      }
      if (rounds > 1) {
        for (i = 1; i <= ns; i++) {
          s = order[i]
          for (f = 3; f <= 16; f++) med[s, f] = median(all[s, f])
        }
        for (i = 1; i <= ns; i++) {
          s = order[i]; a = upstream(s)
          line("**" row_name(s) ", median**", med[s, 3], med[s, 4], med[s, 7], med[s, 8], med[s, 9], med[s, 13], med[s, 14], med[s, 11], med[s, 15], med[s, 16], med[a, 3], med[a, 4], med[a, 9])
        }
      }
    }' "$csv"
}

{
  echo "# Read-path evaluation: fillunique then $read_bench"
  echo
  echo "Scale: **$keys keys**, $reads Gets, ${value_size}-byte values + 16-byte keys, tables of $max_file_size bytes, seed $seed, $repeat round(s), systems ${run_systems[*]}."
  opened="all tables open"
  ((open_files < 100000)) && opened="max_open_files=$open_files"
  then_read="at once"
  ((settle)) && then_read="once the load's compactions are over (settle)"
  ((both)) && then_read="at once (after load) and again once the load's compactions are over (settled)"
  echo "Protocol: fresh DB per system, fillunique (each key once, random order) then $then_read $read_bench ($lookups, zero_lookup_ratio 0.5, $threads client thread(s), each doing the given Gets), direct I/O, fill_cache=0, $opened."
  echo
  echo "## Machine"
  machine
  for n in ${notes[@]+"${notes[@]}"}; do echo "- note: $n"; done
  echo
  echo "## Results"
  echo
  table
  echo
  echo "Columns: fg = on the Get thread, per Get of the read phase. 'Env reads' counts table-file Read() calls in db_bench's counting Env (LevelDB builds only); '/proc' counts read syscalls of the benchmark thread (/proc/thread-self/io), for every system alike. 'x floor' = fg I/Os per Get / floor, floor = share of lookups that found their key (one data-block read each). Background reads = read syscalls of all other threads of the process during the read phase (compactions, ElasticBF's MQSchedule) and the bytes they fetched from storage. Filter memory per live key: LevelDB Bloom = filter blocks of the live tables; ElasticBF = loaded units (memory_used_bytes); RocksDB = filter_size of the live tables' properties (Ribbon's setting is Bloom-equivalent: the false-positive rate of a Bloom filter of that many bits, in fewer bits, on every level). (c)'s byte budget = (a)'s filter bytes after its reads in the same round."
  echo
  echo "## Commands"
  echo
  echo '```'
  cat "$commands"
  echo '```'
} >"$report"
cat "$report"
echo >&2
echo "results: $report, $csv, logs in $out_dir/logs" >&2
