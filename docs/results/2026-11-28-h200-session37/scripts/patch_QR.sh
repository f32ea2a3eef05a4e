#!/usr/bin/env bash
bash "$1/.run/patch_Q.sh" "$1" && python3 "$1/.run/instrQ.py"
