# The register-gathered stage up to 4096 entries (session 19's rule), windows beyond it.
sed -i 's/^inline constexpr int kGatheredEntries = kGatherBatch \* kTaskThreads;/inline constexpr int kGatheredEntries = 4 * kGatherBatch * kTaskThreads;/' tasks/jacobi/device.cuh
grep -q '4 \* kGatherBatch' tasks/jacobi/device.cuh
