# rank_level inlined (as first measured in U1).
sed -i 's/__device__ __noinline__ bool rank_level(/__device__ bool rank_level(/' tasks/rcm/rcm_tasks.cu
grep -q "__device__ bool rank_level(" tasks/rcm/rcm_tasks.cu
