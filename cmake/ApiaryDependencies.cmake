# Every dependency comes from the platform; nothing is downloaded at build time.
# A missing one stops CMake with one line naming the Debian package to install
# (scripts/install-deps.sh installs them all). A macro, so find_package results
# such as CUDAToolkit_INCLUDE_DIRS stay visible to the caller.

macro(apiary_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "Apiary needs ${package}: install the Debian package '${debian_package}' "
                        "(apt-get install ${debian_package}, or run scripts/install-deps.sh)")
  endif()
endmacro()

apiary_require(CUDAToolkit "cuda-toolkit-13 (NVIDIA CUDA Toolkit 13)" 13)
apiary_require(fmt libfmt-dev)
apiary_require(ZLIB zlib1g-dev)
apiary_require(CLI11 libcli11-dev)
apiary_require(nlohmann_json nlohmann-json3-dev)
if(APIARY_BUILD_TESTS)
  apiary_require(GTest libgtest-dev)
  include(GoogleTest)
endif()

# fmt is used header-only so that binaries carry no run-time dependency on libfmt.
if(TARGET fmt::fmt-header-only)
  set(APIARY_FMT fmt::fmt-header-only)
else()
  set(APIARY_FMT fmt::fmt)
endif()
