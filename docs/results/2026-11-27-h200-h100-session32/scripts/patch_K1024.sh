#!/usr/bin/env bash
# RCM program's task types at 1024 threads (one block per SM, 64-register cap).
sed -i 's/^constexpr int kThreads = 256;/constexpr int kThreads = 1024;/' tasks/rcm/rcm_tasks.cu
grep -c "kThreads = 1024;" tasks/rcm/rcm_tasks.cu
