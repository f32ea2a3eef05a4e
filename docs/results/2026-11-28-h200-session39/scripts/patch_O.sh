#!/usr/bin/env bash
# Session 39: the start of the session (eb27d22, .snapshot) with only this session's bench_jacobi --trace option.
root=$1
for f in runtime/context.cuh schedulers/megakernel.cuh tasks/jacobi/device.cuh tasks/jacobi/tasks.cu tasks/jacobi/jacobi.cu \
         tasks/jacobi/workspace.hpp tests/runtime/test_tasks.cu; do
  cp "$root/.snapshot/$f" "$f"
done
