#!/usr/bin/env bash
# On a machine with a GPU: build (release), run every test, the GPU tests under
# compute-sanitizer (memcheck, racecheck, synccheck) and the benchmarks, writing logs
# to OUTDIR. With carried .deps/ (scripts/offline-deps.sh) it works without a registry.
#   scripts/gpu-check.sh OUTDIR [tests|sanitize|bench|all]...
# Set APIARY_SHARED_MATRICES to the folder of .mtx.gz files when it is not ../shared/matrices,
# and APIARY_CONTROLLER=ON to build (and so test) the controller scheduler too.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-check.sh OUTDIR [tests|sanitize|bench|all]...}
shift
steps=${*:-all}
mkdir -p "$out"
source scripts/env.sh
prefix_args=("${cmake_prefix_args[@]}")
[[ -n "${APIARY_SHARED_MATRICES:-}" ]] && prefix_args+=(-DAPIARY_SHARED_MATRICES="$APIARY_SHARED_MATRICES")
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-lineinfo \
  -DAPIARY_CONTROLLER="${APIARY_CONTROLLER:-OFF}" "${prefix_args[@]}" >"$out/configure.log" 2>&1 || {
  tail -20 "$out/configure.log"; exit 1; }
cmake --build build/gpu -j "$jobs" >"$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }
echo "build: ok"
status=0
has() { [[ " $steps " == *" $1 "* || " $steps " == *" all "* ]]; }
gpu_tests=(build/gpu/tests/runtime/test_runtime_gpu build/gpu/apps/examples/example_tree_sum)
for t in build/gpu/tests/tasks/*/test_*_gpu; do [[ -x $t ]] && gpu_tests+=("$t"); done
if has tests; then
  ctest --test-dir build/gpu -j 4 --output-on-failure --timeout 300 >"$out/ctest.log" 2>&1 || status=1
  grep -E "tests passed|tests failed|Skipped|Failed|\*\*\*" "$out/ctest.log" | tail -25
fi
if has sanitize; then
  for tool in memcheck racecheck synccheck; do
    for t in "${gpu_tests[@]}"; do
      log="$out/sanitize-$tool-$(basename "$t").log"
      args=(--gtest_filter=-*Watchdog*)  # the watchdog test traps its kernel on purpose
      [[ $(basename "$t") == test_* ]] || args=(100000)
      APIARY_TEST_QUICK=1 timeout 900 compute-sanitizer --tool "$tool" --error-exitcode 3 "$t" "${args[@]}" >"$log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool $(basename "$t"): exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
      [[ $rc -eq 0 ]] || status=1
    done
  done
fi
if has bench; then
  build/gpu/bench/bench_runtime --json "$out/bench_runtime.json" 2>&1 | tee "$out/bench_runtime.log" || status=1
  for config in four_types eleven_types; do
    build/gpu/apps/apiary generic "$config" --scheduler all --reps 5 --trace "$out/trace-$config" 2>&1 | tee "$out/generic-$config.log" ||
      status=1
    for mode in phases dependencies; do
      for scheduler in megakernel timesliced controller; do
        trace="$out/trace-$config-$mode-$scheduler.json"
        [[ -f $trace ]] || continue  # the controller only in a build with APIARY_CONTROLLER
        python3 bench/plot_schedule.py "$trace" -o "$out/schedule-$config-$mode-$scheduler.png" \
          --title "$config, $mode, $scheduler" || status=1
      done
    done
  done
fi
exit $status
