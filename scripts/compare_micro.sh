#!/usr/bin/env bash
# Side-by-side micro-benchmarks: the public-API twin built against the fork
# (NAME) and against Debian's LevelDB 1.23 (NAME_upstream), run alternately
# (fork, upstream, fork, upstream, ...) MICRO_REPS times each, reported as
# one Markdown table of medians.
#
#   bash scripts/compare_micro.sh [BUILD_DIR]     (default build/release)
#
# Environment: MICRO_REPS (default 3), MICRO_MIN_TIME (seconds per
# benchmark and run, default 0.1), MICRO_FILTER (a --benchmark_filter regex).
# Ratio: higher means the fork is better. It is fork/upstream for rates
# (items/s, bytes/s) and upstream/fork for times per operation.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
reps=${MICRO_REPS:-3}
min_time=${MICRO_MIN_TIME:-0.1}
filter=${MICRO_FILTER:-.}
twins=(micro_bench)

bench_dir=$build/benchmarks
for twin in "${twins[@]}"; do
  for exe in "$bench_dir/$twin" "$bench_dir/${twin}_upstream"; do
    if [[ ! -x $exe ]]; then
      echo "error: $exe not built (release build with LEVELDB_UPSTREAM=ON?)" >&2
      exit 1
    fi
  done
done

work=$(mktemp -d "${TMPDIR:-/tmp}/compare_micro.XXXXXX")
trap 'rm -rf "$work"' EXIT
records=$work/records.tsv
: >"$records"

# Appends one run's CSV as records: side, benchmark, metric, value, error.
# The metric is the run's rate when it reports one, else real time per
# iteration in nanoseconds.
csv_to_records() {
  local side=$1 csv=$2
  awk -F, -v side="$side" '
    $1 == "name" { next }
    NF < 9 { next }
    {
      name = $1; gsub(/"/, "", name)
      err = ($9 == "true") ? 1 : 0
      scale["ns"] = 1; scale["us"] = 1e3; scale["ms"] = 1e6; scale["s"] = 1e9
      if ($7 != "")      { metric = "items/s"; value = $7 }
      else if ($6 != "") { metric = "bytes/s"; value = $6 }
      else               { metric = "time";    value = $3 * scale[$5] }
      printf "%s\t%s\t%s\t%.6g\t%d\n", side, name, metric, value, err
    }' "$csv" >>"$records"
}

start=$(date +%s)
for twin in "${twins[@]}"; do
  for ((rep = 1; rep <= reps; rep++)); do
    for side in fork upstream; do
      exe=$bench_dir/$twin
      [[ $side == upstream ]] && exe=${exe}_upstream
      out=$work/$twin.$side.$rep.csv
      echo "running $twin ($side, $rep/$reps)" >&2
      if ! "$exe" --benchmark_format=csv --benchmark_min_time="$min_time" \
        --benchmark_filter="$filter" >"$out" 2>"$out.err"; then
        echo "error: $exe failed:" >&2
        cat "$out.err" >&2
        exit 1
      fi
      csv_to_records "$side" "$out"
    done
  done
done
elapsed=$(($(date +%s) - start))

if [[ ! -s $records ]]; then
  echo "error: the benchmarks reported nothing" >&2
  exit 1
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "## Micro-benchmarks: fork vs upstream LevelDB 1.23"
echo
echo "Median of $reps alternating runs each, min_time ${min_time}s, ${elapsed}s" \
  "in total; ${cpu:-unknown CPU}, $(nproc) cores. Ratio > 1: fork faster."
echo
awk -F'\t' '
  # Median of the space-separated numbers in s.
  function median(s,    a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) a[i] = a[i] + 0
    for (i = 2; i <= n; i++) {
      t = a[i]
      for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
      a[j + 1] = t
    }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function rate(v, unit) {
    if (v >= 1e9) return sprintf("%.2f G%s", v / 1e9, unit)
    if (v >= 1e6) return sprintf("%.2f M%s", v / 1e6, unit)
    if (v >= 1e3) return sprintf("%.2f k%s", v / 1e3, unit)
    return sprintf("%.2f %s", v, unit)
  }
  function show(v, metric) {
    if (metric == "items/s") return rate(v, "items/s")
    if (metric == "bytes/s") return rate(v, "B/s")
    if (v >= 1e6) return sprintf("%.2f ms/op", v / 1e6)
    if (v >= 1e3) return sprintf("%.2f us/op", v / 1e3)
    return sprintf("%.1f ns/op", v)
  }
  {
    key = $2
    if (!(key in metric)) { order[++count] = key; metric[key] = $3 }
    vals[key, $1] = vals[key, $1] " " $4
    if ($5) bad[key] = 1
  }
  END {
    print "| benchmark | fork (median) | upstream (median) | ratio |"
    print "|---|---:|---:|---:|"
    logsum = 0; n = 0
    for (i = 1; i <= count; i++) {
      k = order[i]; m = metric[k]
      if (bad[k] || vals[k, "fork"] == "" || vals[k, "upstream"] == "") {
        printf "| %s | error | error | - |\n", k
        continue
      }
      f = median(vals[k, "fork"]); u = median(vals[k, "upstream"])
      if (f <= 0 || u <= 0) {
        printf "| %s | %s | %s | - |\n", k, show(f, m), show(u, m)
        continue
      }
      r = (m == "time") ? u / f : f / u
      logsum += log(r); n++
      printf "| %s | %s | %s | %.2f |\n", k, show(f, m), show(u, m), r
    }
    if (n > 0) printf "\nGeometric mean of the ratios: %.2f over %d benchmarks.\n", exp(logsum / n), n
  }' "$records"
