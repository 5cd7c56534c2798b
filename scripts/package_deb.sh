#!/usr/bin/env bash
# Builds the Debian packages from a configured release build directory:
#
#   bash scripts/package_deb.sh BUILD_DIR OUT_DIR
#
# BUILD_DIR is a release build of this project (as `bash scripts/test.sh`
# or `cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release` makes it).
# The script brings the packaged targets up to date, runs `cpack -G DEB`
# there (see cmake/Packaging.cmake) and leaves in OUT_DIR (created if
# missing):
#
#   libleveldb1d-elasticbf_VERSION_ARCH.deb     in place of libleveldb1d
#   libleveldb-elasticbf-dev_VERSION_ARCH.deb   in place of libleveldb-dev
#   leveldb-elasticbf-tools_VERSION_ARCH.deb    leveldbutil
#
# It prints their paths on stdout, one a line (all else goes to stderr).
# Needs dpkg-dev (dpkg-shlibdeps) and file. Installing the packages is up to
# you: see docs/building.md.
set -euo pipefail

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

if [[ $# -ne 2 || $1 == -h || $1 == --help ]]; then
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
build_dir=$1
out_dir=$2

[[ -f $build_dir/CMakeCache.txt ]] ||
  die "$build_dir is not a CMake build directory (no CMakeCache.txt)"
[[ -f $build_dir/CPackConfig.cmake ]] ||
  die "$build_dir has no CPackConfig.cmake: configure it on Debian with" \
    "LEVELDB_INSTALL=ON (the default) and CMake >= 3.19"
[[ ! -e $out_dir || -d $out_dir ]] ||
  die "$out_dir exists and is not a directory"

# cpack would build packages without dependencies if dpkg-shlibdeps were
# missing; cmake/DebPreflight.cmake refuses too, this says it first.
command -v dpkg-shlibdeps >/dev/null 2>&1 ||
  die "dpkg-shlibdeps not found; install it with: apt-get install dpkg-dev"
for tool in cmake cpack dpkg-deb file; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
done

cmake --build "$build_dir" --target leveldb_deb_files >&2

# cpack stages its files next to the packages: keep them out of OUT_DIR.
stage=$(mktemp -d "${TMPDIR:-/tmp}/package_deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
build_dir=$(cd "$build_dir" && pwd)
(cd "$stage" &&
  cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$stage" >&2) ||
  die "cpack failed (see its messages above)"

shopt -s nullglob
debs=("$stage"/*.deb)
((${#debs[@]} == 3)) || die "cpack made ${#debs[@]} packages, expected 3"
mkdir -p "$out_dir"
for deb in "${debs[@]}"; do
  mv -f "$deb" "$out_dir/"
  echo "$out_dir/$(basename "$deb")"
done
