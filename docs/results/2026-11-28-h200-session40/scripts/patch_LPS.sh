#!/usr/bin/env bash
# patch_L, patch_P and patch_S together.
bash "$1/.run/patch_L.sh" "$1" && bash "$1/.run/patch_P.sh" "$1" && bash "$1/.run/patch_S.sh" "$1"
