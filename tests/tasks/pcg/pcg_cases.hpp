// Matrices shared by the PCG tests (host and GPU): the generated SPD cases and the SPD
// matrices of the shared folder, with the IC(0) shift each ordering needs.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "tasks/pcg/ic0.hpp"

namespace apiary::pcg::testing {

using sparse::Csr;
using sparse::index_t;

struct SpdCase {
  std::string name;
  Csr<double> a;
};

inline std::vector<SpdCase> generated_cases() {
  return {{"poisson2d_40", sparse::poisson2d<double>(40, 40)},
          {"poisson3d_12", sparse::poisson3d<double>(12, 12, 12)},
          {"random_spd_500", sparse::random_spd<double>(500, 7, 42)}};
}

// The SPD files of ../shared/matrices (README: "Symmetric positive definite, with
// values"), read when present and symmetric with a positive diagonal.
inline constexpr std::array<const char*, 8> kSharedSpd{"494_bus",  "662_bus",  "1138_bus", "bcsstk13",
                                                       "bcsstk14", "gr_30_30", "nos1",     "lund_a"};

inline bool positive_diagonal(const Csr<double>& a) {
  for (index_t i = 0; i < a.rows; ++i) {
    bool ok = false;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] == i) ok = a.val[k] > 0;
    if (!ok) return false;
  }
  return true;
}

inline std::vector<SpdCase> shared_spd_cases() {
  std::vector<SpdCase> out;
  const std::filesystem::path dir = APIARY_SHARED_MATRICES;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const char* name : kSharedSpd) {
    const std::filesystem::path file = dir / (std::string(name) + ".mtx.gz");
    if (!std::filesystem::exists(file)) continue;
    Csr<double> a = sparse::read_csr<double>(file);
    if (!a.is_square() || !sparse::is_symmetric(a) || !positive_diagonal(a)) continue;
    out.push_back({name, std::move(a)});
  }
  return out;
}

// The smallest shift of 0, 1e-3, 1e-2, 1e-1, 1 for which IC(0) of a succeeds, with the
// factor; shift -1 when none does.
inline std::pair<double, Csr<double>> factor_with_smallest_shift(const Csr<double>& a) {
  for (double shift : {0.0, 1e-3, 1e-2, 1e-1, 1.0}) {
    try {
      return {shift, ic0_reference(a, shift)};
    } catch (const Ic0Breakdown&) {
    }
  }
  return {-1.0, {}};
}

}  // namespace apiary::pcg::testing
