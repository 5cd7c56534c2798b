# Instructions per Get inside DBImpl::Get, 4M-key loads of each shape, budget B
cd /work/eval/cgshape
for s in 1x16 2x12 3x8; do
 for b in 4 8; do
  rm -rf db; cp -a /work/eval/shape-budget/load-$s db
  valgrind --tool=callgrind --callgrind-out-file=cg-$s-b$b.out --toggle-collect='leveldb::DBImpl::Get*' \
   /work/eval/frozen18/db_bench --num=4000000 --reads=30000 --value_size=112 --seed=0 --zipf=0.99 \
   --zero_lookup_ratio=0.5 --direct_io=1 --fill_cache=0 --max_file_size=67108864 --open_files=100000 \
   --io_stats=1 --elastic_bf=1 --bf_unit_kind=ribbon --bf_bits_per_unit=${s%x*} --bf_units=${s#*x} \
   --bf_memory_bits_per_key=$b --use_existing_db=1 --benchmarks=readzipf --db=db > log-$s-b$b.txt 2>&1
  echo "$s b=$b $(callgrind_annotate cg-$s-b$b.out 2>/dev/null | grep -m1 'PROGRAM TOTALS')"
 done
done
rm -rf db
