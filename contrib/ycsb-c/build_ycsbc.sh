#!/usr/bin/env bash
# Builds YCSB-C's `ycsbc` with the LevelDB (ElasticBF fork) binding and
# without YCSB-C's Redis binding, whose redis/Makefile builds a bundled
# hiredis and runs `sudo make install` for it:
#   1. install_binding.sh (binding files, factory branch, leveldb.mk),
#   2. drops the Redis branch and include from db/db_factory.cc (they need
#      the bundled hiredis headers),
#   3. builds core/, then db/ without redis_db.cc, then links ycsbc without
#      -lhiredis, all with YCSB-C's own Makefiles.
# Running it again rebuilds and changes nothing more in the tree.
#
# usage: build_ycsbc.sh YCSB_C_DIR [LEVELDB_PREFIX]
#   LEVELDB_PREFIX: where the fork is installed (default /usr/local); a
#   relative path is taken from the current directory.
# Needs make, g++ and libtbb-dev (YCSB-C's TBB bindings stay in).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
me="$(basename "$0")"

fail() {
  echo "$me: $*" >&2
  exit 1
}

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 YCSB_C_DIR [LEVELDB_PREFIX]" >&2
  exit 2
fi
[[ -d "$1" ]] || fail "YCSB-C directory '$1' not found"
ycsbc="$(cd "$1" && pwd)"
prefix="$(realpath -ms -- "${2:-/usr/local}")"
if [[ ! -f "$prefix/include/leveldb/elastic_filter.h" ]]; then
  fail "the fork is not installed in $prefix" \
       "($prefix/include/leveldb/elastic_filter.h not found);" \
       "install it first: cmake --install BUILD_DIR --prefix $prefix"
fi
for tool in make g++ realpath; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found"
done

"$here/install_binding.sh" "$ycsbc" "$prefix"

# Removes `#include "db/redis_db.h"` and the `} else if (... == "redis") {`
# branch (up to the next `} else`) from the factory.
drop_redis_branch() {
  local factory="$1" patched
  grep -q 'redis' "$factory" || return 0
  patched="$(mktemp)"
  if ! awk '
      /^#include[[:space:]]*"db\/redis_db\.h"/ { next }
      /==[[:space:]]*"redis"/ {
        if ($0 !~ /^[[:space:]]*}[[:space:]]*else[[:space:]]+if/) exit 3
        skipping = 1
        next
      }
      skipping && /^[[:space:]]*}[[:space:]]*else/ { skipping = 0 }
      !skipping { print }
      END { if (skipping) exit 3 }' "$factory" > "$patched" ||
     grep -q -E 'RedisDB|redis_db|"redis"' "$patched"; then
    rm -f "$patched"
    fail "could not remove the Redis branch from $factory; delete its" \
         "#include \"db/redis_db.h\" and its dbname == \"redis\" branch" \
         "by hand, then run $me again"
  fi
  mv "$patched" "$factory"
  echo "$me: removed the Redis binding from $factory"
}
drop_redis_branch "$ycsbc/db/db_factory.cc"

shopt -s nullglob
core_sources=("$ycsbc"/core/*.cc)
db_sources=()
for source in "$ycsbc"/db/*.cc; do
  [[ "$(basename "$source")" == redis_db.cc ]] || db_sources+=("$source")
done
shopt -u nullglob
relative() {  # paths relative to $2
  local path
  for path in "${@:2}"; do printf '%s ' "${path#"$1"/}"; done
}

make -C "$ycsbc/core" || fail "building $ycsbc/core failed"
make -C "$ycsbc/db" SOURCES="$(relative "$ycsbc/db" "${db_sources[@]}")" ||
  fail "building $ycsbc/db failed"

# YCSB-C's link flags (with leveldb.mk's), minus hiredis. $(LDFLAGS) is
# for make to expand, hence the single quotes.
# shellcheck disable=SC2016
all_ldflags="$(make -s --no-print-directory -C "$ycsbc" \
                 --eval='ycsbc-print-ldflags: ; @echo $(LDFLAGS)' \
                 ycsbc-print-ldflags)" ||
  fail "could not read LDFLAGS from $ycsbc/Makefile"
ldflags=()
for flag in $all_ldflags; do
  [[ "$flag" == -lhiredis ]] || ldflags+=("$flag")
done
make -C "$ycsbc" ycsbc \
  SUBSRCS="$(relative "$ycsbc" "${core_sources[@]}" "${db_sources[@]}")" \
  LDFLAGS="${ldflags[*]}" || fail "linking $ycsbc/ycsbc failed"

echo "$me: built $ycsbc/ycsbc with the LevelDB binding (fork at $prefix)"
