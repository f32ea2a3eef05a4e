#!/usr/bin/env bash
# RCM program's task types at 512 threads; the megakernel asks for two blocks a multiprocessor only up to 256 threads
# a block (a 512-thread block then gets 128 registers a thread, as a 256-thread one does).
sed -i 's/^constexpr int kThreads = 256;/constexpr int kThreads = 512;/' tasks/rcm/rcm_tasks.cu
sed -i 's/static constexpr int min_blocks = block_threads <= 512 ? 2 : 1;/static constexpr int min_blocks = block_threads <= 256 ? 2 : 1;/' schedulers/megakernel.cuh
grep -c "kThreads = 512;" tasks/rcm/rcm_tasks.cu; grep -c "block_threads <= 256 ? 2 : 1;" schedulers/megakernel.cuh
