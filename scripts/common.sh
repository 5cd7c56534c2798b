# Shared by scripts/test.sh and scripts/main_job.sh; source it, don't run it.
# Expects `set -euo pipefail` in the caller.

# Debian packages the build, the tests and the benchmarks need.
# libclang-rt-dev carries clang's sanitizer runtimes (only a Recommends of
# clang, so name it). make builds the YCSB-C stand-in of
# ycsb_build_script_test. dpkg-dev and file build the Debian packages;
# python3-plyvel, a binding built against Debian's LevelDB, runs on them
# (package_deb) and on the fork's shared library (interop_plyvel_elastic).
# librocksdb-dev: RocksDB 7.8 for the side-by-side benchmark and its tests.
# python3 and git run the docs_links test (scripts/check_md_links.py).
LEVELDB_PACKAGES=(cmake ninja-build g++ clang libclang-rt-dev libsnappy-dev
  libgtest-dev libgmock-dev libbenchmark-dev libleveldb-dev pkg-config
  make dpkg-dev file python3-plyvel librocksdb-dev python3 git)

# Installs whatever of LEVELDB_PACKAGES is missing; touches apt only then.
# Any apt failure aborts the caller.
ensure_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "error: dpkg-query not found; this script expects Debian 12" >&2
    exit 1
  fi
  local missing=() pkg
  for pkg in "${LEVELDB_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
      grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    echo "packages: all ${#LEVELDB_PACKAGES[@]} present"
    return 0
  fi
  echo "packages: installing ${missing[*]}"
  local as_root=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      as_root=(sudo)
    else
      echo "error: not root and no sudo; cannot install ${missing[*]}" >&2
      exit 1
    fi
  fi
  ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
    apt-get update
  ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y "${missing[@]}"
}

# Seconds since the epoch, for stage timings.
now_s() { date +%s; }

# Configures the release build (gcc, -Werror, upstream twins required) in
# $1 and builds everything. Returns non-zero on failure.
build_release() {
  local dir=$1
  cmake -S "$LEVELDB_ROOT" -B "$dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DLEVELDB_WERROR=ON -DLEVELDB_UPSTREAM=ON \
    -DLEVELDB_SANITIZE= \
    -DLEVELDB_BUILD_TESTS=ON -DLEVELDB_BUILD_BENCHMARKS=ON &&
    cmake --build "$dir" -j "${LEVELDB_JOBS:-2}"
}

# Option checks of the scripts: die names the script that was run.
die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}
positive_int() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer, got '$2'"
}

# Prints the header comment of script $1 (from line 2 up to the first line
# that is not a comment) as its --help text.
header_usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1' "$1" | sed 's/^# \{0,1\}//'
}
