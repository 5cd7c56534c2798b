#!/usr/bin/env bash
# Side-by-side db_bench: runs this library's db_bench and db_bench_upstream
# (the same benchmark source linked against the system's LevelDB) in
# alternation, several rounds, and prints a Markdown table of the median
# micros/op of each benchmark plus the peak resident memory of each program.
#
# Usage: benchmarks/compare_upstream.sh [options] [BUILD_DIR]
#   BUILD_DIR            CMake build directory (default: build/release)
#   --rounds=N           rounds per program (default 3)
#   --num=N              entries per run (default 1000000)
#   --value_size=N       bytes per value (default 100)
#   --benchmarks=LIST    main workload (default
#                        fillseq,fillrandom,overwrite,readrandom,readseq,
#                        readreverse,seekrandom)
#   --no-fillsync        skip the separate fillsync run (num/1000 synced
#                        writes, as db_bench always does for fillsync)
#   --keep-output=DIR    also keep every raw db_bench output in DIR
#
# Every run uses a fresh database directory under $TMPDIR.
set -euo pipefail

# shellcheck source=scripts/common.sh disable=SC1091
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/scripts/common.sh"

rounds=3
num=1000000
value_size=100
benchmarks="fillseq,fillrandom,overwrite,readrandom,readseq,readreverse,seekrandom"
with_fillsync=1
keep_output=""
build_dir="build/release"

usage() {
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
}


while (($# > 0)); do
  case "$1" in
    --rounds=*) rounds="${1#*=}"; positive_int --rounds "$rounds" ;;
    --rounds) (($# >= 2)) || die "--rounds needs a value"
      rounds="$2"; positive_int --rounds "$rounds"; shift ;;
    --num=*) num="${1#*=}"; positive_int --num "$num" ;;
    --value_size=*) value_size="${1#*=}"
      positive_int --value_size "$value_size" ;;
    --benchmarks=*) benchmarks="${1#*=}"
      [[ -n "$benchmarks" ]] || die "--benchmarks is empty" ;;
    --no-fillsync) with_fillsync=0 ;;
    --keep-output=*) keep_output="${1#*=}" ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option '$1'" ;;
    *) build_dir="$1" ;;
  esac
  shift
done

fork_bin="$build_dir/benchmarks/db_bench"
upstream_bin="$build_dir/benchmarks/db_bench_upstream"
[[ -x "$fork_bin" ]] || die "$fork_bin not found (build the db_bench target)"
[[ -x "$upstream_bin" ]] ||
  die "$upstream_bin not found (needs Debian's libleveldb-dev at configure time)"

work="$(mktemp -d "${TMPDIR:-/tmp}/compare_upstream.XXXXXX")"
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"
: >"$results"
if [[ -n "$keep_output" ]]; then
  mkdir -p "$keep_output"
fi

# run_db_bench LABEL BINARY RUN_NAME ARGS...: runs one db_bench process on a
# fresh database and appends "label<TAB>benchmark<TAB>micros/op" rows (and a
# "label<TAB>#rss<TAB>KiB" row) to $results.
run_db_bench() {
  local label="$1" binary="$2" run_name="$3"
  shift 3
  local db="$work/db-$label-$run_name"
  local out="$work/out-$label-$run_name.txt"
  rm -rf "$db"
  echo "  $label $run_name" >&2
  if ! "$binary" --db="$db" "$@" >"$out" 2>"$work/stderr.txt"; then
    cat "$work/stderr.txt" >&2
    die "$binary failed (arguments: $*)"
  fi
  rm -rf "$db"
  if [[ -n "$keep_output" ]]; then
    cp "$out" "$keep_output/"
  fi
  # A name repeated within one run (readrandom twice, say) is reported as
  # "name #2" so that its figures are not mixed with the first occurrence.
  awk -v label="$label" '
    $2 == ":" && $4 ~ /^micros\/op;?$/ {
      seen[$1]++
      name = (seen[$1] > 1) ? $1 " #" seen[$1] : $1
      printf "%s\t%s\t%s\n", label, name, $3
    }
    $1 == "Peak" && $2 == "RSS:" { printf "%s\t#rss\t%s\n", label, $3 }
  ' "$out" >>"$results"
}

echo "compare_upstream: $rounds round(s), num=$num, value_size=$value_size" >&2
for ((round = 1; round <= rounds; round++)); do
  echo "round $round/$rounds" >&2
  # Alternate which program goes first so neither always meets a warmer or
  # colder page cache.
  if ((round % 2 == 1)); then
    order="fork upstream"
  else
    order="upstream fork"
  fi
  for label in $order; do
    if [[ "$label" == fork ]]; then binary="$fork_bin"; else binary="$upstream_bin"; fi
    run_db_bench "$label" "$binary" "main-$round" --num="$num" \
      --value_size="$value_size" --benchmarks="$benchmarks"
    if ((with_fillsync)); then
      run_db_bench "$label" "$binary" "fillsync-$round" --num="$num" \
        --value_size="$value_size" --benchmarks=fillsync
    fi
  done
done

# Medians per benchmark, in the order the benchmarks first appeared.
awk -F '\t' -v rounds="$rounds" -v num="$num" -v value_size="$value_size" '
  function median(list,    n, i, j, v, tmp) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) {      # insertion sort, numerically
      tmp = v[i] + 0
      for (j = i - 1; j >= 1 && v[j] + 0 > tmp; j--) v[j + 1] = v[j]
      v[j + 1] = tmp
    }
    if (n == 0) return ""
    if (n % 2 == 1) return v[(n + 1) / 2] + 0
    return (v[n / 2] + v[n / 2 + 1]) / 2
  }
  {
    if ($2 == "#rss") {
      if (!($1 in rss) || $3 + 0 > rss[$1]) rss[$1] = $3 + 0
      next
    }
    if (!($2 in known)) { known[$2] = 1; order[++count] = $2 }
    values[$1, $2] = values[$1, $2] " " $3
  }
  END {
    printf "db_bench, %d round(s), --num=%d, --value_size=%d " \
           "(fillsync: num/1000 synced writes)\n\n", rounds, num, value_size
    print "| benchmark | fork micros/op (median) | upstream micros/op (median) | ratio (upstream/fork, >1 means fork faster) |"
    print "|---|---:|---:|---:|"
    for (i = 1; i <= count; i++) {
      b = order[i]
      f = median(values["fork", b])
      u = median(values["upstream", b])
      ratio = (f != "" && u != "" && f > 0) ? sprintf("%.2f", u / f) : "n/a"
      printf "| %s | %s | %s | %s |\n", b,
             (f == "" ? "n/a" : sprintf("%.3f", f)),
             (u == "" ? "n/a" : sprintf("%.3f", u)), ratio
    }
    fr = ("fork" in rss) ? rss["fork"] / 1024 : 0
    ur = ("upstream" in rss) ? rss["upstream"] / 1024 : 0
    printf "| peak RSS, MiB (max over runs; ratio >1 means fork smaller) | %.1f | %.1f | %s |\n",
           fr, ur, (fr > 0 ? sprintf("%.2f", ur / fr) : "n/a")
  }
' "$results"
