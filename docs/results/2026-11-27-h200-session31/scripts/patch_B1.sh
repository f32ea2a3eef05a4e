#!/usr/bin/env bash
# patch_T (timing lines) + no register cap (MB1) + the RCM program's megakernel at 1 block per SM.
root=$1
bash $root/.run/patch_T.sh && bash $root/.run/patch_MB1.sh
sed -i 's|    o.waiting_capacity = 2;  // one Plan waits at a time; a spare slot keeps probing short|&\n    o.blocks_per_sm = 1;|' tasks/rcm/rcm_tasks.cu
grep -c "o.blocks_per_sm = 1;" tasks/rcm/rcm_tasks.cu
