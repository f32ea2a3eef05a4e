#!/usr/bin/env bash
# R4 tree newb: its runtime/state.hpp and runtime/queue.hpp, kept as layout_b.diff against runtime/ at e6acb64.
# (During the session this script copied the two whole files into the tree copy.)
