git apply $1/.run/B.diff
