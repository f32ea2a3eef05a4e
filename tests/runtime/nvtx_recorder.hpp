// A static NVTX injection for tests: linked into a test executable, it receives every NVTX
// domain creation, range push and range pop of the process (instead of a tool such as
// Nsight Systems) and records them as lines: "push DOMAIN MESSAGE", "pop DOMAIN".
#pragma once

#include <string>
#include <vector>

namespace apiary::testing {

// The events recorded so far, and forgets them.
std::vector<std::string> take_nvtx_events();

}  // namespace apiary::testing
