# Follow-up runs of eval/tuning-4m/run.sh (4M keys), as they were run.
cd /work/main
B=/work/eval/frozen18d/benchmarks; E=/work/eval/tuning; L=eval/tuning-4m/logs
COMMON=(--num=4000000 --reads=100000 --value_size=112 --seed=0 --zipf=0.99 --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000 --io_stats=1 --elastic_bf=1 --bf_memory_bits_per_key=4 --use_existing_db=1 --benchmarks=readzipf)
run() { tag=$1; shift; rm -rf $E/run; cp -a /work/eval/shape-budget/load-1x16 $E/run; sync; "$B/db_bench" "${COMMON[@]}" "$@" --db=$E/run > $L/x-$tag.log 2>&1; echo "$tag $(grep -h 'foreground table reads per op' $L/x-$tag.log | cut -d, -f1)"; }
run init3 --bf_initial_units=3
run init6 --bf_initial_units=6
run init16 --bf_initial_units=16
run life20 --bf_lifetime=20
run life80 --bf_lifetime=80
run init4-life40 --bf_initial_units=4 --bf_lifetime=40
run init4-life80 --bf_initial_units=4 --bf_lifetime=80
run init4-300k --bf_initial_units=4 --reads=300000
run init1-300k --reads=300000
run life40-300k --bf_lifetime=40 --reads=300000
