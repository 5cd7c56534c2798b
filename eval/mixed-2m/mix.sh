#!/bin/bash
# usage: mix.sh TAG on|off [ycsb binary]
cd /work/main
Y=${3:-/work/main/build/release/benchmarks/ycsb/ycsb}
COMMON="-p recordcount=2000000 -p fieldcount=1 -p fieldlength=100 -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0 -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000 -p status.interval=60 -p leveldb.elastic_bf=true -p leveldb.bf_memory_bits_per_key=4"
D=/work/eval/small/run-$1-$2
rm -rf $D; cp -a /work/eval/small/load-on $D
X=""; [ $2 = off ] && X="-p leveldb.bf_inherit_hotness=false"
$Y $COMMON $X -P benchmarks/ycsb/workloads/workloada.spec -p operationcount=1000000 -p readproportion=0.5 -p updateproportion=0.5 -p writeallfields=true -p zerolookupproportion=0.5 -run -dbpath $D > /work/eval/small/$1-$2.log 2>&1
rm -rf $D
echo "== $1 $2: $(grep -E 'client read syscalls' /work/eval/small/$1-$2.log | sed 's/;.*//') $(grep -E '^(false_positives|unfiltered_misses|data_block_reads|wasted_reads_per_get):' /work/eval/small/$1-$2.log | tr -s ' ' | tr '\n' ' ')"
