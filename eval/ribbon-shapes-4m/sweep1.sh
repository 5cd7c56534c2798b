cd /work/eval/shape
for r in 1 2; do
./run.sh bloom46-r$r 4 --bf_unit_kind=bloom
./run.sh rib46-r$r 4 --bf_unit_kind=ribbon
./run.sh rib38-r$r 4 --bf_unit_kind=ribbon --bf_bits_per_unit=3 --bf_units=8
./run.sh rib212-r$r 4 --bf_unit_kind=ribbon --bf_bits_per_unit=2 --bf_units=12
done
