#!/usr/bin/env bash
# Ranges of 2^16 (as before session 28) after the candidates: the chosen schedule, its predecessor lists, the plan.
sed -i 's|constexpr std::size_t kMinRange = std::size_t{1} << 13;|constexpr std::size_t kMinRange = std::size_t{1} << 16;|' tasks/sptrsv/analysis.cpp
sed -i 's|detail::range_count(edges, std::size_t{1} << 13,|detail::range_count(edges, std::size_t{1} << 16,|' tasks/sptrsv/device_plan.cpp
grep -c "1} << 16" tasks/sptrsv/analysis.cpp tasks/sptrsv/device_plan.cpp
