#!/usr/bin/env bash
# kPipeBatch 1: one entry per row and lane per trip in update_rows_piped.
sed -i 's/^inline constexpr int kPipeBatch = 2;/inline constexpr int kPipeBatch = 1;/' tasks/jacobi/device.cuh
grep -q "kPipeBatch = 1;" tasks/jacobi/device.cuh
