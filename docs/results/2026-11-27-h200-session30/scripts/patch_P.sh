#!/usr/bin/env bash
# Edges placed in ranges of rows, without OpenMP: for_each_range and the CMake file as at HEAD (std::async).
root=$1
cp $root/.snapshot/tasks/sptrsv/ranges.hpp tasks/sptrsv/ranges.hpp
cp $root/.snapshot/tasks/sptrsv/CMakeLists.txt tasks/sptrsv/CMakeLists.txt
