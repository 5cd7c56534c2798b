#!/usr/bin/env bash
# Adds the LevelDB (ElasticBF fork) binding to a YCSB-C checkout:
#   - copies leveldb_db.h, leveldb_db.cc and store_options.h (from
#     benchmarks/common) into its db/ directory,
#   - adds `-db leveldb` to db/db_factory.cc,
#   - writes leveldb.mk (with the install prefix) at its top and includes it
#     from Makefile and db/Makefile.
# Running it again changes nothing more.
#
# usage: install_binding.sh YCSB_C_DIR [LEVELDB_PREFIX]
#   LEVELDB_PREFIX: where the fork is installed (default /usr/local); a
#   relative path is taken from the current directory (leveldb.mk gets the
#   absolute one, since make runs in YCSB-C's subdirectories).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 YCSB_C_DIR [LEVELDB_PREFIX]" >&2
  exit 2
fi
if [[ ! -d "$1" ]]; then
  echo "$0: YCSB-C directory '$1' not found" >&2
  exit 1
fi
ycsbc="$(cd "$1" && pwd)"
prefix="$(realpath -ms -- "${2:-/usr/local}")"
factory="$ycsbc/db/db_factory.cc"

for required in "$factory" "$ycsbc/core/db.h" "$ycsbc/Makefile" \
                "$ycsbc/db/Makefile"; do
  if [[ ! -f "$required" ]]; then
    echo "$0: $required not found: is $ycsbc a YCSB-C checkout?" >&2
    exit 1
  fi
done
if [[ ! -f "$prefix/include/leveldb/elastic_filter.h" ]]; then
  echo "$0: warning: $prefix/include/leveldb/elastic_filter.h not found;" \
       "install the fork there first (cmake --install BUILD --prefix" \
       "$prefix)" >&2
fi

# store_options.h (settings to Options) is shared with the YCSB runner.
cp "$here/leveldb_db.h" "$here/leveldb_db.cc" \
  "$here/../../benchmarks/common/store_options.h" "$ycsbc/db/"

if ! grep -q 'db/leveldb_db.h' "$factory"; then
  # The name of CreateDB's Properties parameter (YCSB-C calls it props).
  param="$(sed -n 's/.*CreateDB([^&]*&[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
           "$factory" | head -n 1)"
  param="${param:-props}"
  patched="$(mktemp)"
  if ! awk -v param="$param" '
      { line[NR] = $0; if ($0 ~ /^#include/) last_include = NR }
      END {
        for (i = 1; i <= NR; i++) {
          print line[i]
          if (i == last_include) print "#include \"db/leveldb_db.h\""
          if (!done && line[i] ~ /DBFactory::CreateDB\(/) inside = 1
          if (inside && !done && index(line[i], "{") > 0) {
            printf "  if (%s[\"dbname\"] == \"leveldb\") " \
                   "return ycsbc::LevelDB::Create(%s);\n", param, param
            done = 1
          }
        }
        if (!done || !last_include) exit 3
      }' "$factory" > "$patched"; then
    rm -f "$patched"
    echo "$0: could not find DBFactory::CreateDB in $factory;" \
         "apply db_factory_leveldb.snippet by hand" >&2
    exit 1
  fi
  mv "$patched" "$factory"
fi

# Escaped for the sed replacement below.
sed_prefix="$(printf '%s' "$prefix" | sed 's/[\\|&]/\\&/g')"
sed "s|^LEVELDB_PREFIX ?= .*|LEVELDB_PREFIX ?= $sed_prefix|" "$here/leveldb.mk" \
  > "$ycsbc/leveldb.mk"
for makefile in "$ycsbc/Makefile" "$ycsbc/db/Makefile"; do
  if ! grep -q '^include .*leveldb\.mk' "$makefile"; then
    printf '\ninclude %s/leveldb.mk\n' "$ycsbc" >> "$makefile"
  fi
done

echo "LevelDB binding installed in $ycsbc (fork at $prefix)."
echo "Build with: $here/build_ycsbc.sh $ycsbc $prefix"
echo "(plain make -C $ycsbc also builds YCSB-C's redis/, which needs sudo)"
