#!/usr/bin/env bash
# THE test command of this project (CI runs it through .ci/run).
#
#   bash scripts/test.sh                   all stages
#   bash scripts/test.sh --quick           release build and tests only
#   bash scripts/test.sh --stages=asan,tsan  only the stages named
#
# Stages:
#   1. install missing Debian packages (apt-get, as root or through sudo)
#   2. release build with gcc and -Werror, upstream LevelDB required for the
#      interop tests and benchmark twins; the whole ctest suite (including
#      label stress: crash_test_short, two minutes of db_stress cycles)
#   3. ASan+UBSan build (gcc, without -Werror: under -fsanitize=address
#      g++ 12 warns falsely inside libstdc++); the tests in ASAN_LABELS
#   4. TSan build (clang, also -Wthread-safety); tests labelled concurrency
# Ends with one line "N passed, N failed" over all stages and exits non-zero
# if any test failed, any build failed or a stage ran no test at all.
#
# Build directories default to build/{release,asan,tsan}; override with
# LEVELDB_RELEASE_DIR, LEVELDB_ASAN_DIR, LEVELDB_TSAN_DIR.
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh
source "$LEVELDB_ROOT/scripts/common.sh"

RELEASE_DIR=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
ASAN_DIR=${LEVELDB_ASAN_DIR:-$LEVELDB_ROOT/build/asan}
TSAN_DIR=${LEVELDB_TSAN_DIR:-$LEVELDB_ROOT/build/tsan}
# Labels run under ASan+UBSan: 'unit' is the whole unit suite.
ASAN_LABELS=${LEVELDB_ASAN_LABELS:-unit}
TSAN_LABELS=concurrency

stages=release,asan,tsan
for arg in "$@"; do
  case $arg in
    --quick) stages=release ;;
    --stages=*) stages=${arg#--stages=} ;;
    -h | --help)
      sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "unknown option: $arg (try --help)" >&2
      exit 2
      ;;
  esac
done

# True if stage $1 was asked for.
wanted() { [[ ,$stages, == *,$1,* ]]; }

total_passed=0
total_failed=0
summary=()

# Records one stage: name, tests passed, tests failed, seconds, note.
record() {
  total_passed=$((total_passed + $2))
  total_failed=$((total_failed + $3))
  summary+=("$(printf '%-8s %6s passed %4s failed %6ss  %s' "$1" "$2" "$3" "$4" "$5")")
}

# Runs ctest in $2 with the remaining arguments; records stage $1. A stage
# whose ctest did not run any test, or printed no summary, counts as failed.
run_ctest() {
  local stage=$1 dir=$2 start=$3
  shift 3
  local log="$dir/ctest-$stage.log" rc=0
  (cd "$dir" && ctest --output-on-failure --no-tests=error -j2 "$@") 2>&1 |
    tee "$log" || rc=$?
  local line total failed
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' \
    "$log" | tail -n 1 || true)
  if [[ -z $line ]]; then
    record "$stage" 0 1 $(($(now_s) - start)) "ctest ran no test (exit $rc)"
    return
  fi
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
  if ((total == 0)); then
    record "$stage" 0 1 $(($(now_s) - start)) "no tests matched"
  elif ((rc != 0 && failed == 0)); then
    # ctest failed for a reason its summary does not count.
    record "$stage" "$total" 1 $(($(now_s) - start)) "ctest exit $rc"
  else
    record "$stage" $((total - failed)) "$failed" $(($(now_s) - start)) ""
  fi
}

# Test executables carrying one of the labels (test name = target name), so
# sanitizer builds compile only what they run.
targets_for_labels() {
  local dir=$1 labels=$2
  (cd "$dir" && ctest -N -L "$labels") |
    sed -nE 's/^ *Test +#[0-9]+: ([A-Za-z0-9_]+)$/\1/p'
}

# Configures a sanitizer build in $2 and runs the tests labelled $3; stage
# name $1; further arguments go to cmake.
sanitizer_stage() {
  local stage=$1 dir=$2 labels=$3
  shift 3
  local start targets
  start=$(now_s)
  echo "=== $stage: configure and build in $dir"
  if ! cmake -S "$LEVELDB_ROOT" -B "$dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLEVELDB_UPSTREAM=OFF \
    -DLEVELDB_BUILD_TESTS=ON -DLEVELDB_BUILD_BENCHMARKS=OFF "$@"; then
    record "$stage" 0 1 $(($(now_s) - start)) "configure failed"
    return
  fi
  mapfile -t targets < <(targets_for_labels "$dir" "$labels")
  if ((${#targets[@]} == 0)); then
    record "$stage" 0 1 $(($(now_s) - start)) "no test labelled $labels"
    return
  fi
  if ! cmake --build "$dir" -j "${LEVELDB_JOBS:-2}" --target "${targets[@]}"; then
    record "$stage" 0 1 $(($(now_s) - start)) "build failed"
    return
  fi
  echo "=== $stage: ctest -L '$labels'"
  run_ctest "$stage" "$dir" "$start" -L "$labels"
}

overall_start=$(now_s)

echo "=== packages"
ensure_packages

if wanted release; then
  echo "=== release: configure and build in $RELEASE_DIR"
  start=$(now_s)
  if build_release "$RELEASE_DIR"; then
    echo "=== release: ctest"
    run_ctest release "$RELEASE_DIR" "$start"
  else
    record release 0 1 $(($(now_s) - start)) "build failed"
  fi
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
if wanted asan; then
  CC=gcc CXX=g++ sanitizer_stage asan "$ASAN_DIR" "$ASAN_LABELS" \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DLEVELDB_SANITIZE=address -DLEVELDB_WERROR=OFF
fi
if wanted tsan; then
  CC=clang CXX=clang++ sanitizer_stage tsan "$TSAN_DIR" "$TSAN_LABELS" \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DLEVELDB_SANITIZE=thread -DLEVELDB_WERROR=ON
fi
if ((${#summary[@]} == 0)); then
  record none 0 1 0 "no stage matched --stages=$stages"
fi

echo
echo "=== summary ($(($(now_s) - overall_start))s in total)"
printf '%s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
((total_failed == 0))
