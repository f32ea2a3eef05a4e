#!/usr/bin/env bash
python3 "$1/.run/instrM.py"
