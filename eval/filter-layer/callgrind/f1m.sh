#!/usr/bin/env bash
# usage: f1m.sh BIN TAG : 1M found-key Gets, the fork's Bloom filter at 10 bits per key
E=/work/eval/cg
valgrind --tool=callgrind --toggle-collect='leveldb::DBImpl::Get(*' \
  --callgrind-out-file="$E/cg-long-fork-$2.out" $1 --bloom_bits=10 \
  --benchmarks=readrandom --use_existing_db=1 --num=2000000 --reads=1000000 \
  --db="$E/fork" >"$E/callgrind-long-fork-$2.log" 2>&1
echo "callgrind fork $2 1M $(grep -o 'Collected : [0-9]*' "$E/callgrind-long-fork-$2.log")"
