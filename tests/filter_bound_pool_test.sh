#!/bin/bash
# shellcheck disable=SC2016  # awk expressions passed in single quotes
# filter_bound --pool (benchmarks/filter_bound.cc) on one level of 36
# whole segments, where every model spends whole units: one tree pooled,
# and two identical trees with equal shares of the Gets, give the bound of
# the tree alone, both placed at best and split evenly; with one hot tree
# of four, the best placement beats the even split in every model. With
# DB_BENCH, the same for a database (--pool_dbs against --db).
# --adaptive_gets: its rows are never above the static ones, equal them
# for one Get, are below them for Zipfian lookups that repeat and close to
# them for nearly uniform ones over many keys; bad values are refused. The
# static placement charged adaptively lies between the adaptive bound and
# the static one, and equals the static row for one Get, when the two
# placements are the same (no memory moved).
# Usage: filter_bound_pool_test.sh FILTER_BOUND [DB_BENCH WORK_DIR]
set -euo pipefail
bin=$1
common=(--levels=1 --budgets=4 --exact_ranks=2000000)

# The cells after the head of the table row starting with "| $2 |".
row() {
  awk -v head="| $2 |" 'index($0, head) == 1 { print substr($0, length(head)) }' \
    <<<"$1"
}

fail() {
  echo "FAIL: $*"
  exit 1
}

single=$(row "$("$bin" --num=294912 "${common[@]}")" "4.00")
[ -n "$single" ] || fail "no row for the single tree"
echo "single tree:$single"
for pool in 294912:1 2x294912:1 294912:0.5,294912:0.5; do
  out=$("$bin" --pool="$pool" "${common[@]}")
  for placement in pooled "split evenly"; do
    got=$(row "$out" "4.00, $placement")
    echo "--pool=$pool, $placement:$got"
    [ "$got" = "$single" ] || fail "--pool=$pool $placement differs"
  done
done

# One hot tree: the pooled waste is below the split's in every column.
out=$("$bin" --pool=294912:0.9,3x294912:0.0333 "${common[@]}")
best=$(row "$out" "4.00, pooled" | grep -o '[0-9.]*,' | tr -d ,)
split=$(row "$out" "4.00, split evenly" | grep -o '[0-9.]*,' | tr -d ,)
echo "one hot tree: pooled" $best "split" $split
[ "$(wc -w <<<"$best")" = 4 ] || fail "pooled row"
paste <(echo "$best" | tr ' ' '\n') <(echo "$split" | tr ' ' '\n') |
  awk '{ if (!($1 < $2)) bad = 1 } END { exit bad }' ||
  fail "pooled not below split"
# A Zipfian over the trees, and bad values.
out=$("$bin" --pool=4x294912:1 --pool_zipf=0.99 "${common[@]}")
grep -q "shares of the Gets: 0\.4776 0\.2404 0\.1647 0\.1173" <<<"$out" ||
  fail "--pool_zipf shares"
for bad in --pool=0:1 --pool=10:1:0.5/0.4 --pool=3 --pool_zipf=0.9; do
  if "$bin" "$bad" --budgets=4 >/dev/null 2>&1; then fail "$bad accepted"; fi
done

# --adaptive_gets=N: the wastes of the row "4.00, adaptive" against "4.00".
wastes() { row "$1" "$2" | grep -o '[0-9.]*,' | tr -d ,; }
# Succeeds if every waste x of row $2 and y of row $3 (heads) satisfy the
# awk test $4 on $1 and $2, in all four models.
compare_rows() {
  paste <(wastes "$1" "$2" | tr ' ' '\n') <(wastes "$1" "$3" | tr ' ' '\n') |
    awk -v n=0 "{ n++; if (!($4)) bad = 1 } END { exit bad || n != 4 }"
}
# Every adaptive waste x static waste satisfies the awk test.
compare() { compare_rows "$1" "4.00, adaptive" "4.00" "$2"; }
charged="4.00, static placement, adaptive charge"
# The static placement charged adaptively: between the two bounds.
between() {
  compare_rows "$1" "4.00, adaptive" "$charged" '$1 <= $2' &&
    compare_rows "$1" "$charged" "4.00" '$1 <= $2'
}
plain=$("$bin" --num=294912 "${common[@]}")
grep -q adaptive <<<"$plain" && fail "adaptive rows without the flag"
out=$("$bin" --num=294912 "${common[@]}" --adaptive_gets=1)
echo "adaptive, 1 Get:$(row "$out" "4.00, adaptive")"
[ "$(row "$out" "4.00, adaptive")" = "$(row "$out" "4.00")" ] ||
  fail "adaptive bound for 1 Get differs from the static one"
[ "$(row "$out" "4.00")" = "$single" ] || fail "static row changed"
[ "$(row "$out" "$charged")" = "$single" ] ||
  fail "static placement charged for 1 Get differs from the static row"
[ "$(grep -c "placement at 4.00, .*memory moved 0.0%" <<<"$out")" = 2 ] ||
  fail "placements for 1 Get differ"
out=$("$bin" --num=294912 "${common[@]}" --adaptive_gets=300000)
echo "adaptive, 300000 Gets:$(row "$out" "4.00, adaptive")"
echo "static placement charged:$(row "$out" "$charged")"
grep "^placement at" <<<"$out"
compare "$out" '$1 < $2' || fail "adaptive not below static (Zipfian)"
between "$out" || fail "static placement charged not between the bounds"
grep -q "^placement at 4.00, Ribbon units (static -> adaptive), mean units per segment by level: L0 [0-9.]* -> [0-9.]*; segments with none [0-9]* -> [0-9]* of 36; memory moved [0-9.]*%$" <<<"$out" ||
  fail "no summary of the Ribbon placements"
out=$("$bin" --num=294912 "${common[@]}" --adaptive_gets=1000000000)
compare "$out" '$1 < 0.8 * $2' || fail "adaptive not far below at 1e9 Gets"
between "$out" || fail "static placement charged not between, 1e9 Gets"
out=$("$bin" --num=4000000 --zipf=0.01 --levels=1 --budgets=4 \
  --exact_ranks=1000 --adaptive_gets=1000)
echo "adaptive, uniform, 1000 Gets:$(row "$out" "4.00, adaptive")"
compare "$out" '$1 <= $2 && $1 >= 0.999 * $2' ||
  fail "adaptive not close to static for uniform lookups"
for bad in --adaptive_gets=0 --adaptive_gets=-1 --adaptive_gets=x \
  --adaptive_gets= "--pool=294912:1 --adaptive_gets=10"; do
  # shellcheck disable=SC2086
  if msg=$("$bin" $bad --budgets=4 2>&1 >/dev/null); then
    fail "$bad accepted"
  fi
  grep -q "adaptive_gets" <<<"$msg" || fail "$bad: no message naming it"
done

if [ $# -ge 3 ]; then
  db=$3/filter_bound_pool_db
  rm -rf "$db"
  "$2" --benchmarks=fillunique --num=30000 --elastic_bf=1 \
    --write_buffer_size=262144 --max_file_size=262144 --db="$db" >/dev/null
  flags=(--key_format=readzipf --absent_only=0 --budgets=4
    --exact_ranks=1000000)
  alone=$(row "$("$bin" --num=30000 --db="$db" "${flags[@]}")" "4.00")
  [ -n "$alone" ] || fail "no row for the database"
  echo "database:$alone"
  for pool in "30000:1 $db" "2x30000:1 $db,$db"; do
    out=$("$bin" --pool="${pool% *}" --pool_dbs="${pool#* }" "${flags[@]}")
    for placement in pooled "split evenly"; do
      got=$(row "$out" "4.00, $placement")
      echo "--pool=${pool% *} of the database, $placement:$got"
      [ "$got" = "$alone" ] || fail "--pool_dbs $placement differs"
    done
  done
  out=$("$bin" --num=30000 --db="$db" "${flags[@]}" --adaptive_gets=1)
  [ "$(row "$out" "4.00, adaptive")" = "$alone" ] ||
    fail "adaptive bound of the database for 1 Get differs"
  [ "$(row "$out" "$charged")" = "$alone" ] ||
    fail "static placement charged for 1 Get differs (database)"
  out=$("$bin" --num=30000 --db="$db" "${flags[@]}" --adaptive_gets=100000)
  echo "database, adaptive, 100000 Gets:$(row "$out" "4.00, adaptive")"
  echo "database, static placement charged:$(row "$out" "$charged")"
  grep "^placement at" <<<"$out"
  compare "$out" '$1 < $2' || fail "adaptive not below static (database)"
  between "$out" || fail "static placement charged not between (database)"
fi
echo "filter_bound pool: OK"
