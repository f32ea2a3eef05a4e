#!/usr/bin/env bash
# expand_level out of line (its own register allocation inside the megakernel).
sed -i 's/^__device__ index_t expand_level(/__device__ __noinline__ index_t expand_level(/' tasks/rcm/rcm_tasks.cu
grep -c "__noinline__ index_t expand_level" tasks/rcm/rcm_tasks.cu
