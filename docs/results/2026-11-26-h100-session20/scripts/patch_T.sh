# The race test without the fix: stage_claimed's takes do not leave on the run's end.
sed -i 's/&v.control->abort, &v.control->done)) \*aborted = 1;/\&v.control->abort)) *aborted = 1;/' schedulers/execute.cuh
! grep -q 'control->done)) \*aborted' schedulers/execute.cuh
