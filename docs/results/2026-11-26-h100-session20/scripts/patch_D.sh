# C, and the rows' pointers, b and 1/diag streaming too (outside the cp.async stage).
sed -i 's/__ldg(d\.val + /__ldcs(d.val + /g; s/__ldg(d\.col + /__ldcs(d.col + /g; s/__ldg(d\.row_ptr + /__ldcs(d.row_ptr + /g; s/__ldg(d\.b + /__ldcs(d.b + /g; s/__ldg(d\.inv_diag + /__ldcs(d.inv_diag + /g' tasks/jacobi/device.cuh
grep -q '__ldcs(d.b' tasks/jacobi/device.cuh
