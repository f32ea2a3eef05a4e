# A's values and columns with streaming loads (__ldcs: evict-first), everywhere.
sed -i 's/__ldg(d\.val + /__ldcs(d.val + /g; s/__ldg(d\.col + /__ldcs(d.col + /g' tasks/jacobi/device.cuh
grep -q '__ldcs(d.val' tasks/jacobi/device.cuh
