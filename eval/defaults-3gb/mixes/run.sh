# The YCSB mixes with the new defaults on their own load, each tree kept for filter_bound (as run).
cd /work/main
Y=/work/eval/frozen18d/benchmarks/ycsb/ycsb; FB=/work/eval/frozen18d/benchmarks/filter_bound
for mix in "50 0.50 0.50" "90 0.90 0.10"; do
  read -r name r u <<<"$mix"
  rm -rf /work/eval/mix18d/end-$name; cp -a /work/eval/ycsb18d/load-elasticbf /work/eval/mix18d/end-$name; sync
  $Y -p recordcount=24000000 -p fieldcount=1 -p fieldlength=100 -p leveldb.direct_io=true -p leveldb.fill_cache=false \
    -p leveldb.cache_size=0 -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000 -p status.interval=60 \
    -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4 -P benchmarks/ycsb/workloads/workloada.spec \
    -p readproportion=$r -p updateproportion=$u -p operationcount=2000000 -p writeallfields=true \
    -p zerolookupproportion=0.5 -run -dbpath /work/eval/mix18d/end-$name > /work/eval/mix18d/mix$name.log 2>&1
  echo "mix $name: $(grep -h 'client read syscalls' /work/eval/mix18d/mix$name.log)"
  grep -E "^\s*(false_positives|unfiltered_misses|data_block_reads):" /work/eval/mix18d/mix$name.log | tail -3
  $FB --ycsb_db=/work/eval/mix18d/end-$name --segment_keys=32768 --bits_per_unit=1 --units_per_segment=16 --budgets=4 > /work/eval/mix18d/bound$name.log 2>&1
  tail -3 /work/eval/mix18d/bound$name.log
done
