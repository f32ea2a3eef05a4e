#!/usr/bin/env bash
# Idle back-off capped at 512 ns instead of 2048.
sed -i 's/min(backoff_ns \* 2, 2048u)/min(backoff_ns * 2, 512u)/' schedulers/megakernel.cuh
grep -c "512u" schedulers/megakernel.cuh
