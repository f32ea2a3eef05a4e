git apply -R $1/.run/B.diff && git apply $1/.run/A.diff
