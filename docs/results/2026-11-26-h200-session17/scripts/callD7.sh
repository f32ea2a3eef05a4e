#!/usr/bin/env bash
# Deep claims: RCM, PCG and SpTRSV old vs new (regression check), and which runtime test racecheck flags.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_rcm bench_pcg bench_sptrsv" "bench_rcm bench_pcg bench_sptrsv test_runtime_gpu"
export PATH=/usr/local/cuda/bin:$PATH
APIARY_TEST_QUICK=1 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*Phases*' > /tmp/san.log 2>&1
echo "racecheck Phases rc $?"; grep -E "^\[ RUN|hazards\]|Barrier|barrier|\.cuh:[0-9]+|RACECHECK SUMMARY" /tmp/san.log | grep -B2 "hazard\|SUMMARY" | head -30 > $OUT/racecheck_phases.txt; cat $OUT/racecheck_phases.txt | head -30
for t in old new; do build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_$t.log 2>&1; echo "rcm $t rc $?"; grep "tasks megakernel" $OUT/bench_rcm_$t.log | awk '{print $1, $(NF-5)}'; done
for t in old new; do build/$t/bench/bench_pcg --order color --precond ic0 --loop tasks --reps 3 poisson3d:100 > $OUT/bench_pcg_$t.log 2>&1; echo "pcg $t rc $?"; grep -iE "tasks|cusparse" $OUT/bench_pcg_$t.log | tail -3; done
for t in old new; do build/$t/bench/bench_sptrsv --set quick --matrices $PWD/.matrices > $OUT/bench_sptrsv_$t.log 2>&1; echo "sptrsv $t rc $?"; tail -2 $OUT/bench_sptrsv_$t.log | head -1; done
python3 - $OUT/bench_sptrsv_old.log $OUT/bench_sptrsv_new.log <<'PY'
import re, sys, math
def load(p):
    d = {}
    for l in open(p):
        m = re.search(r"\] (\S+) \(.*tassl-deps ([0-9.]+) ms", l)
        if m: d[m.group(1)] = float(m.group(2))
    return d
o, n = load(sys.argv[1]), load(sys.argv[2])
r = [o[k] / n[k] for k in o if k in n]
print(f"sptrsv tassl-deps old/new geometric mean over {len(r)}: {math.exp(sum(map(math.log, r)) / len(r)):.3f}")
PY
