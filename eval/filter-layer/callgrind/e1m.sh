#!/usr/bin/env bash
# usage: e1m.sh BIN TAG : 1M found-key Gets, ElasticBF at 10 bits per key
E=/work/eval/cg
valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
  --callgrind-out-file="$E/cg-long-elasticbf-$2.out" $1 --elastic_bf=1 --bf_memory_bits_per_key=10 \
  --benchmarks=readrandom --use_existing_db=1 --num=2000000 --reads=1000000 \
  --db="$E/elasticbf" >"$E/callgrind-long-elasticbf-$2.log" 2>&1
echo "callgrind elasticbf $2 1M $(grep -o 'Collected : [0-9]*' "$E/callgrind-long-elasticbf-$2.log")"
