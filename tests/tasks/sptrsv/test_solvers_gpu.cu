// Every solver variant (and, for the ones on the runtime, every scheduler) against the
// host reference: generated DAGs, chains, many components, the paper's block-diagonal
// sets, Poisson factors, dense rows, upper and unit-diagonal systems, several
// right-hand sides, float, and the real matrices of the shared folder. Each system is
// solved twice with one solver, so state left by a solve (dependency counters, flags)
// is tested too.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device_buffer.hpp"
#include "sparse/generators.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/solver.hpp"
#include "tests/runtime/scheduler_param.hpp"
#include "tests/tasks/sptrsv/solve_cases.hpp"

namespace {

using apiary::Scheduler;
using apiary::sparse::Csr;
using apiary::sparse::index_t;
using apiary::sparse::Triangle;
using namespace apiary::sptrsv;
using apiary::sptrsv::testing::relative_error;
using apiary::testing::scaled;

struct Param {
  Variant variant;
  Scheduler scheduler;
};

// Each variant once; the runtime variants once per scheduler.
std::vector<Param> params() {
  const ::testing::internal::ParamGenerator<Scheduler> all = apiary::testing::all_schedulers();
  std::vector<Param> out;
  for (Variant v : kVariants) {
    if (!uses_runtime(v)) {
      out.push_back({v, Scheduler::megakernel});
      continue;
    }
    for (Scheduler s : all) out.push_back({v, s});
  }
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string name(to_string(info.param.variant));
  if (uses_runtime(info.param.variant)) {
    name += '_';
    name += apiary::to_string(info.param.scheduler);
  }
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

struct Case {
  std::string name;
  Csr<double> a;
  SystemOptions system{};
  int rhs = 1;
  index_t n_max = 0;  // 0: the model chooses
  int threads = 0;    // TASSL task width; 0: the model chooses
  std::optional<Split> split{};  // unset: the model chooses
  // Analyse a matrix of the same pattern with other values (testing::revalued) and give
  // the analysis this one's values (refresh_values) before the solver is made.
  bool refreshed = false;
};

bool is_tassl(Variant v) {
  return v == Variant::tassl_deps || v == Variant::tassl_phases || v == Variant::tassl_kernels;
}

class SptrsvSolvers : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }

  // Solves c twice in Real; returns the larger relative error against the reference.
  // stats (when given) receives the analysis's partition statistics.
  template <class Real>
  double error(const Case& c, PartitionStats* stats = nullptr) {
    SCOPED_TRACE(c.name);
    const LowerSystem sys = make_lower_system(c.a, c.system);
    const AnalysisOptions asked{.n_max = c.n_max, .threads = c.threads, .split = c.split};
    Analysis an = analyze(c.refreshed ? make_lower_system(apiary::sptrsv::testing::revalued(c.a), c.system) : sys,
                          limits_of<Real>(asked));
    if (c.refreshed) refresh_values(an, sys);
    if (c.threads != 0) EXPECT_EQ(an.plan.threads, c.threads);
    if (c.split) EXPECT_EQ(an.split, *c.split);
    if (stats) *stats = an.partition;
    const auto solver = make_solver<Real>(GetParam().variant, sys, &an, {.scheduler = GetParam().scheduler});
    const index_t n = c.a.rows;
    const std::vector<double> b = apiary::sptrsv::testing::rhs(n, c.rhs);
    std::vector<double> ref;
    for (int k = 0; k < c.rhs; ++k) {
      const std::vector<double> col(b.begin() + std::size_t(k) * n, b.begin() + std::size_t(k + 1) * n);
      const auto x = apiary::sparse::triangular_solve(
          c.a, col, {.triangle = sys.triangle, .unit_diagonal = c.system.unit_diagonal});
      ref.insert(ref.end(), x.begin(), x.end());
    }
    apiary::DeviceBuffer<Real> d_b(std::vector<Real>(b.begin(), b.end()));
    double worst = 0;
    for (int round = 0; round < 2; ++round) {
      // Poison x so that an entry the solver never writes shows up.
      apiary::DeviceBuffer<Real> d_x(
          std::vector<Real>(b.size(), std::numeric_limits<Real>::quiet_NaN()));
      solver->solve(d_b.data(), d_x.data(), c.rhs, nullptr);
      APIARY_CUDA_CHECK(cudaDeviceSynchronize());
      worst = std::max(worst, relative_error(d_x.to_host(), ref));
    }
    return worst;
  }
};

std::vector<Case> generated_cases() {
  using namespace apiary::sparse;
  std::vector<Case> cs;
  cs.push_back({"chain", apiary::sptrsv::testing::chain(scaled(3000, 100)), {}, 1, 64});
  cs.push_back({"diagonal", lower_triangle(banded<double>(scaled(2000, 50), 0, 0, 1))});
  for (std::uint64_t seed : {1u, 2u}) {
    cs.push_back({"dag wide", random_lower_dag<double>({scaled(4000, 300), 10, 1}, seed)});
    // Smallest sizes (APIARY_TEST_QUICK) still allow the levels: rows >= levels x components.
    cs.push_back({"dag components", random_lower_dag<double>({scaled(4000, 800), 20, 40, 1.0}, seed)});
    cs.push_back({"dag deep n_max 32", random_lower_dag<double>({scaled(3000, 600), 300, 2, 3.0}, seed), {}, 1, 32});
  }
  cs.push_back({"blocks sparse", block_diagonal_lower<double>(16, scaled(500, 40), 0.01, 3)});
  cs.push_back({"blocks dense", block_diagonal_lower<double>(8, scaled(600, 40), 0.1, 4)});
  cs.push_back({"poisson2d", lower_triangle(poisson2d<double>(scaled(120, 12), scaled(100, 10)))});
  cs.push_back({"poisson3d n_max 256", lower_triangle(poisson3d<double>(scaled(24, 6), 20, 16)), {}, 1, 256});
  cs.push_back({"dense rows", lower_triangle(banded<double>(scaled(1500, 100), scaled(1200, 80), 0, 5)), {}, 1, 256});
  cs.push_back({"three rhs", lower_triangle(poisson2d<double>(scaled(80, 10), 70)), {}, 3});
  cs.push_back({"upper", upper_triangle(banded<double>(scaled(3000, 200), 4, 9, 6))});
  cs.push_back({"upper of full, two rhs", banded<double>(scaled(2000, 200), 6, 11, 7),
                {.take = Triangle::upper}, 2});
  Csr<double> unit = lower_triangle(banded<double>(scaled(2500, 200), 8, 3, 8), Diagonal::drop);
  for (double& v : unit.val) v *= 0.05;
  cs.push_back({"unit lower", unit, {.take = Triangle::lower, .unit_diagonal = true}});
  return cs;
}

TEST_P(SptrsvSolvers, GeneratedSystemsInDouble) {
  for (const Case& c : generated_cases()) EXPECT_LE(error<double>(c), 1e-12) << c.name;
}

// The TASSL variants at each task width, whatever the model would choose.
class SptrsvTaskWidths : public SptrsvSolvers {};

TEST_P(SptrsvTaskWidths, GeneratedSystemsInDouble) {
  for (int threads : {kTasslThreads, kWideTasslThreads})
    for (Case c : generated_cases()) {
      c.threads = threads;
      c.name += " at " + std::to_string(threads) + " threads";
      EXPECT_LE(error<double>(c), 1e-12) << c.name;
    }
  // Sub-graphs past what a 256-thread task holds: one of 24000 unknowns (full size).
  const Case big{"a sub-graph past the narrow limit",
                 apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(scaled(160, 20), scaled(150, 20))),
                 {}, 1, max_subgraph<double>(kWideTasslThreads), kWideTasslThreads};
  EXPECT_LE(error<double>(big), 1e-12) << big.name;
}

// The TASSL variants on partitions split in bands of row levels, and in tiles along the
// strides (grids get boxes; the other cases, with one stride or none, bands of levels cut
// by index).
class SptrsvSplits : public SptrsvSolvers {
 protected:
  // Every generated case split so (at n_max 128 where the case leaves it to the model,
  // so that components are cut); returns how many of them `cut` says were cut.
  template <class Cut>
  int solve_split(Split split, Cut cut) {
    int count = 0;
    for (Case c : generated_cases()) {
      c.split = split;
      if (c.n_max == 0) c.n_max = 128;
      c.name += std::string(" in ") + split_name(split);
      PartitionStats st;
      EXPECT_LE(error<double>(c, &st), 1e-12) << c.name;
      count += cut(st) ? 1 : 0;
    }
    return count;
  }
};

TEST_P(SptrsvSplits, GeneratedSystemsInBands) {
  EXPECT_GE(solve_split(Split::bands, [](const PartitionStats& st) { return st.band_cuts > 0; }), 5)
      << "too few cases end a band: the test misses what it is for";
}

TEST_P(SptrsvSplits, GeneratedSystemsInTiles) {
  EXPECT_GE(solve_split(Split::tiles, [](const PartitionStats& st) { return st.tiles > 1; }), 5)
      << "too few cases are cut in tiles: the test misses what it is for";
}

// An analysis made of a matrix of the same pattern, given these values (refresh_values):
// the solver made of it solves these.
class SptrsvRefresh : public SptrsvSolvers {};

TEST_P(SptrsvRefresh, AnalysisOfTheSamePatternWithTheseValues) {
  for (Case c : generated_cases()) {
    c.refreshed = true;
    c.name += " (refreshed)";
    EXPECT_LE(error<double>(c), 1e-12) << c.name;
  }
}

TEST_P(SptrsvSolvers, GeneratedSystemsInFloat) {
  for (const Case& c : generated_cases()) EXPECT_LE(error<float>(c), 2e-5) << c.name;
}

TEST_P(SptrsvSolvers, SharedRealMatrices) {
  const auto cases = apiary::sptrsv::testing::shared_lower_triangles();
  if (cases.empty()) GTEST_SKIP() << "no shared matrices at " << APIARY_SHARED_MATRICES;
  for (const auto& [name, l] : cases) EXPECT_LE(error<double>({name, l}), 1e-12) << name;
}

INSTANTIATE_TEST_SUITE_P(Variants, SptrsvSolvers, ::testing::ValuesIn(params()), param_name);

std::vector<Param> tassl_params() {
  std::vector<Param> out;
  for (const Param& p : params())
    if (is_tassl(p.variant)) out.push_back(p);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Tassl, SptrsvTaskWidths, ::testing::ValuesIn(tassl_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Tassl, SptrsvSplits, ::testing::ValuesIn(tassl_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Tassl, SptrsvRefresh, ::testing::ValuesIn(tassl_params()), param_name);

}  // namespace
