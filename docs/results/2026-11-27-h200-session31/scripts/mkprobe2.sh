#!/usr/bin/env bash
# mkprobe2.sh ROOT OUT.cu [VARIANT]: the Narrow task's BFS loop from ROOT/tasks/rcm/rcm_tasks.cu
# (its helpers verbatim; VARIANT constbfs: e.bfs replaced by true) in a plain one-block kernel,
# on the probe's scrambled grid.
root=$1; out=$2; variant=${3:-verbatim}
f=$root/tasks/rcm/rcm_tasks.cu
{
  sed -n '/^#include <cooperative_groups.h>/,/^#include "tasks\/rcm\/rcm_tasks.hpp"/p' $f
  echo '#include <random>'
  echo '#include <numeric>'
  echo '#include <cstdio>'
  echo "#define PVARIANT \"$variant\""
  echo 'namespace apiary::rcm::detail {'
  if [ $variant = constbfs ]; then
    sed -n '/^namespace {$/,/^__device__ index_t chunks/p' $f | sed '$d' | sed 's/e\.bfs ?/true ?/g; s/(e\.bfs)/(true)/g'
  else
    sed -n '/^namespace {$/,/^__device__ index_t chunks/p' $f | sed '$d'
  fi
  cat $root/.run/probe2_kernel.inc
  echo '}  // namespace'
  echo '}  // namespace apiary::rcm::detail'
  cat $root/.run/probe2_main.inc
} > $out
