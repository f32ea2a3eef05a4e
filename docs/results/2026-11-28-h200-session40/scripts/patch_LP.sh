#!/usr/bin/env bash
# patch_L and patch_P together.
bash "$1/.run/patch_L.sh" "$1" && bash "$1/.run/patch_P.sh" "$1"
