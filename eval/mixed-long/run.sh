#!/bin/bash
# Longer 50/50 mix (2M ops: 1M updates) so compaction rewrites more of the hot data.
D=/work/eval/evaluate-db.6643
B=/work/evalbuild/benchmarks
W=/work/evalsrc/benchmarks/ycsb/workloads/workloada.spec
COMMON="-P $W -p recordcount=24000000 -p operationcount=2000000 -p fieldcount=1 -p fieldlength=100 -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0 -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000 -p status.interval=30 -p readproportion=0.50 -p updateproportion=0.50 -p writeallfields=true -p zerolookupproportion=0.5 -run -dbpath $D/run"
for round in 1 2; do
  for sys in noinherit inherit; do
    rm -rf $D/run
    if [ $sys = noinherit ]; then cp -a $D/load-elasticbf-noinherit $D/run; X="-p leveldb.bf_inherit_hotness=false"; else cp -a $D/load-elasticbf $D/run; X=""; fi
    cmd="$B/ycsb/ycsb -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4 $X $COMMON"
    echo "=== round $round $sys $(date): $cmd"
    $cmd > /work/eval/mixed-long/logs/r$round-$sys.log 2>&1
    grep -E "data_block_ios_per_get|false_positives_per_get|\[OVERALL\], Throughput|\[UPDATE\], Operations|\[READ\], Operations" /work/eval/mixed-long/logs/r$round-$sys.log
  done
done
echo "=== done $(date)"
