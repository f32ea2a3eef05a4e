cp $1/.run/rcm_B3.cu tasks/rcm/rcm_tasks.cu
