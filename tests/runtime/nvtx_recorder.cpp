// NVTX 3 looks for a static injection through the C symbol InitializeInjectionNvtx2_fnptr
// (weak in every translation unit that includes NVTX; defined here, so the linker takes
// this one) and calls it on the process's first NVTX call, which lets it fill in the
// function table of the core module. See nvtx3/nvtxDetail/nvtxInit.h. This file takes
// only NVTX's declarations and types (NVTX_NO_IMPL), not its implementation.
#include "tests/runtime/nvtx_recorder.hpp"

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <map>
#include <mutex>

namespace {

std::mutex mutex;
std::vector<std::string> events;
std::map<nvtxDomainHandle_t, std::string> domains;

std::string domain_name(nvtxDomainHandle_t d) {
  const auto it = domains.find(d);
  return it == domains.end() ? std::string("(default)") : it->second;
}

nvtxDomainHandle_t NVTX_API create_domain(const char* name) {
  const std::lock_guard<std::mutex> lock(mutex);
  auto* handle = reinterpret_cast<nvtxDomainHandle_t>(static_cast<std::uintptr_t>(domains.size() + 1));
  domains[handle] = name;
  return handle;
}

int NVTX_API push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  const std::lock_guard<std::mutex> lock(mutex);
  const bool ascii = a != nullptr && a->messageType == NVTX_MESSAGE_TYPE_ASCII;
  events.push_back("push " + domain_name(d) + " " + (ascii ? a->message.ascii : "(no text)"));
  return 0;
}

int NVTX_API pop(nvtxDomainHandle_t d) {
  const std::lock_guard<std::mutex> lock(mutex);
  events.push_back("pop " + domain_name(d));
  return 0;
}

template <class F>
void install(NvtxFunctionTable table, unsigned size, unsigned id, F* f) {
  if (id < size && table[id] != nullptr) *table[id] = reinterpret_cast<NvtxFunctionPointer>(f);
}

int NVTX_API initialize(NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (callbacks == nullptr || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)) return 0;
  install(table, size, NVTX_CBID_CORE2_DomainCreateA, &create_domain);
  install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &push);
  install(table, size, NVTX_CBID_CORE2_DomainRangePop, &pop);
  return 1;
}

}  // namespace

extern "C" {
extern NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr;
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = initialize;
}

namespace apiary::testing {

std::vector<std::string> take_nvtx_events() {
  const std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::string> out;
  out.swap(events);
  return out;
}

}  // namespace apiary::testing
