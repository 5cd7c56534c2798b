# The same settings at 24M keys on the 1 x 16 load of eval/locality-24m (SHAPE=1x16), as run.
cd /work/main
while pgrep -f "bash /work/eval/queue18e.sh" >/dev/null; do sleep 5; done
B=/work/eval/frozen18d/benchmarks; E=/work/eval/loc; L=eval/tuning-4m/logs-24m
mkdir -p $L
source eval/locality-24m/workloads.sh
COMMON=(--num=24000000 --reads=300000 --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1 --bf_memory_bits_per_key=4 --use_existing_db=1)
run() { tag=$1; w=$2; shift 2; rm -rf $E/run; cp -a $E/load-elasticbf-1x16 $E/run; sync; "$B/db_bench" "${COMMON[@]}" $(reads $w) "$@" --db=$E/run > $L/$tag.log 2>&1; echo "$tag $(grep -h 'foreground table reads per op' $L/$tag.log | cut -d, -f1) $(grep -hE '^lifetime:' $L/$tag.log | tail -1)"; }
run zipf-init4 zipf --bf_initial_units=4
run zipf-life180 zipf --bf_lifetime=180
run ozipf-init4 ozipf --bf_initial_units=4
run zipf-init2 zipf --bf_initial_units=2
run ozipf-life180 ozipf --bf_lifetime=180
