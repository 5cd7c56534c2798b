#!/usr/bin/env bash
# Soak run of the SIGKILL crash test: many kill/recover cycles on one DB.
#
#   bash scripts/crash_test.sh [ITERATIONS] [BINARY]
#
# ITERATIONS defaults to 500 (or $CRASH_TEST_ITERATIONS). BINARY defaults to
# the first crash_test found in $LEVELDB_RELEASE_DIR/tests, build/release/tests,
# build/tests; build it first (ninja -C build/release crash_test).
# TEST_RANDOM_SEED picks the kill timings (default: a fresh one per run,
# printed so that a failing run can be repeated).
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

case ${1:-} in
  -h | --help)
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

iterations=${1:-${CRASH_TEST_ITERATIONS:-500}}
if ! [[ $iterations =~ ^[1-9][0-9]*$ ]]; then
  echo "error: ITERATIONS must be a positive integer, got '$iterations'" >&2
  exit 2
fi

binary=${2:-}
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

seed=${TEST_RANDOM_SEED:-$(((RANDOM << 15) | RANDOM))}
echo "crash_test: $binary, $iterations iterations, TEST_RANDOM_SEED=$seed"
start=$(date +%s)
status=0
CRASH_TEST_ITERATIONS=$iterations TEST_RANDOM_SEED=$seed "$binary" || status=$?
echo "crash_test: $(($(date +%s) - start)) s, exit status $status"
if ((status == 0)); then
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
fi
exit "$status"
