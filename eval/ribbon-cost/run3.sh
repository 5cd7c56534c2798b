cd /work/eval/cgprobe
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null ./rub3 "$@" 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'; }
for present in 0 1; do
  n0=$(( $(ir --count_probes=2000000 --kind=none --present=$present) - $(ir --count_probes=1000000 --kind=none --present=$present) ))
  echo "none present=$present per-iter $((n0/1000000))"
  for kind in ribbon bloom; do for units in 1 6; do
    n=$(( $(ir --count_probes=2000000 --kind=$kind --units=$units --present=$present) - $(ir --count_probes=1000000 --kind=$kind --units=$units --present=$present) ))
    echo "$kind units=$units present=$present per-probe-total $((n/1000000)) minus-none $(( (n-n0)/1000000 ))"
  done; done
done
