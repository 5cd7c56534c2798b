#!/usr/bin/env bash
# THE main-job command: installs what is missing, builds the release
# configuration (with the upstream twins), then runs the benchmark
# comparison against Debian's LevelDB 1.23 and prints its Markdown report.
#
#   bash scripts/main_job.sh
#
# The build directory defaults to build/release (LEVELDB_RELEASE_DIR).
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh
source "$LEVELDB_ROOT/scripts/common.sh"
RELEASE_DIR=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
# RocksDB 7.8 for rocksdb_readpath, the RocksDB side of
# scripts/eval_readpath.sh (benchmarks only; the tests never need it).
LEVELDB_PACKAGES+=(librocksdb-dev)

# The benchmark this job runs, given the release build directory. Switching
# to db_bench (ElasticBF on and off, next to upstream) is this one line, e.g.
#   BENCHMARK=(bash "$LEVELDB_ROOT/benchmarks/compare_upstream.sh" "$RELEASE_DIR")
BENCHMARK=(bash "$LEVELDB_ROOT/scripts/compare_micro.sh" "$RELEASE_DIR")

echo "=== packages"
ensure_packages

echo "=== release build in $RELEASE_DIR"
start=$(now_s)
build_release "$RELEASE_DIR"
echo "=== release build took $(($(now_s) - start))s"

echo "=== benchmark: ${BENCHMARK[*]}"
start=$(now_s)
"${BENCHMARK[@]}"
echo "=== benchmark took $(($(now_s) - start))s"
