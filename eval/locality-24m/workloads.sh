# The locality workloads of eval/locality-24m, sourced by the run scripts
# that read them (eval/locality-24m/run.sh, eval/inherit-3gb/run.sh):
# reads W: db_bench flags of workload W; bound W: filter_bound's matching flags.
reads() {
  case $1 in
    ozipf) echo "--benchmarks=readzipf --key_dist=ordered_zipf" ;;
    hotspot) echo "--benchmarks=readzipf --key_dist=hotspot --hot_range_start=0.4" ;;
    latest) echo "--benchmarks=readlatest --insert_ratio=0.05" ;;
    zipf) echo "--benchmarks=readzipf" ;;
  esac
}
bound() {
  case $1 in
    ozipf) echo "--key_dist=ordered_zipf" ;;
    hotspot) echo "--key_dist=hotspot --hot_range_start=0.4" ;;
    latest) echo "--key_dist=latest" ;;
    zipf) echo "" ;;
  esac
}
