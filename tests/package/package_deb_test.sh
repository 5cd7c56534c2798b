#!/usr/bin/env bash
# The Debian packages (cmake/Packaging.cmake, scripts/package_deb.sh), built
# from this build tree into a temporary directory and checked without
# installing them: this machine keeps Debian's libleveldb1d for the interop
# tests.
#
#   package_deb_test.sh SOURCE_DIR BUILD_DIR VERSION HAVE_SNAPPY
#
# 1. package_deb.sh refuses bad arguments and a missing dpkg-shlibdeps;
# 2. it builds the three packages;
# 3. their control fields (dpkg-deb -f, the shlibs file);
# 4. their contents (dpkg-deb -c): the multiarch library names, every
#    header of include/, the CMake package, leveldb.pc; the same files as
#    `cmake --install`;
# 5. Debian's python3-plyvel on the extracted runtime package (between
#    two runs on Debian's own library), which must be what it maps;
# 6. the extracted development package: pkg-config, a C program compiled
#    and linked through it, find_package(leveldb);
# 7. apt's plan for installing them (simulated): it removes Debian's
#    libleveldb1d and libleveldb-dev and nothing else.
set -euo pipefail

if [[ $# -ne 4 ]]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR VERSION HAVE_SNAPPY" >&2
  exit 2
fi
source_dir=$1
build_dir=$2
version=$3
have_snappy=$4

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
die() {
  echo "FAIL: $*" >&2
  exit 1
}
# check_eq WHAT ACTUAL EXPECTED
check_eq() {
  if [[ $2 == "$3" ]]; then
    echo "ok: $1"
  else
    fail "$1: got '$2', expected '$3'"
  fi
}
# check_has WHAT TEXT NEEDLE
check_has() {
  if [[ $2 == *"$3"* ]]; then
    echo "ok: $1"
  else
    fail "$1: '$3' not in '$2'"
  fi
}

# Missing tools are failures, never skips: scripts/common.sh installs them.
require_program() {
  command -v "$1" >/dev/null 2>&1 ||
    die "$1 not found: apt-get install $2 (it is in LEVELDB_PACKAGES)"
}
require_program dpkg-shlibdeps dpkg-dev
require_program dpkg-architecture dpkg-dev
require_program file file
require_program pkg-config pkg-config
require_program apt-get apt
dpkg-query -W -f='${Status}' python3-plyvel 2>/dev/null |
  grep -q 'install ok installed' ||
  die "Debian's python3-plyvel is not installed: apt-get install python3-plyvel"
# Debian's interpreter, not whatever python3 comes first on PATH.
python=/usr/bin/python3
[[ -x $python ]] || die "$python not found (python3-plyvel needs it)"

work=$(mktemp -d "${TEST_TMPDIR:-${TMPDIR:-/tmp}}/package_deb_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
script=$source_dir/scripts/package_deb.sh
arch=$(dpkg --print-architecture)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$triplet
runtime=libleveldb1d-elasticbf
dev=libleveldb-elasticbf-dev
tools=leveldb-elasticbf-tools

# expect_refusal WHAT NEEDLE COMMAND...: COMMAND must fail, saying NEEDLE.
expect_refusal() {
  local what=$1 needle=$2 out rc=0
  shift 2
  out=$("$@" 2>&1) || rc=$?
  if ((rc == 0)); then
    fail "$what: exit status 0"
  else
    check_has "$what" "$out" "$needle"
  fi
}

echo "=== 1. package_deb.sh refuses bad input"
expect_refusal "no arguments" "BUILD_DIR OUT_DIR" bash "$script"
expect_refusal "not a build directory" "not a CMake build directory" \
  bash "$script" "$work" "$work/out"
touch "$work/a-file"
expect_refusal "OUT_DIR is a file" "is not a directory" \
  bash "$script" "$build_dir" "$work/a-file"
# A PATH holding only what the script runs before its dpkg-shlibdeps check.
fakebin=$work/fakebin
mkdir "$fakebin"
for prog in basename dirname sed cmake cpack dpkg-deb file; do
  ln -s "$(command -v "$prog")" "$fakebin/$prog"
done
expect_refusal "no dpkg-shlibdeps" "apt-get install dpkg-dev" \
  env PATH="$fakebin" "$(command -v bash)" "$script" "$build_dir" "$work/out"
[[ ! -e $work/out ]] || fail "a refused run created OUT_DIR"

echo "=== 2. package_deb.sh builds the packages"
out=$work/out
listed=$(bash "$script" "$build_dir" "$out" 2>"$work/package.log") || {
  cat "$work/package.log" >&2
  die "package_deb.sh $build_dir $out failed"
}
deb_runtime=$out/${runtime}_${version}_$arch.deb
deb_dev=$out/${dev}_${version}_$arch.deb
deb_tools=$out/${tools}_${version}_$arch.deb
for deb in "$deb_runtime" "$deb_dev" "$deb_tools"; do
  [[ -f $deb ]] || die "$deb was not built; made: $(ls "$out")"
done
check_eq "package_deb.sh prints the packages" "$(sort <<<"$listed")" \
  "$(printf '%s\n' "$deb_runtime" "$deb_dev" "$deb_tools" | sort)"

# The runtime library's soname, read from the packaged file.
root=$work/root
dpkg-deb -x "$deb_runtime" "$root"
real_lib=$root/$libdir/libleveldb.so.$version
[[ -f $real_lib && ! -L $real_lib ]] || die "no regular file $real_lib"
soname=$(readelf -d "$real_lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
check_eq "soname" "$soname" "libleveldb.so.${version%%.*}"

echo "=== 3. control fields"
field() { dpkg-deb -f "$1" "$2"; }
# Package names in a Depends field, one a line.
dep_names() { tr ',' '\n' <<<"$1" | sed -E 's/^ *//; s/[ (].*//'; }
check_fields() {
  local deb=$1 name=$2 section=$3 multiarch=$4
  check_eq "$name Package" "$(field "$deb" Package)" "$name"
  check_eq "$name Version" "$(field "$deb" Version)" "$version"
  check_eq "$name Architecture" "$(field "$deb" Architecture)" "$arch"
  check_eq "$name Section" "$(field "$deb" Section)" "$section"
  check_eq "$name Multi-Arch" "$(field "$deb" Multi-Arch)" "$multiarch"
  [[ $(field "$deb" Maintainer) =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] ||
    fail "$name Maintainer: '$(field "$deb" Maintainer)'"
  [[ $(field "$deb" Description) == *LevelDB* ]] ||
    fail "$name Description: '$(field "$deb" Description)'"
}
check_fields "$deb_runtime" "$runtime" libs same
check_fields "$deb_dev" "$dev" libdevel same
check_fields "$deb_tools" "$tools" database foreign

check_eq "$runtime Provides" "$(field "$deb_runtime" Provides)" \
  "libleveldb1d (= $version)"
check_eq "$runtime Conflicts" "$(field "$deb_runtime" Conflicts)" libleveldb1d
check_eq "$runtime Replaces" "$(field "$deb_runtime" Replaces)" libleveldb1d
shlib_deps="libc6 libgcc-s1 libstdc++6"
if [[ $have_snappy == ON ]]; then
  shlib_deps+=" libsnappy1v5"
fi
for pkg in $shlib_deps; do
  grep -qx "$pkg" <<<"$(dep_names "$(field "$deb_runtime" Depends)")" ||
    fail "$runtime Depends lacks $pkg: $(field "$deb_runtime" Depends)"
  grep -qx "$pkg" <<<"$(dep_names "$(field "$deb_tools" Depends)")" ||
    fail "$tools Depends lacks $pkg: $(field "$deb_tools" Depends)"
done
dpkg-deb -e "$deb_runtime" "$work/control"
check_eq "$runtime shlibs" "$(cat "$work/control/shlibs")" \
  "libleveldb ${soname#libleveldb.so.} $runtime (>= $version)"

# python3-plyvel's own requirement on libleveldb1d, as Debian states it.
plyvel_dep=$(dpkg-query -W -f='${Depends}' python3-plyvel | tr ',' '\n' |
  grep -E '^ *libleveldb1d( |$)' || true)
[[ -n $plyvel_dep ]] || fail "python3-plyvel does not depend on libleveldb1d"
if [[ $plyvel_dep =~ \(([\<\>=]+)\ *([^\)]+)\) ]]; then
  case ${BASH_REMATCH[1]} in
    '>=') op=ge ;; '<=') op=le ;; '=') op=eq ;; '>>') op=gt ;; '<<') op=lt ;;
    *) op=unknown ;;
  esac
  if dpkg --compare-versions "$version" "$op" "${BASH_REMATCH[2]}"; then
    echo "ok: Provides libleveldb1d (= $version) satisfies '$plyvel_dep'"
  else
    fail "version $version does not satisfy python3-plyvel's '$plyvel_dep'"
  fi
fi

dev_depends=$(field "$deb_dev" Depends)
check_has "$dev Depends" "$dev_depends" "$runtime (= $version)"
if [[ $have_snappy == ON ]]; then
  grep -qx libsnappy-dev <<<"$(dep_names "$dev_depends")" ||
    fail "$dev Depends lacks libsnappy-dev: $dev_depends"
fi
check_eq "$dev Provides" "$(field "$deb_dev" Provides)" \
  "libleveldb-dev (= $version)"
check_eq "$dev Conflicts" "$(field "$deb_dev" Conflicts)" libleveldb-dev
check_eq "$dev Replaces" "$(field "$deb_dev" Replaces)" libleveldb-dev

# Installed-Size as dpkg-gencontrol counts it: whole KiB per file, 1 per
# directory or link.
for deb in "$deb_runtime" "$deb_dev" "$deb_tools"; do
  kib=$(dpkg-deb -c "$deb" | awk '
    $1 ~ /^[dl]/ { total += 1; next }
    { total += int(($3 + 1023) / 1024) }
    END { print total }')
  check_eq "$(basename "$deb") Installed-Size" \
    "$(field "$deb" Installed-Size)" "$kib"
done

echo "=== 4. contents"
# Files and links of a package, one a line ("name -> target" for links).
contents() {
  dpkg-deb -c "$1" | awk '
    $1 ~ /^d/ { next }
    { name = $6; sub(/^\.\//, "", name) }
    $1 ~ /^l/ { print name " -> " $8; next }
    { print name }' | sort
}
check_contents() {
  local what=$1 actual=$2 expected
  expected=$(sort <<<"$3")
  if [[ $actual == "$expected" ]]; then
    echo "ok: $what"
  else
    fail "$what differ:$(diff <(echo "$expected") <(echo "$actual") || true)"
  fi
}
check_contents "$runtime contents" "$(contents "$deb_runtime")" \
  "$libdir/libleveldb.so.$version
$libdir/$soname -> libleveldb.so.$version
$libdir/libleveldb.so.1d -> libleveldb.so.$version"

# Every header of the source tree, which holds LevelDB 1.23's.
headers=$(cd "$source_dir/include" && find leveldb -name '*.h' | sort)
for header in c cache comparator db dumpfile env export filter_policy \
  iterator options slice status table table_builder write_batch \
  helpers/memenv; do
  grep -qx "leveldb/$header.h" <<<"$headers" ||
    fail "include/leveldb/$header.h missing from the source tree"
done
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; }
build_type=$(cache_value CMAKE_BUILD_TYPE)
cmake_dir=$libdir/cmake/leveldb
check_contents "$dev contents" "$(contents "$deb_dev")" \
  "$(awk '{ print "usr/include/" $0 }' <<<"$headers")
$libdir/libleveldb.so -> $soname
$libdir/libleveldb.a
$cmake_dir/leveldbConfig.cmake
$cmake_dir/leveldbConfigVersion.cmake
$cmake_dir/leveldbTargets.cmake
$cmake_dir/leveldbTargets-${build_type,,}.cmake
$libdir/pkgconfig/leveldb.pc"
check_contents "$tools contents" "$(contents "$deb_tools")" usr/bin/leveldbutil

# The packages hold what `cmake --install` installs, in Debian's layout.
cmake --install "$build_dir" --prefix "$work/inst" >/dev/null
install_libdir=$(cache_value CMAKE_INSTALL_LIBDIR)
installed=$(cd "$work/inst" && find . ! -type d | sed 's|^\./||' |
  while read -r path; do
    case $path in
      "$install_libdir"/*) mapped=$libdir/${path#"$install_libdir"/} ;;
      *) mapped=usr/$path ;;
    esac
    if [[ -L $path ]]; then
      echo "$mapped -> $(readlink "$path")"
    else
      echo "$mapped"
    fi
  done | sort)
check_contents "packages = cmake --install" \
  "$(cat <(contents "$deb_runtime") <(contents "$deb_dev") \
    <(contents "$deb_tools") | sort)" "$installed"

echo "=== 5. python3-plyvel on the runtime package"
dpkg-deb -x "$deb_dev" "$root"
debian_lib=$(readlink -f "/$libdir/libleveldb.so.1d")
[[ $debian_lib == /$libdir/* ]] || die "Debian's libleveldb.so.1d not found"
fork_lib=$(readlink -f "$root/$libdir/libleveldb.so.1d")
check_eq "the package's libleveldb.so.1d" "$fork_lib" \
  "$(readlink -f "$real_lib")"
plyvel() {
  local phase=$1 lib=$2
  shift 2
  if "$@" "$python" "$source_dir/tests/package/plyvel_check.py" "$phase" \
    "$work/plyvel_db" "$lib"; then
    echo "ok: plyvel $phase"
  else
    fail "plyvel $phase on $lib"
  fi
}
plyvel create "$debian_lib" env -u LD_LIBRARY_PATH
plyvel change "$fork_lib" env LD_LIBRARY_PATH="$root/$libdir"
plyvel reread "$debian_lib" env -u LD_LIBRARY_PATH

echo "=== 6. the development package"
pc() {
  env PKG_CONFIG_LIBDIR="$root/$libdir/pkgconfig" PKG_CONFIG_PATH= \
    PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
    pkg-config "$@" leveldb
}
# Its paths are those of an installed package: /usr.
check_eq "pkg-config --modversion" "$(pc --modversion)" "$version"
check_eq "pkg-config libdir" "$(pc --variable=libdir)" "/usr/lib/$triplet"
check_eq "pkg-config includedir" "$(pc --variable=includedir)" /usr/include
check_eq "pkg-config --cflags --libs" "$(pc --cflags --libs | xargs)" \
  "-I/usr/include -L/usr/lib/$triplet -lleveldb"
static_libs=$(pc --static --libs)
check_has "pkg-config --static --libs" "$static_libs" -lpthread
if [[ $have_snappy == ON ]]; then
  check_has "pkg-config --static --libs" "$static_libs" -lsnappy
fi

# A program built with those flags (inside the extracted tree) against a
# header only this fork has, run on the runtime package.
cat >"$work/consumer.cc" <<'CC'
#include <cstdio>
#include <memory>
#include <string>

#include "leveldb/db.h"
#include "leveldb/elastic_filter.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewElasticFilterPolicy(leveldb::ElasticFilterOptions()));
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = policy.get();
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, argv[1], &db);
  std::string value;
  if (s.ok()) s = db->Put(leveldb::WriteOptions(), "key", "value");
  if (s.ok()) s = db->Get(leveldb::ReadOptions(), "key", &value);
  delete db;
  if (!s.ok() || value != "value") {
    std::fprintf(stderr, "consumer: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("consumer: ok\n");
  return 0;
}
CC
# shellcheck disable=SC2046  # pkg-config's flags are words
if c++ -std=c++17 -o "$work/consumer" "$work/consumer.cc" \
  $(PKG_CONFIG_SYSROOT_DIR=$root pc --cflags --libs); then
  needed=$(readelf -d "$work/consumer" |
    sed -n 's/.*(NEEDED).*\[\(libleveldb.*\)\].*/\1/p')
  check_eq "consumer needs" "$needed" "$soname"
  check_eq "consumer runs" \
    "$(LD_LIBRARY_PATH="$root/$libdir" "$work/consumer" "$work/consumer_db")" \
    "consumer: ok"
else
  fail "building a program with the development package's pkg-config flags"
fi

# find_package(leveldb) from the extracted tree.
mkdir "$work/cmake_consumer"
cat >"$work/cmake_consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(consumer LANGUAGES CXX)
find_package(leveldb ${EXPECTED_VERSION} EXACT REQUIRED)
foreach(target leveldb::leveldb leveldb::leveldb_static)
  get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
  list(GET configs 0 config)
  get_target_property(location ${target} IMPORTED_LOCATION_${config})
  get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
  file(APPEND "${CMAKE_BINARY_DIR}/found.txt"
       "${target} ${location} ${includes}\n")
endforeach()
file(APPEND "${CMAKE_BINARY_DIR}/found.txt" "dir ${leveldb_DIR}\n")
CMAKE
if cmake -S "$work/cmake_consumer" -B "$work/cmake_consumer/build" \
  -DCMAKE_PREFIX_PATH="$root/usr" -DEXPECTED_VERSION="$version" \
  >"$work/cmake_consumer.log" 2>&1; then
  check_eq "find_package(leveldb)" \
    "$(cat "$work/cmake_consumer/build/found.txt")" \
    "leveldb::leveldb $root/$libdir/libleveldb.so.$version $root/usr/include
leveldb::leveldb_static $root/$libdir/libleveldb.a $root/usr/include
dir $root/$cmake_dir"
else
  cat "$work/cmake_consumer.log" >&2
  fail "find_package(leveldb) in the extracted development package"
fi

echo "=== 7. apt's plan to install them (simulated, nothing is installed)"
if plan=$(apt-get -s install "$deb_runtime" "$deb_dev" "$deb_tools" 2>&1); then
  expected_removals=""
  for pkg in libleveldb1d libleveldb-dev; do
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
      grep -q 'install ok installed'; then
      expected_removals+="$pkg"$'\n'
    fi
  done
  check_eq "apt removes" \
    "$(sed -n 's/^Remv \([^ :]*\).*/\1/p' <<<"$plan" | sort)" \
    "$(sort <<<"${expected_removals%$'\n'}")"
  check_eq "apt installs" \
    "$(sed -n 's/^Inst \([^ :]*\).*/\1/p' <<<"$plan" | sort)" \
    "$(printf '%s\n' "$runtime" "$dev" "$tools" | sort)"
else
  fail "apt-get -s install refused the packages: $plan"
fi

if ((failures > 0)); then
  echo "package_deb_test: $failures check(s) failed" >&2
  exit 1
fi
echo "package_deb_test: all checks passed"
