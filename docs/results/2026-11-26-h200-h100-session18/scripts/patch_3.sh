#!/usr/bin/env bash
# R4 tree new3: its runtime/state.hpp and runtime/queue.hpp, kept as layout_3.diff against runtime/ at e6acb64.
# (During the session this script copied the two whole files into the tree copy.)
