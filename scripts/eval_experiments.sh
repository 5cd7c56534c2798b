#!/usr/bin/env bash
# The experiments recorded in eval/ that scripts/eval_readpath.sh and
# scripts/evaluate.sh do not run, as they were run: each is a loop over
# rounds, systems and settings of scripts/eval_run.sh (one run each).
# Their records (results, logs) are in eval/<experiment>/.
#
# Usage: scripts/eval_experiments.sh [options] EXPERIMENT [ARGS...]
#   --build_dir=DIR    CMake build directory (default $LEVELDB_RELEASE_DIR
#                      or build/release)
#   --eval_dir=DIR     where the databases live, on the real disk (default
#                      $EVAL_DIR or build/eval); each experiment keeps its own
#                      folder there (<eval_dir>/eval/<name>)
#   --logs=DIR         where the logs go (default eval/<experiment>/logs)
#   --rounds=N         rounds, for the experiments that repeat
#   --reads=N          lookups per run, for the experiments that take it
#   --dry_run          print the commands, run nothing
# Experiments that compare builds of other commits take those builds from
# the environment: BASE_BUILD, HEAD_BUILD, OTHER_BUILD (each a CMake build
# directory; the experiment's results file names the commit).
#
# Experiments (the eval/ folder in brackets):
#   buffered-2m                 reads from the page cache [buffered-2m]
#   all-open                    every table open, reads after the load,
#                               BASE_BUILD against HEAD_BUILD [filter-layer]
#   settled TAG BITS [FLAGS]    one settled run: 4M keys, fillunique, settle,
#                               readzipf at BITS bits per key [filter-layer,
#                               ribbon-4m, ribbon-shapes-4m]
#   ribbon-shapes               the settled runs of ribbon-shapes-4m
#   cg-tree NAME FLAGS...       2M keys loaded and compacted into one level
#                               for the callgrind runs (kept if present)
#   cg-get NAME TAG READS BENCH FLAGS...  instructions inside DBImpl::Get
#                               on cg-tree NAME
#   callgrind                   fork against ElasticBF, 10 bits [filter-layer]
#   threads                     1-16 client threads [filter-layer]
#   ribbon-cg                   Ribbon against Bloom units [ribbon-4m]
#   ribbon-cost                 DBImpl::Get and unit probes [ribbon-cost]
#   load                        load throughput and CPU [load]
#   locality                    locality workloads at 3 GB [locality-24m]
#   inherit                     hotness inheritance off/on [inherit-3gb]
#   shape-budget                unit shape against budget [shape-budget-4m]
#   tuning                      lifetime and initial units [tuning-4m]
#   mixes-defaults              YCSB mixes with the defaults [defaults-3gb]
#   mixed-2m TAG on|off         one 50/50 run at 2M records [mixed-2m]
#   aging AGING                 read-only check of count aging [mixed-2m]
#   mixed-final                 50/50 and 90/10 at 3 GB [mixed-final]
#   mixed-long                  long 50/50 mix [mixed-long]
#   mixed-split                 inheritance off/on, own loads [mixed-split]
#   ycsb-c                      workload C, three systems [ycsb-c]
#   ycsb-c-latency              workload C and db_bench blockreads [ycsb-c-latency]
#   ycsb-c-final                workload C, four systems [ycsb-c-final]
#   ycsb-c-summary              the Markdown table of ycsb-c-final's logs
# Settings of single experiments come from the environment as before:
# SHAPE, SYSTEMS, WORKLOADS (locality), PARTS, LOC_LOAD, YCSB_LOAD
# (inherit), SHAPES, BUDGETS (shape-budget), BUDGET, ROCKS_BITS (ycsb-c*),
# UP_LOAD, EBF_LOAD, ROCKS_LOAD (the loads the workload-C and mixed runs
# copy, under <eval_dir>), each with the default of the recorded run.

# Flag lists held in strings are split on purpose: no flag has a space.
# shellcheck disable=SC2046,SC2086
set -euo pipefail

LEVELDB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/common.sh disable=SC1091
source "$LEVELDB_ROOT/scripts/common.sh"

build_dir=${LEVELDB_RELEASE_DIR:-$LEVELDB_ROOT/build/release}
eval_dir=${EVAL_DIR:-$LEVELDB_ROOT/build/eval}
logs=""
rounds=""
reads=""
dry_run=0

while (($# > 0)); do
  case $1 in
    --dry_run) dry_run=1 ;;
    --rounds=*) rounds=${1#*=}; positive_int --rounds "$rounds" ;;
    --reads=*) reads=${1#*=}; positive_int --reads "$reads" ;;
    --logs=*) logs=${1#*=} ;;
    --build_dir=*) build_dir=${1#*=} ;;
    --eval_dir=*) eval_dir=${1#*=} ;;
    -h|--help) header_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    --*) die "unknown option '$1' (--help lists them)" ;;
    *) break ;;
  esac
  shift
done
(($# > 0)) || die "no EXPERIMENT given (--help lists them)"
experiment=$1
shift
cd "$LEVELDB_ROOT"

# Where each experiment's logs were kept.
declare -A folder=([buffered-2m]=buffered-2m [all-open]=filter-layer/all-open
  [settled]=filter-layer/all-open-settled [ribbon-shapes]=ribbon-shapes-4m
  [callgrind]=filter-layer/callgrind [cg-tree]=filter-layer/callgrind
  [cg-get]=filter-layer/callgrind [threads]=filter-layer/threads
  [ribbon-cg]=ribbon-4m [ribbon-cost]=ribbon-cost [load]=load
  [locality]=locality-24m [inherit]=inherit-3gb [shape-budget]=shape-budget-4m
  [tuning]=tuning-4m [mixes-defaults]=defaults-3gb/mixes [mixed-2m]=mixed-2m
  [aging]=mixed-2m [mixed-final]=mixed-final [mixed-long]=mixed-long
  [mixed-split]=mixed-split [ycsb-c]=ycsb-c [ycsb-c-latency]=ycsb-c-latency
  [ycsb-c-final]=ycsb-c-final [ycsb-c-summary]=ycsb-c-final)
[[ -n ${folder[$experiment]+x} ]] ||
  die "unknown experiment '$experiment' (--help lists them)"
L=${logs:-eval/${folder[$experiment]}/logs}

# One run; the options before PROGRAM are scripts/eval_run.sh's.
step() {
  local dry=()
  ((dry_run)) && dry=(--dry_run)
  bash "$LEVELDB_ROOT/scripts/eval_run.sh" "--build_dir=$build_dir" \
    "--eval_dir=$eval_dir" "${dry[@]}" "$@"
}
# A build of another commit, named by the environment: need VAR checks it
# (a die inside $(...) would end only the subshell), other VAR is its option.
need() {
  [[ -n ${!1:-} ]] || die "$experiment needs $1 (a build directory; see its results)"
}
other() { echo "--build_dir=${!1}"; }
# The instructions callgrind counted in a log (0 in a dry run).
collected() {
  if ((dry_run)); then echo 0; return; fi
  grep -o 'Collected : [0-9]*' "$1" | grep -o '[0-9]*$'
}

# The YCSB records of the 3 GB experiments (24M records).
Y3=(--preset=ycsb ycsb -p recordcount=24000000)
MIX=(-P benchmarks/ycsb/workloads/workloada.spec -p writeallfields=true
  -p zerolookupproportion=0.5 -run)
WC=(-P benchmarks/ycsb/workloads/workloadc.spec -p operationcount=200000)

exp_buffered-2m() {
  local s r b
  sys() {
    case $1 in
      upstream) echo "db_bench_upstream --bloom_bits=10" ;;
      fork) echo "db_bench --bloom_bits=10" ;;
      elasticbf) echo "db_bench --elastic_bf=1 --bf_memory_bits_per_key=10" ;;
    esac
  }
  for s in upstream fork elasticbf; do
    step --scratch=eval/buf --db=$s --fresh --strip_progress \
      --log="$L/load-$s.log" $(sys $s) --benchmarks=fillrandom --num=2000000 \
      --value_size=100
    step --scratch=eval/buf --db=$s --strip_progress \
      --log="$L/compact-$s.log" $(sys $s) --benchmarks=compact,stats \
      --use_existing_db=1 --num=2000000
  done
  for r in 1 2 3; do
    for b in readrandom readmissing; do
      for s in upstream fork elasticbf; do
        step --scratch=eval/buf --db=$s --strip_progress \
          --log="$L/r$r-$b-$s.log" $(sys $s) --benchmarks=$b \
          --use_existing_db=1 --num=2000000 --reads=1000000
      done
    done
  done
  # Debian's library does not export DBImpl::Get: the fork's builds only.
  for s in fork elasticbf; do
    for b in readrandom readmissing; do
      step --scratch=eval/buf --db=$s --callgrind="cg-$b-$s.out" \
        --log="$L/callgrind-$b-$s.log" $(sys $s) --benchmarks=$b \
        --use_existing_db=1 --num=2000000 --reads=100000
    done
  done
}

exp_all-open() {
  local r v
  need BASE_BUILD
  need HEAD_BUILD
  for r in 1 2; do
    for v in BASE_BUILD HEAD_BUILD; do
      step --scratch=eval/openall-base --db=db --fresh $(other $v) \
        --log="$L/r$r-${v%_BUILD}.log" --preset=readpath db_bench \
        --benchmarks=fillunique,readzipf --num=4000000 --reads=100000 \
        --elastic_bf=1 --bf_memory_bits_per_key=4
    done
  done
}

# settled TAG BITS [FLAGS...]: HEAD_BUILD if set, else --build_dir.
exp_settled() {
  (($# >= 2)) || die "settled needs TAG BITS [FLAGS...]"
  local tag=$1 bits=$2 b=()
  shift 2
  [[ -n ${HEAD_BUILD:-} ]] && b=("--build_dir=$HEAD_BUILD")
  step --scratch=eval/reg --db="db-$tag" --fresh --remove_after "${b[@]}" \
    --log="$L/$tag.log" --preset=readpath db_bench \
    --benchmarks=fillunique,settle,readzipf --num=4000000 --reads=100000 \
    --elastic_bf=1 --bf_memory_bits_per_key="$bits" "$@"
}

exp_ribbon-shapes() {
  local r
  for r in 1 2; do
    exp_settled "bloom46-r$r" 4 --bf_unit_kind=bloom
    exp_settled "rib46-r$r" 4 --bf_unit_kind=ribbon
    exp_settled "rib38-r$r" 4 --bf_unit_kind=ribbon --bf_bits_per_unit=3 --bf_units=8
    exp_settled "rib212-r$r" 4 --bf_unit_kind=ribbon --bf_bits_per_unit=2 --bf_units=12
  done
}

# cg-tree NAME FLAGS...: the database NAME (kept once made).
exp_cg-tree() {
  local name=$1
  shift
  if ((dry_run == 0)) && [[ -d $eval_dir/eval/cg/$name ]]; then return 0; fi
  step --scratch=eval/cg --db="$name" --fresh --log="$L/load-$name.log" \
    db_bench "$@" --benchmarks=fillrandom --num=2000000 --value_size=100
  step --scratch=eval/cg --db="$name" --log="$L/compact-$name.log" \
    db_bench "$@" --benchmarks=compact,stats --use_existing_db=1 --num=2000000
}
# cg-get NAME TAG READS BENCH FLAGS...
exp_cg-get() {
  local name=$1 tag=$2 n=$3 bench=$4
  shift 4
  step --scratch=eval/cg --db="$name" --callgrind="cg-$tag.out" \
    --log="$L/callgrind-$tag.log" db_bench "$@" --benchmarks="$bench" \
    --use_existing_db=1 --num=2000000 --reads="$n"
}

exp_callgrind() {
  local fork=(--bloom_bits=10) ebf=(--elastic_bf=1 --bf_memory_bits_per_key=10)
  local b
  exp_cg-tree fork "${fork[@]}"
  exp_cg-tree elasticbf "${ebf[@]}"
  for b in readrandom readmissing; do
    exp_cg-get fork "$b-fork" 100000 "$b" "${fork[@]}"
    exp_cg-get elasticbf "$b-elasticbf" 100000 "$b" "${ebf[@]}"
  done
  # The first opens of the tables spread over 10x more Gets.
  exp_cg-get fork long-fork 1000000 readrandom "${fork[@]}"
  exp_cg-get elasticbf long-elasticbf 1000000 readrandom "${ebf[@]}"
}

exp_threads() {
  local n=${reads:-20000} r t s
  local common=(--num=4000000 --value_size=112 --seed=0 --zipf=0.99
    --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0)
  local lv=(--max_file_size=67108864 --open_files=100000 --io_stats=1)
  sys() {
    case $1 in
      a) echo "db_bench_upstream ${common[*]} ${lv[*]} --bloom_bits=4" ;;
      d) echo "db_bench ${common[*]} ${lv[*]} --elastic_bf=1 --bf_memory_bits_per_key=4" ;;
      e) echo "rocksdb_readpath ${common[*]} --bloom_bits=4 --target_file_size_base=67108864" ;;
    esac
  }
  for s in a d e; do
    step --scratch=eval/threads --db="db-$s" --fresh --sync \
      --log="$L/load-$s.log" $(sys $s) --benchmarks=fillunique,settle
  done
  for r in 1 2 3; do
    for t in 1 4 8 16; do
      for s in a d e; do
        step --scratch=eval/threads --db="db-$s" --log="$L/r$r-t$t-$s.log" \
          $(sys $s) --use_existing_db=1 --benchmarks=readzipf --threads=$t \
          --reads="$n"
      done
    done
  done
}

exp_ribbon-cg() {
  local r k db
  for r in 1 2 3; do
    exp_settled "rbloom-r$r" 4 --bf_unit_kind=bloom
    exp_settled "rribbon-r$r" 4 --bf_unit_kind=ribbon
  done
  for k in ribbon bloom; do
    db=ribbon
    [[ $k == bloom ]] && db=elasticbf
    exp_cg-tree "$db" --elastic_bf=1 --bf_memory_bits_per_key=10 --bf_unit_kind=$k
    exp_cg-get "$db" "kind-$k" 200000 readrandom --elastic_bf=1 \
      --bf_memory_bits_per_key=10 --bf_unit_kind=$k
  done
}

exp_ribbon-cost() {
  local k b n x pr u n0
  # The default shape of the time (2 x 12), 10 bits per key of budget.
  for k in ribbon bloom; do
    exp_cg-tree "$k-212" --elastic_bf=1 --bf_memory_bits_per_key=10 --bf_unit_kind=$k
  done
  for b in readrandom readmissing; do
    n=200000
    [[ $b == readmissing ]] && n=100000
    for k in ribbon bloom; do
      exp_cg-get "$k-212" "16-$b-$k" $n $b --elastic_bf=1 \
        --bf_memory_bits_per_key=10 --bf_unit_kind=$k
    done
  done
  # Every unit loaded (100 bits per key; settle waits for the loads).
  for k in ribbon bloom; do
    exp_cg-get "$k-212" "all-$k" 200000 settle,readrandom --elastic_bf=1 \
      --bf_memory_bits_per_key=100 --bf_unit_kind=$k
  done
  # One unit probe: the instructions of 2M probes less those of 1M.
  ir() {
    local tag=$1
    shift
    step --no_db --callgrind=/dev/null --toggle= --log="$L/probe-$tag.log" \
      filter_bench "$@" >/dev/null
    collected "$L/probe-$tag.log"
  }
  for pr in 0 1; do
    x=$(($(ir "none-1-$pr" --count_probes=2000000 --kind=none --present=$pr) -
      $(ir "none-0-$pr" --count_probes=1000000 --kind=none --present=$pr)))
    n0=$x
    echo "none present=$pr per-iter $((x / 1000000))"
    for k in ribbon bloom; do
      for u in 1 6; do
        x=$(($(ir "$k$u-1-$pr" --count_probes=2000000 --kind=$k --units=$u --present=$pr) -
          $(ir "$k$u-0-$pr" --count_probes=1000000 --kind=$k --units=$u --present=$pr)))
        echo "$k units=$u present=$pr per-probe-total $((x / 1000000)) minus-none $(((x - n0) / 1000000))"
      done
    done
  done
}

exp_load() {
  local keys r s x c
  c=(--benchmarks=fillunique --value_size=112 --seed=0 --direct_io=1
    --fill_cache=0 --max_file_size=67108864 --open_files=100000)
  # Fork Bloom 4 (b) against ElasticBF (c), alternating rounds.
  for keys in 4000000 2000000; do
    for r in $(seq 1 "${rounds:-3}"); do
      for s in b c; do
        x=--elastic_bf=1
        [[ $s == b ]] && x=--bloom_bits=4
        step --scratch=eval/loadcmp --db=db --fresh --remove_after \
          --time="cpu $r $s" --log="$L/$s-$keys-r$r.log" db_bench "${c[@]}" \
          --num=$keys $x
      done
    done
  done
  # Instructions of every thread for a 150k-key load.
  for s in b c; do
    x=--elastic_bf=1
    [[ $s == b ]] && x=--bloom_bits=4
    step --scratch=eval/loadcmp --db="cg-db-$s" --fresh --callgrind="cg-$s.out" \
      --toggle= --log="$L/cg-$s.log" db_bench "${c[@]}" --num=150000 \
      --io_stats=1 $x
  done
}

# The locality runs: SHAPE (planes x units of ElasticBF, default 1x16).
exp_locality() {
  local shape=${SHAPE:-1x16} n=${reads:-300000} r w s sys_list wl
  local bits=${shape%x*} units=${shape#*x}
  read -r -a sys_list <<<"${SYSTEMS:-upstream elasticbf}"
  read -r -a wl <<<"${WORKLOADS:-ozipf hotspot latest zipf}"
  sys() {
    case $1 in
      upstream) echo "db_bench_upstream --bloom_bits=4" ;;
      elasticbf) echo "db_bench --elastic_bf=1 --bf_memory_bits_per_key=4 --bf_bits_per_unit=$bits --bf_units=$units" ;;
    esac
  }
  load() { if [[ $1 == elasticbf ]]; then echo "load-$1-$shape"; else echo "load-$1"; fi; }
  for s in "${sys_list[@]}"; do
    if ((dry_run == 0)) && [[ -d $eval_dir/eval/loc/$(load $s) ]]; then continue; fi
    step --scratch=eval/loc --db="$(load $s)" --fresh \
      --log="$L/$(load $s).log" --preset=readpath $(sys $s) --num=24000000 \
      --reads="$n" --benchmarks=fillunique &
  done
  wait
  for r in $(seq 1 "${rounds:-1}"); do
    for w in "${wl[@]}"; do
      for s in "${sys_list[@]}"; do
        step --scratch=eval/loc --from="$(load $s)" --workload="$w" \
          --log="$L/r$r-$w-$s.log" --preset=readpath $(sys $s) \
          --num=24000000 --reads="$n" --use_existing_db=1
        [[ $s == elasticbf ]] || continue
        step --scratch=eval/loc --workload="$w" --log="$L/r$r-$w-bound.log" \
          filter_bound --key_format=readzipf --num=24000000 \
          --segment_keys=$((32768 / bits)) --bits_per_unit="$bits" \
          --units_per_segment="$units" --absent_only=0 --budgets=4 || true
      done
    done
  done
}

exp_inherit() {
  local n=${reads:-300000} loc=${LOC_LOAD:-eval/loc/load-elasticbf}
  local ycsb=${YCSB_LOAD:-eval/ycsbc/load-elasticbf} r p w i mix name rd up
  local parts db
  read -r -a parts <<<"${PARTS:-locality mixes readpath}"
  db=(--preset=readpath db_bench --num=24000000 --reads="$n" --elastic_bf=1
    --bf_memory_bits_per_key=4)
  for r in $(seq 1 "${rounds:-1}"); do
    for p in "${parts[@]}"; do
      case $p in
        locality)
          for w in ozipf hotspot latest zipf; do
            for i in 0 1; do
              step --scratch=eval/inherit --from="$loc" --sync --workload="$w" \
                --log="$L/r$r-$w-inherit$i.log" "${db[@]}" \
                --bf_inherit_hotness=$i --use_existing_db=1
            done
          done ;;
        mixes)
          for mix in "50 0.50 0.50" "90 0.90 0.10"; do
            read -r name rd up <<<"$mix"
            for i in false true; do
              step --scratch=eval/inherit --from="$ycsb" --sync \
                --log="$L/r$r-mix$name-inherit-$i.log" "${Y3[@]}" \
                -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4 \
                -p leveldb.bf_inherit_hotness=$i "${MIX[@]}" \
                -p readproportion="$rd" -p updateproportion="$up" \
                -p operationcount=2000000
            done
          done ;;
        readpath)
          for i in 0 1; do
            step --scratch=eval/inherit --fresh \
              --log="$L/r$r-readpath-inherit$i.log" "${db[@]}" \
              --bf_inherit_hotness=$i --benchmarks=fillunique,readzipf
          done ;;
        *) die "PARTS: unknown part '$p'" ;;
      esac
    done
  done
}

exp_shape-budget() {
  local n=${reads:-100000} r b s shapes budgets
  read -r -a shapes <<<"${SHAPES:-1x16 2x12 3x8 4x6 6x4}"
  read -r -a budgets <<<"${BUDGETS:-1 2 3 4 6 8 12}"
  shape() { echo "--bf_bits_per_unit=${1%x*} --bf_units=${1#*x}"; }
  local c=(--preset=readpath db_bench --num=4000000 --reads="$n" --elastic_bf=1
    --bf_unit_kind=ribbon)
  for s in "${shapes[@]}"; do
    if ((dry_run == 0)) && [[ -d $eval_dir/eval/shape-budget/load-$s ]]; then continue; fi
    step --scratch=eval/shape-budget --db="load-$s" --fresh \
      --log="$L/load-$s.log" "${c[@]}" $(shape "$s") \
      --benchmarks=fillunique,settle
  done
  for r in $(seq 1 "${rounds:-1}"); do
    for b in "${budgets[@]}"; do
      for s in "${shapes[@]}"; do
        step --scratch=eval/shape-budget --from="load-$s" --sync \
          --log="$L/r$r-b$b-$s.log" "${c[@]}" $(shape "$s") \
          --bf_memory_bits_per_key="$b" --use_existing_db=1 --benchmarks=readzipf
      done
    done
  done
  # Instructions per Get inside DBImpl::Get, 30k Gets, budgets 4 and 8.
  for s in 1x16 2x12 3x8; do
    for b in 4 8; do
      step --scratch=eval/shape-budget --from="load-$s" \
        --callgrind="cg-$s-b$b.out" --toggle='leveldb::DBImpl::Get*' \
        --log="$L/cg-$s-b$b.log" "${c[@]}" --reads=30000 $(shape "$s") \
        --bf_memory_bits_per_key=$b --use_existing_db=1 --benchmarks=readzipf
    done
  done
}

exp_tuning() {
  local r s c
  c=(--preset=readpath db_bench --num=4000000 --reads="${reads:-100000}"
    --elastic_bf=1 --bf_memory_bits_per_key=4 --use_existing_db=1
    --benchmarks=readzipf)
  one() {  # one LOAD LOG FLAGS...
    local load=$1 log=$2
    shift 2
    step --scratch=eval/tuning --from="$load" --sync --log="$log" "$@"
  }
  for r in $(seq 1 "${rounds:-2}"); do
    for s in --bf_lifetime=0 --bf_lifetime=40 --bf_lifetime=700 \
      --bf_lifetime=2800 --bf_initial_units=0 --bf_initial_units=2 \
      --bf_initial_units=4; do
      one eval/shape-budget/load-1x16 "$L/r$r${s#--bf}.log" "${c[@]}" "$s"
    done
  done
  # The single follow-up runs.
  for s in "init3 --bf_initial_units=3" "init6 --bf_initial_units=6" \
    "init16 --bf_initial_units=16" "life20 --bf_lifetime=20" \
    "life80 --bf_lifetime=80" "init4-life40 --bf_initial_units=4 --bf_lifetime=40" \
    "init4-life80 --bf_initial_units=4 --bf_lifetime=80" \
    "init4-300k --bf_initial_units=4 --reads=300000" "init1-300k --reads=300000" \
    "life40-300k --bf_lifetime=40 --reads=300000"; do
    set -- $s
    one eval/shape-budget/load-1x16 "$L/x-$1.log" "${c[@]}" "${@:2}"
  done
  # At 24M keys on the 1 x 16 load of the locality runs.
  for s in "zipf-init4 zipf --bf_initial_units=4" "zipf-life180 zipf --bf_lifetime=180" \
    "ozipf-init4 ozipf --bf_initial_units=4" "zipf-init2 zipf --bf_initial_units=2" \
    "ozipf-life180 ozipf --bf_lifetime=180"; do
    set -- $s
    one eval/loc/load-elasticbf-1x16 "${L}-24m/$1.log" --workload="$2" \
      --preset=readpath db_bench --num=24000000 --reads=300000 --elastic_bf=1 \
      --bf_memory_bits_per_key=4 --use_existing_db=1 "${@:3}"
  done
}

exp_mixes-defaults() {
  local mix name rd up
  for mix in "50 0.50 0.50" "90 0.90 0.10"; do
    read -r name rd up <<<"$mix"
    step --scratch=eval/mix18d --db="end-$name" --from=eval/ycsb18d/load-elasticbf \
      --sync --log="$L/mix$name.log" "${Y3[@]}" -p leveldb.elastic_bf=true \
      -p leveldb.bf_memory_bits_per_key=4 "${MIX[@]}" -p readproportion="$rd" \
      -p updateproportion="$up" -p operationcount=2000000
    step --scratch=eval/mix18d --db="end-$name" --no_db \
      --log="$L/bound$name.log" filter_bound \
      "--ycsb_db=$eval_dir/eval/mix18d/end-$name" --segment_keys=32768 \
      --bits_per_unit=1 --units_per_segment=16 --budgets=4
  done
}

exp_mixed-2m() {
  if (($# != 2)) || [[ ! $2 =~ ^(on|off)$ ]]; then
    die "mixed-2m needs TAG on|off"
  fi
  local x=()
  [[ $2 == off ]] && x=(-p leveldb.bf_inherit_hotness=false)
  step --scratch=eval/small --db="run-$1-$2" --from=load-on --remove_after \
    --log="$L/$1-$2.log" --preset=ycsb ycsb -p recordcount=2000000 \
    -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4 "${x[@]}" \
    "${MIX[@]}" -p operationcount=1000000 -p readproportion=0.5 \
    -p updateproportion=0.5
}

# aging AGING: HEAD_BUILD is the build with MQ_AGING (see its results).
exp_aging() {
  (($# == 1)) || die "aging needs AGING"
  need HEAD_BUILD
  MQ_AGING=$1 step --scratch=eval/small --db="ro-run-$1" --from=ro-load \
    --remove_after $(other HEAD_BUILD) --log="$L/ro-$1.log" --preset=readpath \
    db_bench --benchmarks=readzipf --use_existing_db=1 --num=2000000 \
    --reads=100000 --elastic_bf=1 --bf_memory_bits_per_key=4
}

exp_mixed-final() {
  local ebf=(-p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4)
  local off=(-p leveldb.bf_inherit_hotness=false) r
  mix() {  # mix NAME LOAD READS UPDATES PROGRAM FLAGS...
    local name=$1 load=$2 rd=$3 up=$4
    shift 4
    step --scratch=eval/s3 --from="$load" --log="$L/$name.log" --preset=ycsb \
      "$@" -p recordcount=24000000 "${MIX[@]}" -p readproportion="$rd" \
      -p updateproportion="$up" -p operationcount=2000000
  }
  if ((dry_run)) || [[ ! -d $eval_dir/eval/s3/load ]]; then
    step --scratch=eval/s3 --db=load --log="$L/load.log" "${Y3[@]}" "${ebf[@]}" \
      "${WC[@]}" -p operationcount=0 -load -fresh
  fi
  for r in 1 2 3; do
    mix "r$r-50-off" load 0.50 0.50 ycsb "${ebf[@]}" "${off[@]}"
    mix "r$r-50-on" load 0.50 0.50 ycsb "${ebf[@]}"
  done
  mix r1-90-off load 0.90 0.10 ycsb "${ebf[@]}" "${off[@]}"
  mix r1-90-on load 0.90 0.10 ycsb "${ebf[@]}"
  mix r1-50-upstream "$UP_LOAD" 0.50 0.50 ycsb_upstream -p leveldb.bloom_bits=4
  mix r1-90-upstream "$UP_LOAD" 0.90 0.10 ycsb_upstream -p leveldb.bloom_bits=4
}

exp_mixed-long() {
  local r s x load
  for r in 1 2; do
    for s in noinherit inherit; do
      x=()
      load="load-elasticbf"
      if [[ $s == noinherit ]]; then
        x=(-p leveldb.bf_inherit_hotness=false)
        load="load-elasticbf-noinherit"
      fi
      step --scratch=eval/mixed-long --from="$load" \
        --log="$L/r$r-$s.log" "${Y3[@]}" -p leveldb.elastic_bf=true \
        -p leveldb.bf_memory_bits_per_key=4 "${x[@]}" -p status.interval=30 \
        "${MIX[@]}" -p operationcount=2000000 -p readproportion=0.50 \
        -p updateproportion=0.50
    done
  done
}

exp_mixed-split() {
  local s r x
  flags() { if [[ $1 == off ]]; then echo "-p leveldb.bf_inherit_hotness=false"; fi; }
  local c=("${Y3[@]}" -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4)
  for s in off on; do
    if ((dry_run == 0)) && [[ -d $eval_dir/eval/mixed-split/load-$s ]]; then continue; fi
    step --scratch=eval/mixed-split --db="load-$s" --log="$L/load-$s.log" \
      "${c[@]}" $(flags $s) "${WC[@]}" -p operationcount=0 -load -fresh
  done
  x=(-p operationcount=2000000 -p readproportion=0.50 -p updateproportion=0.50)
  for r in 1 2; do
    for s in off on; do
      step --scratch=eval/mixed-split --from="load-$s" --log="$L/r$r-$s.log" \
        "${c[@]}" $(flags $s) "${MIX[@]}" "${x[@]}"
    done
  done
  # Inheritance off on a copy of the inheritance-on load.
  step --scratch=eval/mixed-split --from=load-on --log="$L/r3-off-sameload.log" \
    "${c[@]}" -p leveldb.bf_inherit_hotness=false "${MIX[@]}" "${x[@]}"
}

# The workload-C systems: BUDGET is upstream's measured filter bytes.
wc_sys() {
  case $1 in
    upstream) echo "ycsb_upstream -p leveldb.bloom_bits=4" ;;
    elasticbf|after) echo "ycsb -p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes=${BUDGET:-19441566}" ;;
    before) echo "$(other OTHER_BUILD) ycsb -p leveldb.elastic_bf=true -p leveldb.bf_memory_budget_bytes=${BUDGET:-19441566}" ;;
    rocksdb) echo "ycsb_rocksdb -p leveldb.bloom_bits=${ROCKS_BITS:-6}" ;;
    *) die "unknown system '$1'" ;;
  esac
}
UP_LOAD=${UP_LOAD:-eval/up/load}
EBF_LOAD=${EBF_LOAD:-eval/s3/load}
ROCKS_LOAD=${ROCKS_LOAD:-eval/rk/load}
# wc_run SCRATCH LOAD LOG SYSTEM [STEP OPTIONS]
wc_run() {
  local scratch=$1 load=$2 log=$3 s=$4
  shift 4
  local sys
  read -r -a sys <<<"$(wc_sys "$s")"
  if [[ ${sys[0]} == --build_dir=* ]]; then
    step "${sys[0]}" --scratch="$scratch" --from="$load" --log="$log" "$@" \
      --preset=ycsb "${sys[1]}" -p recordcount=24000000 "${sys[@]:2}" \
      "${WC[@]}" -run
  else
    step --scratch="$scratch" --from="$load" --log="$log" "$@" --preset=ycsb \
      "${sys[0]}" -p recordcount=24000000 "${sys[@]:1}" "${WC[@]}" -run
  fi
}

exp_ycsb-c() {
  local s r sys
  for s in upstream elasticbf rocksdb; do
    if ((dry_run == 0)) && [[ -d $eval_dir/eval/ycsbc/load-$s ]]; then continue; fi
    read -r -a sys <<<"$(wc_sys $s)"
    step --scratch=eval/ycsbc --db="load-$s" --log="$L/load-$s.log" \
      --preset=ycsb "${sys[0]}" -p recordcount=24000000 "${sys[@]:1}" \
      "${WC[@]}" -load -fresh &
  done
  wait
  # Upstream's filter memory as loaded (what BUDGET should equal).
  step --scratch=eval/ycsbc --db=measure --from=load-upstream --remove_after \
    --show='^filter blocks in' --log="$L/measure-upstream.log" \
    db_bench_upstream --use_existing_db=1 --benchmarks=readzipf --reads=1 \
    --num=24000000 --io_stats=1 --open_files=100000 --bloom_bits=4 || true
  for r in 1 2 3; do
    for s in upstream elasticbf rocksdb; do
      wc_run eval/ycsbc "load-$s" "$L/r$r-$s.log" $s
    done
  done
}

exp_ycsb-c-latency() {
  local r
  for r in 1 2 3; do
    wc_run eval/cl "$UP_LOAD" "$L/r$r-upstream.log" upstream
    wc_run eval/cl "$EBF_LOAD" "$L/r$r-elasticbf.log" elasticbf
    step --scratch=eval/cl --show=. --log="$L/r$r-read-latency.log" \
      db_bench --benchmarks=blockreads --reads=20000 --seed="$r"
  done
}

exp_ycsb-c-final() {
  local r s
  [[ " ${SYSTEMS:-before} " != *" before "* ]] || need OTHER_BUILD
  for r in $(seq 1 "${rounds:-3}"); do
    for s in ${SYSTEMS:-upstream before after rocksdb}; do
      case $s in
        upstream) wc_run eval/cl "$UP_LOAD" "$L/r$r-$s.log" $s --sync ;;
        before|after) wc_run eval/cl "$EBF_LOAD" "$L/r$r-$s.log" $s --sync ;;
        rocksdb) wc_run eval/cl "$ROCKS_LOAD" "$L/r$r-$s.log" $s --sync ;;
        *) die "unknown system '$s'" ;;
      esac
    done
  done
}

# The Markdown tables of eval/ycsb-c-final/results.md from its logs.
exp_ycsb-c-summary() {
  local systems=(upstream before after rocksdb) r s row u b a k m rd c
  ops() { awk '/operations in/ {print $(NF-3)}' "$1"; }
  rds() { awk '/client read syscalls/ {gsub(/\(/, "", $5); print $5}' "$1"; }
  cpu() { awk '/client CPU per operation/ {print $5 "/" $8 "/" $11}' "$1"; }
  median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
  ratio() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN {printf f, a / b}'; }
  [[ -d $L ]] || die "no logs in $L (unpack eval/ycsb-c-final/logs.tar.xz first)"
  local rounds_found
  rounds_found=$(find "$L" -name 'r*-*.log' -printf '%f\n' |
    sed -n 's/^r\([0-9]*\)-.*/\1/p' | sort -n | uniq)
  echo "| round | upstream | ElasticBF before | ElasticBF after | RocksDB | after / upstream | after / RocksDB | after / before |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for r in $rounds_found; do
    row="| $r"
    for s in "${systems[@]}"; do row="$row | $(ops "$L/r$r-$s.log")"; done
    u=$(ops "$L/r$r-upstream.log"); b=$(ops "$L/r$r-before.log")
    a=$(ops "$L/r$r-after.log"); k=$(ops "$L/r$r-rocksdb.log")
    echo "$row | $(ratio "$a" "$u" %.2f) | $(ratio "$a" "$k" %.2f) | $(ratio "$a" "$b" %.2f) |"
  done
  declare -A med
  row="| **median**"
  for s in "${systems[@]}"; do
    m=$(for r in $rounds_found; do ops "$L/r$r-$s.log"; done | median)
    row="$row | $m"
    med[$s]=$m
  done
  echo "$row | $(ratio "${med[after]}" "${med[upstream]}" '**%.2f**') | $(ratio "${med[after]}" "${med[rocksdb]}" '**%.2f**') | $(ratio "${med[after]}" "${med[before]}" %.2f) |"
  echo
  echo "| system | reads per Get (range) | client us per op: user / system / waiting for a CPU (medians) |"
  echo "| --- | --- | --- |"
  for s in "${systems[@]}"; do
    rd=$(for r in $rounds_found; do rds "$L/r$r-$s.log"; done | sort -g | sed -n '1p;$p' | paste -sd- -)
    c=$(for r in $rounds_found; do cpu "$L/r$r-$s.log"; done)
    if [[ -n $c ]]; then
      echo "| $s | $rd | $(echo "$c" | cut -d/ -f1 | median) / $(echo "$c" | cut -d/ -f2 | median) / $(echo "$c" | cut -d/ -f3 | median) |"
    else
      echo "| $s | $rd | (build without the CPU report) |"
    fi
  done
}

"exp_$experiment" "$@"
