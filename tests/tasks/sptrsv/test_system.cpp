// From a user's matrix to the solved system: triangle detection and extraction, upper
// solves through the reversed layout, unit and bad diagonals, and the choice of n_max.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tests/tasks/sptrsv/solve_cases.hpp"

namespace {

using apiary::sparse::Csr;
using apiary::sparse::Diagonal;
using apiary::sparse::index_t;
using apiary::sparse::Triangle;
using namespace apiary::sptrsv;
using apiary::sptrsv::testing::relative_error;
using apiary::sptrsv::testing::revalued;
using apiary::sptrsv::testing::rhs;

// A full, non-symmetric matrix with a dominant diagonal.
Csr<double> full_matrix() { return apiary::sparse::banded<double>(300, 7, 5, 3); }

// Solves through the analysis and the host emulation of the device layout.
std::vector<double> solve(const Csr<double>& a, const SystemOptions& so, index_t n_max, std::vector<double> b) {
  const LowerSystem s = make_lower_system(a, so);
  const Analysis an = analyze(s, {.n_max = n_max, .n_max_limit = 6144});
  return solve_with_plan(an.plan, b);
}

TEST(SptrsvSystem, LowerAndUpperMatchSubstitution) {
  const Csr<double> a = full_matrix();
  const std::vector<double> b = rhs(a.rows);
  for (index_t n_max : {1, 16, 64, 6144}) {
    SCOPED_TRACE("n_max " + std::to_string(n_max));
    const Csr<double> lower = apiary::sparse::lower_triangle(a);
    const Csr<double> upper = apiary::sparse::upper_triangle(a);
    EXPECT_LE(relative_error(solve(lower, {}, n_max, b), apiary::sparse::triangular_solve(lower, b)), 1e-12);
    const auto ref_upper = apiary::sparse::triangular_solve(upper, b, {.triangle = Triangle::upper});
    EXPECT_LE(relative_error(solve(upper, {}, n_max, b), ref_upper), 1e-12);
    // Taking a triangle of the full matrix is the same as solving with that triangle.
    EXPECT_LE(relative_error(solve(a, {.take = Triangle::upper}, n_max, b), ref_upper), 1e-12);
    EXPECT_LE(relative_error(solve(a, {.take = Triangle::lower}, n_max, b),
                             apiary::sparse::triangular_solve(lower, b)),
              1e-12);
  }
  EXPECT_TRUE(make_lower_system(apiary::sparse::upper_triangle(a), {}).reversed);
  EXPECT_FALSE(make_lower_system(apiary::sparse::lower_triangle(a), {}).reversed);
}

TEST(SptrsvSystem, UnitDiagonalIgnoresTheStoredOne) {
  const Csr<double> a = full_matrix();
  const std::vector<double> b = rhs(a.rows);
  for (Triangle t : {Triangle::lower, Triangle::upper}) {
    // Small off-diagonal values: a unit triangle of a dominant matrix stays well conditioned.
    Csr<double> tri = t == Triangle::lower ? apiary::sparse::lower_triangle(a, Diagonal::drop)
                                           : apiary::sparse::upper_triangle(a, Diagonal::drop);
    for (double& v : tri.val) v *= 0.05;
    const auto ref = apiary::sparse::triangular_solve(tri, b, {.triangle = t, .unit_diagonal = true});
    EXPECT_LE(relative_error(solve(tri, {.take = t, .unit_diagonal = true}, 32, b), ref), 1e-12);
  }
}

TEST(SptrsvSystem, BadInputGetsOneClearError) {
  const Csr<double> a = full_matrix();
  try {
    make_lower_system(a, {});
    FAIL() << "a full matrix was accepted as triangular";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not triangular"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--lower or --upper"), std::string::npos) << e.what();
  }
  Csr<double> zero = apiary::sparse::lower_triangle(a);
  zero.val[zero.row_end(17) - 1] = 0.0;
  try {
    make_lower_system(zero, {});
    FAIL() << "zero diagonal accepted";
  } catch (const apiary::sparse::SingularError& e) {
    EXPECT_EQ(e.row(), 17);
    EXPECT_FALSE(e.missing());
  }
  EXPECT_NO_THROW(make_lower_system(zero, {.take = std::nullopt, .unit_diagonal = true}));
  // A missing diagonal in an upper matrix is reported in the user's numbering.
  Csr<double> upper = apiary::sparse::upper_triangle(a);
  apiary::sparse::Coo<double> coo;
  coo.rows = coo.cols = upper.rows;
  for (index_t i = 0; i < upper.rows; ++i)
    for (index_t k = upper.row_begin(i); k < upper.row_end(i); ++k)
      if (!(i == 42 && upper.col[k] == 42)) coo.push_back(i, upper.col[k], upper.val[k]);
  try {
    make_lower_system(apiary::sparse::coo_to_csr(coo), {});
    FAIL() << "missing diagonal accepted";
  } catch (const apiary::sparse::SingularError& e) {
    EXPECT_EQ(e.row(), 42);
    EXPECT_TRUE(e.missing());
  }
  Csr<double> wide = apiary::sparse::banded<double>(5, 1, 1, 1);
  wide.cols = 6;
  EXPECT_THROW(make_lower_system(wide, {}), std::invalid_argument);
  const LowerSystem s = make_lower_system(apiary::sparse::lower_triangle(a), {});
  EXPECT_THROW(analyze(s, {.n_max = 100, .n_max_limit = 64}), std::invalid_argument);
  EXPECT_THROW(analyze(s, {.n_max = 0, .n_max_limit = 0}), std::invalid_argument);
}

TEST(SptrsvSystem, DiagonalMatrixIsLower) {
  Csr<double> d = apiary::sparse::lower_triangle(full_matrix(), Diagonal::keep);
  d = apiary::sparse::upper_triangle(d, Diagonal::keep);  // only the diagonal is left
  const LowerSystem s = make_lower_system(d, {});
  EXPECT_FALSE(s.reversed);
  const std::vector<double> b = rhs(d.rows);
  EXPECT_LE(relative_error(solve(d, {}, 64, b), apiary::sparse::triangular_solve(d, b)), 1e-15);
}

// An analysis is reused for a matrix of the same pattern: the plan refreshed with its
// values solves it, and is the plan a new analysis of it makes (the same layout, the same
// values bit for bit), for lower and upper triangles, unit diagonals and each split.
TEST(SptrsvSystem, RefreshedAnalysisSolvesAMatrixOfTheSamePattern) {
  struct Case {
    std::string name;
    Csr<double> a;
    SystemOptions so;
    AnalysisOptions ao;
  };
  using namespace apiary::sparse;
  std::vector<Case> cases;
  cases.push_back({"lower of a full matrix", full_matrix(), {.take = Triangle::lower}, limits_of<double>()});
  cases.push_back({"upper of a full matrix", full_matrix(), {.take = Triangle::upper}, limits_of<double>()});
  Csr<double> small = full_matrix();  // small off-diagonals: a unit triangle stays well conditioned
  for (index_t i = 0; i < small.rows; ++i)
    for (index_t k = small.row_begin(i); k < small.row_end(i); ++k)
      if (small.col[k] != i) small.val[k] *= 0.05;
  cases.push_back({"unit upper", small, {.take = Triangle::upper, .unit_diagonal = true},
                   limits_of<double>({.n_max = 32})});
  cases.push_back({"poisson2d:60 in bands", lower_triangle(poisson2d<double>(60, 60)), {},
                   limits_of<double>({.n_max = 128, .split = Split::bands})});
  cases.push_back({"poisson3d:20 in tiles", lower_triangle(poisson3d<double>(20, 20, 20)), {},
                   limits_of<double>({.n_max = 125, .split = Split::tiles})});
  cases.push_back({"random dag", random_lower_dag<double>({3000, 40, 3}, 11), {}, limits_of<double>()});
  // One sub-graph of 10^4 rows: its edges split between threads (on a machine of two or
  // more hardware threads).
  cases.push_back({"poisson2d:100 in one sub-graph", lower_triangle(poisson2d<double>(100, 100)), {},
                   limits_of<double>({.n_max = 10000, .threads = kWideTasslThreads})});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Analysis an = analyze(make_lower_system(c.a, c.so), c.ao);
    const Csr<double> b_matrix = revalued(c.a);
    const LowerSystem other = make_lower_system(b_matrix, c.so);
    refresh_values(an, other);
    const Analysis fresh = analyze(other, c.ao);
    EXPECT_EQ(an.plan.edge_source, fresh.plan.edge_source);
    EXPECT_EQ(an.plan.edge_value, fresh.plan.edge_value);
    EXPECT_EQ(an.plan.diagonal, fresh.plan.diagonal);
    const std::vector<double> b = rhs(c.a.rows);
    const Triangle t = c.so.take.value_or(Triangle::lower);
    const Csr<double> tri = t == Triangle::lower ? lower_triangle(b_matrix) : upper_triangle(b_matrix);
    const auto ref = triangular_solve(tri, b, {.triangle = t, .unit_diagonal = c.so.unit_diagonal});
    EXPECT_LE(relative_error(solve_with_plan(an.plan, b), ref), 1e-12);
  }
}

// Refreshing with another pattern is refused with one line naming what differs, and leaves
// the analysis as it was.
TEST(SptrsvSystem, RefreshRefusesAnotherPattern) {
  const Csr<double> lower = apiary::sparse::lower_triangle(full_matrix());
  const LowerSystem s = make_lower_system(lower, {});
  Analysis an = analyze(s, limits_of<double>({.n_max = 64}));
  const Analysis before = an;
  auto refused = [&](const LowerSystem& other, const std::string& expected) {
    try {
      refresh_values(an, other);
      ADD_FAILURE() << "accepted: " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    EXPECT_EQ(an.plan.edge_value, before.plan.edge_value);
    EXPECT_EQ(an.plan.diagonal, before.plan.diagonal);
  };
  // One entry moved to another column of its row (the same number of entries).
  Csr<double> moved = lower;
  const index_t row = 120, k = moved.row_begin(row);
  ASSERT_LT(k, moved.row_end(row) - 1);
  ASSERT_GT(moved.col[k], 0);  // the row's first entry, moved one column left
  moved.col[k] -= 1;
  refused(make_lower_system(moved, {}), "row 120 (0-based): no entry in column");
  // One entry fewer.
  apiary::sparse::Coo<double> coo;
  coo.rows = coo.cols = lower.rows;
  for (index_t i = 0; i < lower.rows; ++i)
    for (index_t e = lower.row_begin(i); e < lower.row_end(i); ++e)
      if (e != lower.row_begin(200)) coo.push_back(i, lower.col[e], lower.val[e]);
  refused(make_lower_system(apiary::sparse::coo_to_csr(coo), {}), "entries, the plan's pattern");
  // Another size, and the other triangle.
  refused(make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::banded<double>(100, 7, 5, 3)), {}),
          "the plan has 300 rows");
  refused(make_lower_system(apiary::sparse::upper_triangle(full_matrix()), {}), "the analysis was made of a lower triangle, the system is an upper one");
  // A zero diagonal, where the plan is refreshed without make_lower_system's check.
  Csr<double> zero = lower;
  zero.val[zero.row_end(17) - 1] = 0.0;
  try {
    refresh_values(an.plan, zero);
    ADD_FAILURE() << "zero diagonal accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 17 (0-based): zero diagonal"), std::string::npos) << e.what();
  }
  EXPECT_EQ(an.plan.diagonal, before.plan.diagonal);
}

TEST(SptrsvAnalysis, ModelPicksAmongCandidates) {
  const LowerSystem s =
      make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(60, 60)), {});
  const Analysis an = analyze(s, {.n_max = 0, .n_max_limit = 1000});
  // Every size split by the heuristic, and the band sizes below the one component's 3600.
  EXPECT_EQ(an.candidates, (std::vector<index_t>{32, 64, 128, 256, 512, 1000, 128, 512}));
  using enum Split;
  EXPECT_EQ(an.candidate_splits,
            (std::vector<Split>{heuristic, heuristic, heuristic, heuristic, heuristic, heuristic, bands, bands}));
  ASSERT_EQ(an.candidate_seconds.size(), an.candidates.size());
  ASSERT_EQ(an.candidate_levels.size(), an.candidates.size());
  ASSERT_EQ(an.candidate_chosen_from.size(), an.candidates.size());
  // The fastest of those the choice takes into account; a bands candidate only where it
  // halves the heuristic's sub-graph levels at its n_max.
  std::size_t best = 0;
  ASSERT_EQ(an.candidate_pruned.size(), an.candidates.size());
  for (std::size_t k = 0; k < an.candidates.size(); ++k) {
    if (an.candidate_splits[k] == heuristic) {
      EXPECT_EQ(an.candidate_chosen_from[k], !an.candidate_pruned[k]);
    }
    if (an.candidate_chosen_from[k] && an.candidate_seconds[k] < an.candidate_seconds[best]) best = k;
  }
  for (std::size_t k : {6u, 7u}) {
    EXPECT_EQ(an.candidate_halves_levels[k], 2 * an.candidate_levels[k] <= an.candidate_levels[k == 6 ? 2 : 4]);
    EXPECT_EQ(an.candidate_chosen_from[k], !an.candidate_pruned[k] && an.candidate_halves_levels[k]);
  }
  EXPECT_EQ(an.chosen, best);
  EXPECT_EQ(an.plan.n_max, an.candidates[best]);
  EXPECT_EQ(an.split, an.candidate_splits[best]);
  EXPECT_DOUBLE_EQ(an.predicted_seconds, an.candidate_seconds[best]);
  EXPECT_LE(an.plan.largest, an.plan.n_max);
  EXPECT_EQ(an.row_levels, 60 + 60 - 1);
  EXPECT_EQ(an.internal_edges + an.external_edges, 2 * 60 * 59);
  // A fixed n_max is taken as given.
  EXPECT_EQ(analyze(s, {.n_max = 77, .n_max_limit = 1000}).plan.n_max, 77);
}

TEST(SptrsvAnalysis, ModelPicksTheTaskWidth) {
  // Dense rows: slots of several hundred edges, which 512 threads take in fewer rounds.
  const LowerSystem s =
      make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::banded<double>(1500, 1200, 0, 5)), {});
  const ModelConstants narrow{1e-6, 1e-7, 1e-7, kTasslThreads}, wide{1e-6, 1e-7, 1e-7, kWideTasslThreads};
  auto wide_with_start = [&](double start) {
    ModelConstants m = wide;
    m.start = start;
    return m;
  };
  // Equal constants: the wide task's fewer rounds decide.
  const Analysis fewer_rounds =
      analyze(s, {.n_max = 512, .n_max_limit = 6144, .split = Split::heuristic, .models = {narrow, wide}});
  EXPECT_EQ(fewer_rounds.plan.threads, kWideTasslThreads);
  EXPECT_EQ(fewer_rounds.candidate_threads, (std::vector<int>{kWideTasslThreads}));
  EXPECT_EQ(check_device_plan(fewer_rounds.plan), "");
  // A start that outweighs them: the narrow task.
  const Analysis costly = analyze(
      s, {.n_max = 512, .n_max_limit = 6144, .split = Split::heuristic, .models = {narrow, wide_with_start(1.0)}});
  EXPECT_EQ(costly.plan.threads, kTasslThreads);
  EXPECT_GT(fewer_rounds.predicted_seconds, 0.0);
  EXPECT_LT(costly.predicted_seconds, 1.0);
  // A width asked for is taken, with its model only; an unknown width is refused.
  const Analysis asked = analyze(s, {.n_max = 512, .n_max_limit = 6144, .threads = kTasslThreads,
                                     .split = Split::heuristic, .models = {narrow, wide}});
  EXPECT_EQ(asked.plan.threads, kTasslThreads);
  EXPECT_GT(asked.predicted_seconds, fewer_rounds.predicted_seconds);
  EXPECT_THROW(analyze(s, {.n_max = 512, .n_max_limit = 6144, .threads = 300}), std::invalid_argument);
  EXPECT_THROW(analyze(s, {.n_max = 512, .n_max_limit = 6144, .threads = kWideTasslThreads, .models = {narrow}}),
               std::invalid_argument);
}

TEST(SptrsvAnalysis, WideTasksHoldLargerSubgraphs) {
  const LowerSystem s =
      make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(70, 60)), {});
  const Analysis an = analyze(s, {.n_max_limit = 1000, .wide_n_max_limit = 4000});
  EXPECT_EQ(an.candidates, (std::vector<index_t>{32, 64, 128, 256, 512, 1000, 4000, 128, 512}));
  ASSERT_EQ(an.candidate_threads.size(), an.candidates.size());
  for (std::size_t k = 0; k < an.candidates.size(); ++k)
    if (an.candidates[k] > 1000) {
      EXPECT_EQ(an.candidate_threads[k], kWideTasslThreads) << an.candidates[k];
    }
  // An n_max only the wide task holds takes it; the narrow task refuses it.
  const Analysis big = analyze(s, {.n_max = 3000, .n_max_limit = 1000, .wide_n_max_limit = 4000});
  EXPECT_EQ(big.plan.threads, kWideTasslThreads);
  EXPECT_EQ(big.plan.largest, 3000);
  EXPECT_EQ(check_device_plan(big.plan), "");
  EXPECT_THROW(analyze(s, {.n_max = 3000, .n_max_limit = 1000, .wide_n_max_limit = 4000, .threads = kTasslThreads}),
               std::invalid_argument);
  EXPECT_THROW(analyze(s, {.n_max = 5000, .n_max_limit = 1000, .wide_n_max_limit = 4000}), std::invalid_argument);
  // No candidate past the first that holds every row (300 here): it would repeat it.
  const LowerSystem small =
      make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(20, 15)), {});
  EXPECT_EQ(analyze(small, {.n_max_limit = 1000, .wide_n_max_limit = 4000}).candidates,
            (std::vector<index_t>{32, 64, 128, 256, 512, 128}));
  // The precision's limits: four times as many unknowns in a wide task.
  EXPECT_EQ(limits_of<double>().n_max_limit, 6144);
  EXPECT_EQ(limits_of<double>().wide_n_max_limit, 4 * 6144);
  EXPECT_EQ(limits_of<float>().wide_n_max_limit, 8 * 6144);
}

// Few row levels over many rows: 4000 roots and 4000 rows below them, each with three
// parents among the roots (one component). The heuristic puts a row with its parents'
// highest sub-graph and chains sub-graphs; bands make one band per level, so two
// sub-graph levels at any n_max, and the model prefers them.
TEST(SptrsvAnalysis, ModelChoosesBandsWhereTheHeuristicChains) {
  std::vector<std::pair<index_t, index_t>> edges;
  std::uint64_t x = 12345;
  for (index_t i = 4000; i < 8000; ++i)
    for (int k = 0; k < 3; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      edges.emplace_back(static_cast<index_t>((x >> 33) % 4000), i);
    }
  const LowerSystem s = make_lower_system(apiary::sptrsv::testing::from_edges(8000, edges), {});
  const Analysis chosen = analyze(s, limits_of<double>());
  EXPECT_EQ(chosen.split, Split::bands);
  EXPECT_EQ(chosen.plan.levels(), 2);
  // At one n_max, bands have fewer sub-graph levels and a lower prediction.
  const Analysis heuristic = analyze(s, limits_of<double>({.n_max = 512, .split = Split::heuristic}));
  const Analysis bands = analyze(s, limits_of<double>({.n_max = 512, .split = Split::bands}));
  EXPECT_GT(heuristic.plan.levels(), 2);
  EXPECT_EQ(bands.plan.levels(), 2);
  EXPECT_LT(bands.predicted_seconds, heuristic.predicted_seconds);
  EXPECT_LE(2 * bands.plan.levels(), heuristic.plan.levels());
  EXPECT_EQ(check_device_plan(bands.plan), "");
  // A split asked for is the only one tried, at every size.
  const Analysis only_bands = analyze(s, limits_of<double>({.split = Split::bands}));
  EXPECT_EQ(only_bands.candidates.size(), chosen.candidates.size() - 3);
  for (Split k : only_bands.candidate_splits) EXPECT_EQ(k, Split::bands);
  EXPECT_STREQ(split_name(Split::bands), "bands");
  EXPECT_STREQ(split_name(Split::heuristic), "heuristic");
}

// A 3D grid in natural order: tiles (boxes along its three strides) hold several row
// levels each, where the heuristic and bands keep about one sub-graph level per row
// level; the model takes them where they are predicted a quarter below every other
// candidate. A 2D grid of 300^2 gets tiles candidates too, but its heuristic at the
// widest n_max is predicted faster; a matrix without strides gets none.
TEST(SptrsvAnalysis, ModelChoosesTilesOnA3DGrid) {
  const LowerSystem grid = make_lower_system(
      apiary::sparse::lower_triangle(apiary::sparse::poisson3d<double>(60, 60, 60)), {});
  const Analysis chosen = analyze(grid, limits_of<double>());
  EXPECT_EQ(chosen.split, Split::tiles);
  EXPECT_LE(chosen.plan.levels(), 16);
  int tiles = 0;
  for (std::size_t k = 0; k < chosen.candidates.size(); ++k)
    if (chosen.candidate_splits[k] == Split::tiles) {
      ++tiles;
      EXPECT_TRUE(chosen.candidates[k] == 1024 || chosen.candidates[k] == 4096) << chosen.candidates[k];
    } else if (chosen.candidate_chosen_from[k]) {
      EXPECT_LT(4 * chosen.predicted_seconds, 3 * chosen.candidate_seconds[k]) << chosen.candidates[k];
    }
  EXPECT_EQ(tiles, 2);
  EXPECT_EQ(check_device_plan(chosen.plan), "");
  const Analysis heuristic = analyze(grid, limits_of<double>({.n_max = 1024, .split = Split::heuristic}));
  const Analysis boxes = analyze(grid, limits_of<double>({.n_max = 1024, .split = Split::tiles}));
  EXPECT_GT(heuristic.plan.levels(), 4 * boxes.plan.levels());
  EXPECT_EQ(boxes.plan.subgraphs, 216);  // boxes of 10^3
  EXPECT_EQ(boxes.partition.tiles, 216);

  const Analysis plane = analyze(
      make_lower_system(apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(300, 300)), {}),
      limits_of<double>());
  EXPECT_NE(plane.split, Split::tiles);
  EXPECT_NE(std::find(plane.candidate_splits.begin(), plane.candidate_splits.end(), Split::tiles),
            plane.candidate_splits.end());
  const Analysis scattered =
      analyze(make_lower_system(apiary::sparse::random_lower_dag<double>({4000, 30, 1}, 7), {}), limits_of<double>());
  EXPECT_EQ(std::find(scattered.candidate_splits.begin(), scattered.candidate_splits.end(), Split::tiles),
            scattered.candidate_splits.end());
  EXPECT_STREQ(split_name(Split::tiles), "tiles");
  for (Split k : {Split::heuristic, Split::bands, Split::tiles}) EXPECT_EQ(parse_split(split_name(k)), k);
  EXPECT_FALSE(parse_split("levels"));
}

// Pruning (AnalysisOptions::prune) stops candidates that cannot be chosen: the choice,
// the candidates and their levels must be those of the analysis in full; a pruned
// candidate's reported time is a lower bound of its full one, above the bound; the bound
// is the least over all candidates of what the choice's rules make a candidate beat (a
// heuristic or bands candidate's time, 4/3 of a tiles candidate's, among those whose levels
// make them eligible), whichever order they finished in; and the same candidates are
// pruned every time.
TEST(SptrsvAnalysis, PruningKeepsTheChoice) {
  std::vector<std::pair<std::string, LowerSystem>> cases;
  auto add = [&](const std::string& name, const Csr<double>& lower) {
    cases.emplace_back(name, make_lower_system(lower, {}));
  };
  using namespace apiary::sparse;
  add("poisson2d:60", lower_triangle(poisson2d<double>(60, 60)));
  add("poisson2d:300", lower_triangle(poisson2d<double>(300, 300)));
  add("poisson3d:40", lower_triangle(poisson3d<double>(40, 40, 40)));
  add("poisson3d:60", lower_triangle(poisson3d<double>(60, 60, 60)));
  add("banded", lower_triangle(banded<double>(3000, 40, 0, 5)));
  add("blocks", block_diagonal_lower<double>(16, 1000, 0.001, 1));
  add("random dag", random_lower_dag<double>({4000, 30, 1}, 7));
  add("wide dag", random_lower_dag<double>({20000, 6, 4}, 3));
  int pruned_somewhere = 0;
  for (const auto& [name, s] : cases)
    for (const AnalysisOptions& asked : {AnalysisOptions{}, AnalysisOptions{.split = Split::heuristic},
                                         AnalysisOptions{.n_max = 512}}) {
      SCOPED_TRACE(name + (asked.split ? " heuristic only" : "") + (asked.n_max ? " at n_max 512" : ""));
      AnalysisOptions in_full = asked;
      in_full.prune = false;
      const Analysis full = analyze(s, limits_of<double>(in_full));
      const Analysis pruned = analyze(s, limits_of<double>(asked));
      EXPECT_EQ(pruned.plan.n_max, full.plan.n_max);
      EXPECT_EQ(pruned.plan.threads, full.plan.threads);
      EXPECT_EQ(pruned.split, full.split);
      EXPECT_EQ(pruned.chosen, full.chosen);
      EXPECT_EQ(pruned.predicted_seconds, full.predicted_seconds);
      EXPECT_EQ(pruned.plan.subgraphs, full.plan.subgraphs);
      EXPECT_EQ(pruned.candidates, full.candidates);
      EXPECT_EQ(pruned.candidate_splits, full.candidate_splits);
      EXPECT_EQ(pruned.candidate_levels, full.candidate_levels);
      EXPECT_EQ(full.pruned_above, 0.0);
      EXPECT_EQ(std::count(full.candidate_pruned.begin(), full.candidate_pruned.end(), true), 0);
      // The bound, from the full analysis's candidates by the rules.
      double bound = INFINITY;
      for (std::size_t k = 0; k < full.candidates.size(); ++k) {
        bool halves = true;
        if (!asked.split && full.candidate_splits[k] != Split::heuristic)
          for (std::size_t h = 0; h < full.candidates.size(); ++h)
            if (full.candidate_splits[h] == Split::heuristic && full.candidates[h] == full.candidates[k])
              halves = 2 * full.candidate_levels[k] <= full.candidate_levels[h];
        const bool tiles = !asked.split && full.candidate_splits[k] == Split::tiles;
        if (halves) bound = std::min(bound, tiles ? full.candidate_seconds[k] * 4 / 3 : full.candidate_seconds[k]);
      }
      EXPECT_DOUBLE_EQ(pruned.pruned_above, bound);
      for (std::size_t k = 0; k < full.candidates.size(); ++k) {
        SCOPED_TRACE(k);
        if (pruned.candidate_pruned[k]) {
          ++pruned_somewhere;
          EXPECT_FALSE(pruned.candidate_chosen_from[k]);
          EXPECT_LE(pruned.candidate_seconds[k], full.candidate_seconds[k]);
          EXPECT_GT(pruned.candidate_seconds[k], pruned.pruned_above);
        } else {
          EXPECT_EQ(pruned.candidate_seconds[k], full.candidate_seconds[k]);
          EXPECT_EQ(pruned.candidate_threads[k], full.candidate_threads[k]);
          // Tiles may be taken into account where a pruned candidate would have made them
          // miss the quarter; the others as in full.
          if (full.candidate_splits[k] != Split::tiles || asked.split)
            EXPECT_EQ(pruned.candidate_chosen_from[k], full.candidate_chosen_from[k]);
        }
      }
      for (int again = 0; again < 2; ++again)
        EXPECT_EQ(analyze(s, limits_of<double>(asked)).candidate_pruned, pruned.candidate_pruned);
    }
  EXPECT_GT(pruned_somewhere, 20);
}

}  // namespace
