#!/usr/bin/env bash
# RCM program's task types at 512 threads, the megakernel without the two-blocks minimum (128-register cap).
sed -i 's/^constexpr int kThreads = 256;/constexpr int kThreads = 512;/' tasks/rcm/rcm_tasks.cu
sed -i 's/static constexpr int min_blocks = block_threads <= 512 ? 2 : 1;/static constexpr int min_blocks = 1;/' schedulers/megakernel.cuh
grep -c "kThreads = 512;" tasks/rcm/rcm_tasks.cu; grep -c "min_blocks = 1;" schedulers/megakernel.cuh
