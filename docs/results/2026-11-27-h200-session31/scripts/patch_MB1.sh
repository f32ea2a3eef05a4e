#!/usr/bin/env bash
# The megakernel with no minimum of 2 blocks per SM (register cap 255 instead of 128).
sed -i 's/static constexpr int min_blocks = block_threads <= 512 ? 2 : 1;/static constexpr int min_blocks = 1;/' schedulers/megakernel.cuh
grep -c "min_blocks = 1;" schedulers/megakernel.cuh
