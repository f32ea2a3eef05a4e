#!/usr/bin/env bash
# The analysis's timing prints (patch_T) and ranges of 2^13 edges (not 2^16) for the chosen
# candidate's schedule and the device plan.
bash "$1/.run/patch_T.sh"
sed -i 's|best.s = detail::schedule_of_feasible(s.lower, best.p, cores);|best.s = detail::schedule_of_feasible(s.lower, best.p, cores, std::size_t{1} << 13);|' tasks/sptrsv/analysis.cpp
sed -i 's|detail::range_count(edges, std::size_t{1} << 16,|detail::range_count(edges, std::size_t{1} << 13,|' tasks/sptrsv/device_plan.cpp
grep -c "1} << 13" tasks/sptrsv/analysis.cpp tasks/sptrsv/device_plan.cpp
