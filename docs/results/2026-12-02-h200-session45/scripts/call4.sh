#!/usr/bin/env bash
# Session 45 call 4: the analysis ratio with medians of 3 analyses and set-ups (--setup-reps),
# alternated with one of each, on the quick set; then the full set with 3.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c4; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
.run/setup.sh "apiary bench_sptrsv" || { cp /tmp/b_new.log $D/; exit 1; }
echo "built at $SECONDS s"
B=build/new/bench
for r in 1 3 1 3; do
  timeout 90 $B/bench_sptrsv --set quick --matrices .matrices --reps 7 --setup-reps $r --csv $D/quick_s${r}_$SECONDS.csv >> $D/quick_s$r.log 2>&1
  echo "quick setup-reps $r rc $? at $SECONDS s: $(tail -2 $D/quick_s$r.log | head -1)"
done
timeout 30 build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower --unit-diagonal --reps 5 > $D/cli_nh2010.log 2>&1; echo "cli rc $?"
left=$((580 - SECONDS))
timeout $left $B/bench_sptrsv --set full --matrices .matrices --reps 5 --csv $D/full.csv > $D/full.log 2>&1
echo "full rc $? at $SECONDS s: $(tail -3 $D/full.log | tr '\n' ' ')"
python3 bench/plot_sptrsv.py $D/full.csv $D/full.png > $D/plot.log 2>&1; echo "plot rc $?"
sed -i "s#$PWD#.#g; s#$OUT#\$OUT#g" $D/*.log $D/*.csv $D/gpu.txt 2>/dev/null
tar -czf $OUT/c4.tar.gz -C $OUT c4 && rm -rf $D
echo "all done at $SECONDS s"
