#!/usr/bin/env bash
# Lanes per row at least a quarter of the mean row length instead of half (Poisson 3D: 1 lane a row instead of 2).
sed -i 's|std::max<std::int64_t>(1, entries / (2 \* std::int64_t{rows}))|std::max<std::int64_t>(1, entries / (4 * std::int64_t{rows}))|' sparse/lanes.hpp
grep -q "entries / (4 \* std::int64_t{rows})" sparse/lanes.hpp
