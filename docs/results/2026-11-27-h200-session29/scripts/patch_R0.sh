#!/usr/bin/env bash
# HEAD with cf0fe57 (parents as positions in the visiting order) reverted.
patch -p1 < "$1/.run/revert_cf0.diff"
