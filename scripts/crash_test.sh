#!/usr/bin/env bash
# Crash and stress tests (docs/stress.md).
#
#   bash scripts/crash_test.sh [ITERATIONS] [BINARY]
#       SIGKILL soak of tests/crash_test, as before: ITERATIONS (default 500
#       or $CRASH_TEST_ITERATIONS) kill/recover cycles; TEST_RANDOM_SEED
#       picks the kill timings.
#   bash scripts/crash_test.sh --short [OPTIONS]
#       db_stress cycles for CI: about two minutes (ctest crash_test_short).
#   bash scripts/crash_test.sh --soak --duration=SECONDS [--cycles=N] [OPTIONS]
#       db_stress cycles until either limit; a fresh database every 40 and
#       after a violation (a soak goes on, and fails at the end).
#   bash scripts/crash_test.sh --plant=NAME [--cycles=N] [OPTIONS]
#       runs cycles on a planted bug until it is caught (exit 0) or not
#       within N cycles (default 400; exit 1). NAME is drop_filter or
#       split_batch (in db_stress) or a patch tests/stress/plants/NAME.patch,
#       applied to a scratch copy of the tree that is then built.
#
# OPTIONS: --seed=S repeats a run (the same cycles, options and kill times;
# thread interleaving differs); --binary=PATH (db_stress; default the one in
# $LEVELDB_RELEASE_DIR or build/release); --workdir=DIR (default
# $STRESS_TMPDIR or build/stress); --kinds=kill,power,errors,all (the
# cycle kinds drawn from); --skip-known=LIST|none (default log_switch:
# the check across keys after a power loss off, a known trade-off;
# reuse_logs keeps reuse_logs off; see docs/stress.md#known-bugs);
# --dbs=K runs every process on K databases (DIR/db0 ..; each checked
# after every restart) and --shared_budget_mb=N gives them one ElasticBF
# budget of N MiB (fractions too; docs/stress.md#several-databases). A
# violation prints the seed and options, and the exit status is 1.
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' \
    "${BASH_SOURCE[0]}"
}

# The original mode: tests/crash_test's own kill loop.
legacy_crash_test() {
  local iterations=${1:-${CRASH_TEST_ITERATIONS:-500}} binary=${2:-} dir
  if ! [[ $iterations =~ ^[1-9][0-9]*$ ]]; then
    echo "error: ITERATIONS must be a positive integer, got '$iterations'" >&2
    exit 2
  fi
  if [[ -z $binary ]]; then
    for dir in "${LEVELDB_RELEASE_DIR:-}" "$LEVELDB_ROOT/build/release" \
      "$LEVELDB_ROOT/build"; do
      if [[ -n $dir && -x $dir/tests/crash_test ]]; then
        binary=$dir/tests/crash_test
        break
      fi
    done
  fi
  if [[ -z $binary || ! -x $binary ]]; then
    echo "error: crash_test binary not found; build it with" \
      "'ninja -C build/release crash_test' or pass its path" >&2
    exit 2
  fi
  local seed=${TEST_RANDOM_SEED:-$(((RANDOM << 15) | RANDOM))}
  echo "crash_test: $binary, $iterations iterations, TEST_RANDOM_SEED=$seed"
  local start status=0
  start=$(date +%s)
  CRASH_TEST_ITERATIONS=$iterations TEST_RANDOM_SEED=$seed "$binary" ||
    status=$?
  echo "crash_test: $(($(date +%s) - start)) s, exit status $status"
  if ((status == 0)); then
    echo "1 passed, 0 failed"
  else
    echo "0 passed, 1 failed"
  fi
  exit "$status"
}

if [[ $# -eq 0 || ${1:-} != --* ]]; then
  legacy_crash_test "$@"
fi

die() {
  echo "crash_test.sh: $*" >&2
  exit 2
}

mode='' duration='' max_cycles='' seed='' binary='' workdir='' plant='' kinds=''
skip_known=log_switch dbs=1 shared_budget_mb=''
for arg in "$@"; do
  case $arg in
    --short) mode=short ;;
    --soak) mode=soak ;;
    --plant=*) mode=plant plant=${arg#--plant=} ;;
    --duration=*) duration=${arg#--duration=} ;;
    --cycles=*) max_cycles=${arg#--cycles=} ;;
    --seed=*) seed=${arg#--seed=} ;;
    --binary=*) binary=${arg#--binary=} ;;
    --workdir=*) workdir=${arg#--workdir=} ;;
    --kinds=*) kinds=${arg#--kinds=} ;;
    --skip-known=*) skip_known=${arg#--skip-known=} ;;
    --dbs=*) dbs=${arg#--dbs=} ;;
    --shared_budget_mb=*) shared_budget_mb=${arg#--shared_budget_mb=} ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown option: $arg (try --help)" ;;
  esac
done
[[ -n $mode ]] || die "choose --short, --soak or --plant=NAME"
for v in duration max_cycles seed; do
  if [[ -n ${!v} && ! ${!v} =~ ^[0-9]+$ ]]; then
    die "--${v/max_/} needs a non-negative integer, got '${!v}'"
  fi
done
[[ $dbs =~ ^[1-9][0-9]*$ ]] && ((dbs <= 64)) ||
  die "--dbs needs an integer from 1 to 64, got '$dbs'"
if [[ -n $shared_budget_mb ]]; then
  [[ $shared_budget_mb =~ ^[0-9]*\.?[0-9]+$ && $shared_budget_mb =~ [1-9] ]] ||
    die "--shared_budget_mb needs a number of MiB above 0, got '$shared_budget_mb'"
fi
workdir=${workdir:-${STRESS_TMPDIR:-$LEVELDB_ROOT/build/stress}}
seed=${seed:-$(((RANDOM << 15) | RANDOM))}
case $mode in
  short) duration=${duration:-120} max_cycles=${max_cycles:-100000} ;;
  soak) duration=${duration:-3600} max_cycles=${max_cycles:-1000000000} ;;
  plant) duration=${duration:-3600} max_cycles=${max_cycles:-400} ;;
esac
IFS=, read -r -a kind_list <<<"${kinds:-kill,kill,power,errors,all}"
for k in "${kind_list[@]}"; do
  [[ $k =~ ^(kill|power|errors|all)$ ]] || die "unknown cycle kind: $k"
done
[[ $skip_known =~ ^(none|((reuse_logs|log_switch)(,|$))+)$ ]] ||
  die "--skip-known takes reuse_logs, log_switch (comma-separated) or none, got '$skip_known'"
mkdir -p "$workdir"

# Copies the tree to a scratch directory, applies the plant's patch there
# and builds db_stress from it; sets binary.
build_plant() {
  local patch=$LEVELDB_ROOT/tests/stress/plants/$plant.patch
  local src=$workdir/plant-$plant
  [[ -f $patch ]] || die "no plant '$plant' (no $patch)"
  rm -rf "$src"
  mkdir -p "$src"
  (cd "$LEVELDB_ROOT" && git ls-files -z --cached --others --exclude-standard |
    tar --null -T - -cf -) | tar -xf - -C "$src"
  patch -d "$src" -p1 --forward --silent <"$patch" ||
    die "cannot apply $patch"
  echo "crash_test: building db_stress with plant $plant in $src/build"
  if ! cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLEVELDB_UPSTREAM=OFF -DLEVELDB_BUILD_TESTS=OFF -DLEVELDB_WERROR=OFF \
    -DLEVELDB_BUILD_BENCHMARKS=ON -DLEVELDB_INSTALL=OFF >"$src/build.log" 2>&1 ||
    ! cmake --build "$src/build" -j "${LEVELDB_JOBS:-2}" --target db_stress \
      >>"$src/build.log" 2>&1; then
    die "build failed, see $src/build.log"
  fi
  binary=$src/build/benchmarks/db_stress
}

tool_flags=()
if [[ $mode == plant && $plant =~ ^(drop_filter|split_batch)$ ]]; then
  tool_flags=(--plant="$plant")
elif [[ $mode == plant && -z $binary ]]; then
  build_plant  # (with --binary, that db_stress is taken as already planted)
fi
if [[ ,$skip_known, == *,reuse_logs,* ]]; then
  echo "crash_test: NOTE: reuse_logs forced off (--skip-known=reuse_logs;" \
    "see docs/stress.md#known-bugs)"
  tool_flags+=(--reuse_logs=0)
fi
if [[ ,$skip_known, == *,log_switch,* ]]; then
  echo "crash_test: NOTE: no prefix check across keys after a power loss" \
    "(known bug: docs/stress.md#known-bugs; --skip-known=none to include it)"
  tool_flags+=(--prefix_check=0)
fi
((dbs == 1)) || tool_flags+=(--dbs="$dbs")
[[ -z $shared_budget_mb ]] || tool_flags+=(--shared_budget_mb="$shared_budget_mb")
if [[ -z $binary ]]; then
  for dir in "${LEVELDB_RELEASE_DIR:-}" "$LEVELDB_ROOT/build/release"; do
    if [[ -n $dir && -x $dir/benchmarks/db_stress ]]; then
      binary=$dir/benchmarks/db_stress
      break
    fi
  done
fi
[[ -n $binary && -x $binary ]] ||
  die "db_stress not found; build it (ninja -C build/release db_stress) or pass --binary"

# Everything below follows from the seed.
RANDOM=$seed
key_counts=(1000 4000 20000)
[[ $mode == short ]] && key_counts=(1000 4000)
cycles_per_run=40
declare -A count=([kill]=0 [kill_missed]=0 [power]=0 [errors]=0 [all]=0)
checked=0 acked=0 power_losses=0 reopens=0 injected=0 torn=0 dropped=0
run_no=0 run_dir='' keys=''

# Starts a fresh database and oracle.
new_run() {
  run_no=$((run_no + 1))
  run_dir=$workdir/run-$run_no
  rm -rf "$run_dir"
  mkdir -p "$run_dir"
  keys=${key_counts[RANDOM % ${#key_counts[@]}]}
}

# Milliseconds as sleep(1) wants them.
ms_to_s() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# Adds the last counter line of cycle log $1 to the totals.
account() {
  local line
  line=$(grep -E '^(opened|progress|stats):' "$1" | tail -n 1 || true)
  field() { sed -nE "s/.* $1=([0-9]+).*/\\1/p" <<<"$line"; }
  [[ -n $line ]] || return 0
  checked=$((checked + $(field checked)))
  acked=$((acked + $(field acked_writes)))
  power_losses=$((power_losses + $(field power_losses)))
  reopens=$((reopens + $(field reopens)))
  injected=$((injected + $(field injected)))
  torn=$((torn + $(field torn_files)))
  dropped=$((dropped + $(field dropped_files)))
}

# Prints the end of a failed cycle's log and how to repeat it.
report_failure() {
  local n=$1 log=$2 status=$3
  echo "----- $log (last 30 lines)"
  tail -n 30 "$log"
  echo "-----"
  echo "crash_test: FAILED at cycle $n (exit status $status) of run seed $seed"
  echo "  repeat the run: bash scripts/crash_test.sh --$mode${plant:+=$plant}" \
    "--seed=$seed --cycles=$n${kinds:+ --kinds=$kinds}" \
    "--skip-known=$skip_known --dbs=$dbs" \
    "${shared_budget_mb:+--shared_budget_mb=$shared_budget_mb}"
  echo "  repeat the cycle: $(head -n 1 "$log")"
}

# Runs cycle $1 on the current database; returns 1 on a violation.
run_cycle() {
  local n=$1 kind=${kind_list[RANDOM % ${#kind_list[@]}]}
  local cseed=$(((RANDOM << 30) | (RANDOM << 15) | RANDOM))
  local dur=$((1 + RANDOM % 3)) fault=$kind kill_ms=
  if [[ $kind == kill ]]; then
    fault=none
    ((RANDOM % 3 != 0)) || fault=errors
    if ((RANDOM % 4 == 0)); then  # during open and recovery
      kill_ms=$((RANDOM % 400))
    else  # anywhere, including the close at the end
      kill_ms=$((RANDOM % (dur * 1000 + 600)))
    fi
  fi
  local log=$run_dir/cycle-$n.log
  local cmd=("$binary" --db="$run_dir/db" --keys="$keys" --seed="$cseed"
    --fault="$fault" --duration="$dur" ${tool_flags[@]+"${tool_flags[@]}"})
  echo "${cmd[*]}" >"$log"
  "${cmd[@]}" >>"$log" 2>&1 &
  local pid=$! status=0
  if [[ -n $kill_ms ]]; then
    sleep "$(ms_to_s "$kill_ms")"
    kill -9 "$pid" 2>/dev/null || true
  fi
  { wait "$pid"; } 2>/dev/null || status=$?
  account "$log"
  if [[ $kind == kill && $status -ne 137 ]]; then
    kind=kill_missed
  fi
  count[$kind]=$((count[$kind] + 1))
  if grep -q '^VIOLATION' "$log" || ((status != 0 && status != 137)) ||
    [[ $status -eq 137 && -z $kill_ms ]]; then
    report_failure "$n" "$log" "$status"
    return 1
  fi
}

summary() {
  local sets="$run_no databases"
  ((dbs == 1)) || sets="$run_no sets of $dbs databases"
  echo "crash_test: $1 cycles in $(($(date +%s) - start)) s, seed $seed," \
    "$sets: kill ${count[kill]} (+${count[kill_missed]} ended" \
    "before the kill), power ${count[power]}, errors ${count[errors]}," \
    "all ${count[all]}; $power_losses in-process power losses ($torn torn" \
    "files, $dropped dropped creations), $reopens reopens after" \
    "$injected injected errors; $checked reads checked, $acked writes" \
    "acknowledged"
}

echo "crash_test: mode $mode${plant:+ ($plant)}, seed $seed, binary $binary," \
  "workdir $workdir, up to $duration s and $max_cycles cycles, $dbs" \
  "database(s) per process${shared_budget_mb:+ sharing $shared_budget_mb MiB}"
start=$(date +%s)
end=$((start + duration))
n=0 violations=0
while ((n < max_cycles && $(date +%s) < end)); do
  ((n % cycles_per_run != 0)) || new_run
  n=$((n + 1))
  ((n % 100 != 0)) || summary "$n"  # progress of long runs
  run_cycle "$n" && continue
  violations=$((violations + 1))
  if [[ $mode == plant ]]; then
    summary "$n"
    echo "crash_test: plant $plant caught after $n cycles"
    exit 0
  fi
  # A soak goes on with a fresh database; other modes stop here.
  if [[ $mode != soak ]]; then
    summary "$n"
    exit 1
  fi
  new_run
done
summary "$n"
if [[ $mode == plant ]]; then
  echo "crash_test: plant $plant NOT caught in $n cycles"
  exit 1
fi
if ((violations > 0)); then
  echo "crash_test: FAILED, $violations cycles with a violation"
  exit 1
fi
echo "crash_test: PASSED, no violation"
