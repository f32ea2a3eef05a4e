git apply $1/.run/A.diff
