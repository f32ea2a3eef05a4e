#!/usr/bin/env bash
# patch_T (timing lines) + no register cap (MB1).
root=$1
bash $root/.run/patch_T.sh && bash $root/.run/patch_MB1.sh
