# The workload-C run of the 3 GB experiments (ycsb-c-latency/, ycsb-c-final/):
# 24M records, 200k reads, direct I/O, no block cache, 64 MiB tables. Sourced
# by their run.sh scripts (from the repository root).
# shellcheck disable=SC2034
PROPS=(-P benchmarks/ycsb/workloads/workloadc.spec -p recordcount=24000000
  -p operationcount=200000 -p fieldcount=1 -p fieldlength=100
  -p leveldb.direct_io=true -p leveldb.fill_cache=false -p leveldb.cache_size=0
  -p leveldb.max_file_size=67108864 -p leveldb.max_open_files=100000
  -p status.interval=60)
