cp $1/.run/rcm_B2.cu tasks/rcm/rcm_tasks.cu
