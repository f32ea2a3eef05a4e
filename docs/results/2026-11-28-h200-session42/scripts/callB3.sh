#!/usr/bin/env bash
# Session 42 B3: bands taken only where they halve the heuristic's sub-graph levels. new = working tree; old = 36885bb.
# Quick set alternated; sptrsv GPU tests and test_apps; the CLI on commanche_dual; PCG host loop; Jacobi racecheck on
# the tests session 41 left (A3 stopped at its limit).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/b3
( JOBS=12 .run/setup3.sh "bench_sptrsv apiary test_sptrsv_gpu test_apps bench_pcg test_jacobi_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" old ) &
wait
echo "built at $SECONDS s"
J=build/new/tests/tasks/jacobi/test_jacobi_gpu
run_san() { APIARY_TEST_QUICK=1 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 3 $J \
  --gtest_filter='VariantsAndSchedulers/Jacobi.RepeatedSolvesAndOtherVariantsGiveTheSameBits/checkpoints*:VariantsAndSchedulers/Jacobi.TracedSolveRecordsEveryTask/*:VariantsAndSchedulers/Jacobi.CheckpointIntervalsAndRingSizes/*:VariantsAndSchedulers/Jacobi.ZeroDiagonalIsAnErrorNamingTheRow/*-*/graph' \
  > $OUT/b3/san_jacobi_racecheck_rest.txt 2>&1; echo "jacobi racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/b3/san_jacobi_racecheck_rest.txt | tr '\n' ' ') at $SECONDS s"; }
for t in new old new old; do
  timeout 90 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b3/quick_${t}_$SECONDS.csv \
    >> $OUT/b3/bench_$t.log 2>&1; echo "quick $t rc $? at $SECONDS s: $(tail -2 $OUT/b3/bench_$t.log | head -1)"
done
timeout 100 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $OUT/b3/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/b3/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
timeout 60 build/new/tests/apps/test_apps --gtest_filter='*Sptrsv*' > $OUT/b3/test_apps_sptrsv.log 2>&1
echo "test_apps sptrsv rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/b3/test_apps_sptrsv.log | tr '\n' ' ')"
timeout 60 build/new/apps/apiary sptrsv .matrices/commanche_dual.mtx.gz --lower > $OUT/b3/cli_commanche_dual.log 2>&1; echo "cli rc $?"
timeout 60 build/new/apps/apiary sptrsv .matrices/commanche_dual.mtx.gz --lower --json --variant tassl-deps,cusparse > $OUT/b3/cli_commanche_dual.json 2>&1; echo "cli json rc $?"
timeout 25 build/new/bench/bench_pcg --quick --precond ic0 --loop host --order natural > $OUT/b3/pcg_host_new.log 2>&1; echo "pcg rc $?"
run_san
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b3/* 2>/dev/null
tar -czf $OUT/b3.tar.gz -C $OUT b3 && rm -rf $OUT/b3
echo "all done at $SECONDS s"
