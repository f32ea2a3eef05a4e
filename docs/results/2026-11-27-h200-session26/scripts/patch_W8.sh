patch -p1 -s < $1/.run/patch_W.diff
