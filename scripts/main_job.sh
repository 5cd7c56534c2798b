#!/usr/bin/env bash
# THE main-job command: installs what is missing, builds the release
# configuration (with the upstream twins), then runs db_bench with ElasticBF
# on and off next to Debian's LevelDB 1.23 (and RocksDB 7.8) and prints the
# Markdown report.
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

# The main job: what a user gets, next to upstream LevelDB 1.23 and RocksDB
# 7.8, on the read-path protocol (scripts/eval_readpath.sh,
# docs/evaluation-readpath.md) at a scale that runs in about ten minutes:
# (a) upstream, (b) the fork with LevelDB's options, (f) ElasticBF's
# defaults at 4 bits per key, (c) ElasticBF at upstream's measured filter
# bytes, (e) RocksDB; each reads once right after its load and once more
# when the load's compactions are over; two rounds, the second in reverse
# order, and medians. The full protocol is `scripts/eval_readpath.sh` with
# its defaults (24M keys). MAIN_JOB_KEYS / MAIN_JOB_READS /
# MAIN_JOB_ROUNDS change the scale.
BENCHMARK=(bash "$LEVELDB_ROOT/scripts/eval_readpath.sh"
           "--keys=${MAIN_JOB_KEYS:-2000000}" "--reads=${MAIN_JOB_READS:-100000}"
           "--repeat=${MAIN_JOB_ROUNDS:-2}" --both --systems=a,b,f,c,e
           "--build_dir=$RELEASE_DIR" "--eval_dir=$LEVELDB_ROOT/build/eval")

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
