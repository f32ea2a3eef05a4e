// Host parts of PCG: the IC(0) oracle and its breakdown error, the orderings (colouring
// validity), and the host PCG reference on generated and shared SPD matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "sparse/convert.hpp"
#include "sparse/reference.hpp"
#include "tasks/pcg/ordering.hpp"
#include "tasks/pcg/pcg_reference.hpp"
#include "tasks/pcg/stage_plan.hpp"
#include "sparse/transform.hpp"
#include "tests/tasks/pcg/pcg_cases.hpp"

namespace apiary::pcg {
namespace {

using testing::generated_cases;

Csr<double> dense_to_csr(index_t n, const std::vector<double>& d) {
  Csr<double> a;
  a.rows = a.cols = n;
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j)
      if (d[static_cast<std::size_t>(i * n + j)] != 0) {
        a.col.push_back(j);
        a.val.push_back(d[static_cast<std::size_t>(i * n + j)]);
      }
    a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
  }
  return a;
}

// (L L^T)(i, j) for the stored lower pattern.
double llt(const Csr<double>& l, index_t i, index_t j) {
  double s = 0;
  for (index_t p = l.row_begin(i); p < l.row_end(i); ++p)
    for (index_t q = l.row_begin(j); q < l.row_end(j); ++q)
      if (l.col[p] == l.col[q]) s += l.val[p] * l.val[q];
  return s;
}

void expect_matches_on_pattern(const Csr<double>& a, const Csr<double>& l, double shift = 0) {
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const index_t j = a.col[k];
      if (j > i) continue;
      const double want = j == i ? a.val[k] * (1 + shift) : a.val[k];
      EXPECT_NEAR(llt(l, i, j), want, 1e-12 * std::max(1.0, std::abs(want))) << "row " << i << " col " << j;
    }
}

TEST(Ic0, TridiagonalIsExactCholesky) {
  // No fill for a tridiagonal matrix: IC(0) is the Cholesky factor.
  const index_t n = 6;
  std::vector<double> d(n * n, 0.0);
  for (index_t i = 0; i < n; ++i) {
    d[i * n + i] = 4;
    if (i > 0) d[i * n + i - 1] = d[(i - 1) * n + i] = -1;
  }
  const Csr<double> a = dense_to_csr(n, d);
  const Csr<double> l = ic0_reference(a);
  EXPECT_EQ(l.nnz(), 2u * n - 1);
  EXPECT_DOUBLE_EQ(l.val[0], 2.0);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(l.col[l.row_end(i) - 1], i) << "diagonal stored last";
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) EXPECT_NEAR(llt(l, std::max(i, j), std::min(i, j)), d[i * n + j], 1e-14);
}

TEST(Ic0, MatchesOnPatternOfGeneratedMatrices) {
  for (const auto& c : generated_cases()) {
    SCOPED_TRACE(c.name);
    const Csr<double> l = ic0_reference(c.a);
    EXPECT_EQ(l.nnz(), sparse::lower_triangle(c.a).nnz());
    expect_matches_on_pattern(c.a, l);
  }
}

TEST(Ic0, ShiftScalesTheDiagonal) {
  const Csr<double> a = sparse::poisson2d<double>(5, 4);
  expect_matches_on_pattern(a, ic0_reference(a, 0.5), 0.5);
}

TEST(Ic0, BreakdownNamesRowAndSuggestsShift) {
  const Csr<double> a = dense_to_csr(3, {2, 0, 0, 0, 1, 2, 0, 2, 1});  // indefinite block at rows 1, 2
  try {
    ic0_reference(a);
    FAIL() << "expected Ic0Breakdown";
  } catch (const Ic0Breakdown& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_DOUBLE_EQ(e.pivot(), -3.0);
    const std::string what = e.what();
    EXPECT_NE(what.find("row 2"), std::string::npos) << what;
    EXPECT_NE(what.find("--shift"), std::string::npos) << what;
    const std::string mapped = with_original_row(e, 7, "rcm");
    EXPECT_NE(mapped.find("row 2 of the rcm-ordered matrix (row 7 of the input"), std::string::npos) << mapped;
    EXPECT_NE(mapped.find("--shift"), std::string::npos) << mapped;
  }
  // A shift of 2 makes the diagonal 3: 3 - 4/3 > 0.
  EXPECT_NO_THROW(ic0_reference(a, 2.0));
  EXPECT_THROW(ic0_reference(a, -1.0), std::invalid_argument);
}

TEST(Ic0, MissingDiagonalBreaksDown) {
  EXPECT_THROW(ic0_reference(dense_to_csr(2, {1, 0, 0, 0})), Ic0Breakdown);  // row 1 stores nothing
  Csr<double> wide;
  wide.rows = 2;
  wide.cols = 3;
  wide.row_ptr = {0, 0, 0};
  EXPECT_THROW(ic0_reference(wide), std::invalid_argument);
}

// Rows of one colour are mutually non-adjacent, classes ordered, rows by index within.
void expect_valid_coloring(const Csr<double>& a) {
  const Coloring c = greedy_coloring(a);
  ASSERT_TRUE(sparse::is_permutation(c.perm));
  ASSERT_EQ(c.class_ptr.size(), static_cast<std::size_t>(c.colors) + 1);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] != i) {
        EXPECT_NE(c.color[i], c.color[a.col[k]]) << "rows " << i << ", " << a.col[k];
      }
  for (index_t col = 0; col < c.colors; ++col) {
    EXPECT_LT(c.class_ptr[col], c.class_ptr[col + 1]) << "empty colour " << col;
    for (index_t p = c.class_ptr[col]; p < c.class_ptr[col + 1]; ++p) {
      EXPECT_EQ(c.color[c.perm[p]], col);
      if (p > c.class_ptr[col]) {
        EXPECT_LT(c.perm[p - 1], c.perm[p]);
      }
    }
  }
  // In the permuted lower triangle a row of colour k depends only on rows of colours < k:
  // each colour is one parallel step of the triangular solve.
  const Csr<double> l = sparse::lower_triangle(sparse::permute_symmetric(a, std::span<const index_t>(c.perm)));
  for (index_t col = 0; col < c.colors; ++col)
    for (index_t i = c.class_ptr[col]; i < c.class_ptr[col + 1]; ++i)
      for (index_t k = l.row_begin(i); k < l.row_end(i); ++k)
        if (l.col[k] != i) {
          EXPECT_LT(l.col[k], c.class_ptr[col]) << "row " << i;
        }
}

TEST(Ordering, GreedyColoringIsValid) {
  for (const auto& c : generated_cases()) {
    SCOPED_TRACE(c.name);
    expect_valid_coloring(c.a);
  }
  for (const auto& c : testing::shared_spd_cases()) {
    SCOPED_TRACE(c.name);
    expect_valid_coloring(c.a);
  }
}

TEST(Ordering, PoissonIsRedBlack) {
  EXPECT_EQ(greedy_coloring(sparse::poisson2d<double>(9, 7)).colors, 2);
  EXPECT_EQ(greedy_coloring(sparse::poisson3d<double>(5, 4, 3)).colors, 2);
}

TEST(Ordering, EveryOrderingIsAPermutation) {
  for (const auto& c : generated_cases())
    for (Order o : kOrders) {
      SCOPED_TRACE(c.name + " " + std::string(to_string(o)));
      const Ordering ord = make_ordering(c.a, o);
      EXPECT_EQ(ord.order, o);
      EXPECT_EQ(ord.perm.size(), static_cast<std::size_t>(c.a.rows));
      EXPECT_TRUE(sparse::is_permutation(ord.perm));
      EXPECT_EQ(ord.colors > 0, o == Order::color);
    }
}

TEST(Ordering, NamesRoundTrip) {
  for (Order o : kOrders) EXPECT_EQ(parse_order(to_string(o)), o);
  EXPECT_EQ(parse_order("colour"), Order::color);
  EXPECT_FALSE(parse_order("amd"));
}

struct Solved {
  PcgResult result;
  double true_residual;
};

Solved solve_ordered(const Csr<double>& a, Order o, HostPreconditioner m, const PcgOptions& opt, double shift = 0) {
  const Ordering ord = make_ordering(a, o);
  const Csr<double> pa = sparse::permute_symmetric(a, std::span<const index_t>(ord.perm));
  std::vector<double> b(static_cast<std::size_t>(a.rows));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.001 * static_cast<double>(i)) + 1.5;
  const std::vector<double> pb = sparse::permute_vector(std::span<const double>(b), std::span<const index_t>(ord.perm));
  Csr<double> l;
  if (m == HostPreconditioner::ic0) l = ic0_reference(pa, shift);
  PcgResult r = pcg_reference(pa, pb, m, &l, opt);
  return {r, sparse::relative_residual(pa, std::span<const double>(r.x), std::span<const double>(pb))};
}

TEST(PcgReference, ConvergesOnGeneratedMatricesForEveryOrderingAndPreconditioner) {
  const PcgOptions opt{.tolerance = 1e-8};
  for (const auto& c : generated_cases()) {
    std::array<int, 3> ic0_iterations{};
    for (Order o : kOrders)
      for (HostPreconditioner m : {HostPreconditioner::none, HostPreconditioner::jacobi, HostPreconditioner::ic0}) {
        SCOPED_TRACE(c.name + " " + std::string(to_string(o)) + " precond " + std::to_string(static_cast<int>(m)));
        const Solved s = solve_ordered(c.a, o, m, opt);
        EXPECT_TRUE(s.result.converged()) << s.result.reason;
        EXPECT_LT(s.result.residual, opt.tolerance);
        EXPECT_LT(s.true_residual, 10 * opt.tolerance);
        EXPECT_EQ(s.result.history.size(), static_cast<std::size_t>(s.result.iterations));
        if (m == HostPreconditioner::ic0) ic0_iterations[static_cast<int>(o)] = s.result.iterations;
      }
    // IC(0) in the colour ordering is the weaker preconditioner.
    EXPECT_GE(ic0_iterations[2], ic0_iterations[0]) << c.name;
  }
}

TEST(PcgReference, Ic0NeedsFewerIterationsThanCg) {
  const Csr<double> a = sparse::poisson2d<double>(40, 40);
  const PcgOptions opt{};
  EXPECT_LT(solve_ordered(a, Order::natural, HostPreconditioner::ic0, opt).result.iterations,
            solve_ordered(a, Order::natural, HostPreconditioner::none, opt).result.iterations / 2);
}

// With a constant power-of-two diagonal, Jacobi only scales r, z, p, q by powers of two:
// the same arithmetic as CG, so the same iterates bit for bit.
TEST(PcgReference, JacobiWithConstantPowerOfTwoDiagonalIsCg) {
  const Csr<double> a = sparse::poisson2d<double>(30, 20);  // diagonal 4
  const Solved cg = solve_ordered(a, Order::natural, HostPreconditioner::none, {});
  const Solved jac = solve_ordered(a, Order::natural, HostPreconditioner::jacobi, {});
  EXPECT_EQ(cg.result.iterations, jac.result.iterations);
  EXPECT_EQ(cg.result.x, jac.result.x);
}

TEST(PcgReference, ReportsNonConvergence) {
  const Csr<double> a = sparse::poisson2d<double>(20, 20);
  const Solved s = solve_ordered(a, Order::natural, HostPreconditioner::ic0, {.tolerance = 1e-8, .max_iterations = 3});
  EXPECT_EQ(s.result.stop, Stop::max_iterations);
  EXPECT_EQ(s.result.iterations, 3);
  EXPECT_GT(s.result.residual, 1e-8);
  EXPECT_NE(s.result.reason.find("not converged after 3 iterations"), std::string::npos) << s.result.reason;
}

TEST(PcgReference, ReportsBreakdownOnIndefiniteMatrix) {
  const Csr<double> a = dense_to_csr(2, {1, 0, 0, -1});
  const std::vector<double> b{1, 1};
  const PcgResult r = pcg_reference(a, b, HostPreconditioner::none, nullptr, {});
  EXPECT_EQ(r.stop, Stop::breakdown);
  EXPECT_NE(r.reason.find("p.Ap"), std::string::npos) << r.reason;
  EXPECT_THROW(pcg_reference(a, b, HostPreconditioner::jacobi, nullptr, {}), std::invalid_argument);
}

TEST(PcgReference, ZeroRightHandSideAndBadOptions) {
  const Csr<double> a = sparse::poisson2d<double>(4, 4);
  const std::vector<double> zero(16, 0.0);
  const PcgResult r = pcg_reference(a, zero, HostPreconditioner::none, nullptr, {});
  EXPECT_TRUE(r.converged());
  EXPECT_EQ(r.iterations, 0);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::none, nullptr, {.tolerance = 0}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::none, nullptr, {.max_iterations = -1}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, std::vector<double>(3), HostPreconditioner::none, nullptr, {}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::ic0, nullptr, {}), std::invalid_argument);
}

// The shared SPD matrices: IC(0)-PCG converges in every ordering (with the smallest
// shift that lets IC(0) through), to a true residual below 10 tol.
TEST(PcgReference, ConvergesOnSharedSpdMatrices) {
  const auto cases = testing::shared_spd_cases();
  if (cases.empty()) GTEST_SKIP() << "no SPD matrices in " << APIARY_SHARED_MATRICES;
  for (const auto& c : cases)
    for (Order o : kOrders) {
      SCOPED_TRACE(c.name + " " + std::string(to_string(o)));
      const Ordering ord = make_ordering(c.a, o);
      const Csr<double> pa = sparse::permute_symmetric(c.a, std::span<const index_t>(ord.perm));
      const auto [shift, l] = testing::factor_with_smallest_shift(pa);
      ASSERT_GE(shift, 0) << "IC(0) breaks down even with shift 1";
      std::vector<double> b(static_cast<std::size_t>(pa.rows), 1.0);
      const PcgResult r = pcg_reference(pa, b, HostPreconditioner::ic0, &l, {.tolerance = 1e-8, .max_iterations = 10 * pa.rows});
      EXPECT_TRUE(r.converged()) << r.reason;
      EXPECT_LT(sparse::relative_residual(pa, std::span<const double>(r.x), std::span<const double>(b)), 1e-7);
      std::printf("  %-10s %-8s shift %-6g iterations %d\n", c.name.c_str(), std::string(to_string(o)).c_str(), shift,
                  r.iterations);
    }
}


// ---- the task program's stage plan ----

// Every position of a sweep depends only on positions of earlier levels, every row is
// at exactly one position, and the entries are the factor's strict triangle.
void check_sweep(const SweepTriangle& t, const Csr<double>& f, bool upper) {
  const auto n = static_cast<std::size_t>(f.rows);
  ASSERT_EQ(t.rows.size(), n);
  std::vector<index_t> level_of(n, -1), pos_of(n, -1);
  for (index_t l = 0; l < t.levels(); ++l)
    for (index_t pos = t.level_ptr[l]; pos < t.level_ptr[l + 1]; ++pos) {
      ASSERT_EQ(pos_of[t.rows[pos]], -1) << "row " << t.rows[pos] << " twice";
      pos_of[t.rows[pos]] = pos;
      level_of[t.rows[pos]] = l;
    }
  for (index_t pos = 0; pos < f.rows; ++pos) {
    const index_t i = t.rows[pos];
    EXPECT_EQ(t.row_ptr[pos + 1] - t.row_ptr[pos], f.row_end(i) - f.row_begin(i) - 1) << "row " << i;
    for (index_t k = t.row_ptr[pos]; k < t.row_ptr[pos + 1]; ++k) {
      const index_t j = t.col[k];
      EXPECT_TRUE(upper ? j > i : j < i) << i << ", " << j;
      EXPECT_LT(level_of[j], level_of[i]) << "row " << i << " reads row " << j << " of the same or a later level";
    }
    EXPECT_NE(t.diag[pos], 0.0);
  }
}

// The cycle is forward levels 1.., backward levels 1.., spmv, update; the chunks of
// each stage cover its positions once, in order, within the budgets; exactly one stage
// ends the preconditioner.
void check_plan(const StagePlan& plan, std::span<const index_t> a_row_ptr, const SweepTriangle* lower,
                const SweepTriangle* upper, const StageBudgets& b) {
  const auto n = static_cast<index_t>(a_row_ptr.size() - 1);
  const index_t forward_stages = lower != nullptr ? lower->levels() - 1 : 0;
  const index_t backward_stages = upper != nullptr ? upper->levels() - 1 : 0;
  ASSERT_EQ(plan.stages.size(), static_cast<std::size_t>(forward_stages + backward_stages + 2));
  EXPECT_EQ(plan.stages[plan.stages.size() - 2].kind, StageKind::spmv);
  EXPECT_EQ(plan.stages.back().kind, StageKind::update);
  EXPECT_EQ(plan.update_stage(), static_cast<std::int32_t>(plan.stages.size()) - 1);
  index_t forward = 0, backward = 0;
  std::int32_t next_chunk = 0;
  for (std::size_t s = 0; s < plan.stages.size(); ++s) {
    const Stage& st = plan.stages[s];
    SCOPED_TRACE("stage " + std::to_string(s) + " " + std::string(to_string(st.kind)));
    // The stage before spmv, or the update where the preconditioner has no stage.
    const std::size_t ends = plan.stages.size() > 2 ? plan.stages.size() - 3 : plan.stages.size() - 1;
    EXPECT_EQ(st.ends_preconditioner, s == ends ? 1 : 0);
    index_t begin = 0, end = n;
    std::span<const index_t> row_ptr = a_row_ptr;
    if (st.kind == StageKind::forward) {
      EXPECT_EQ(backward, 0) << "a forward stage after a backward one";
      begin = lower->level_ptr[++forward];
      end = lower->level_ptr[forward + 1];
      row_ptr = lower->row_ptr;
    } else if (st.kind == StageKind::backward) {
      begin = upper->level_ptr[++backward];
      end = upper->level_ptr[backward + 1];
      row_ptr = upper->row_ptr;
    }
    // The automatic budgets (StageBudgets): about b.tasks chunks, none tiny.
    const auto automatic = [&](int fixed, std::int64_t total) {
      return fixed > 0 ? std::int64_t{fixed} : std::max<std::int64_t>(kMinAutoChunk, (total + b.tasks - 1) / b.tasks);
    };
    const std::int64_t nnz_budget = automatic(b.nnz, row_ptr[end] - row_ptr[begin]);
    const std::int64_t update_budget = automatic(b.vector_rows, n);
    if (st.kind == StageKind::update && b.vector_rows == 0) {
      EXPECT_LE(st.chunk_count, b.tasks);
    }
    // Automatic sparse chunks: no more than the budget divides the entries into, so
    // never a second wave for a remainder.
    if (st.kind != StageKind::update && b.nnz == 0 && b.rows == 0) {
      const std::int64_t entries = row_ptr[end] - row_ptr[begin];
      EXPECT_LE(st.chunk_count, std::max<std::int64_t>(1, (entries + nnz_budget - 1) / nnz_budget));
    }
    index_t at = begin;
    ASSERT_GT(st.chunk_count, 0);
    EXPECT_EQ(st.first_chunk, next_chunk);
    next_chunk += st.chunk_count;
    EXPECT_LE(st.chunk_count, plan.max_chunks);
    for (std::int32_t c = st.first_chunk; c < st.first_chunk + st.chunk_count; ++c) {
      const StageChunk& ch = plan.chunks[static_cast<std::size_t>(c)];
      EXPECT_EQ(ch.stage, static_cast<std::int32_t>(s));
      EXPECT_EQ(ch.begin, at);
      EXPECT_GT(ch.end, ch.begin);
      EXPECT_TRUE(std::has_single_bit(static_cast<unsigned>(ch.lanes)) && ch.lanes <= 32) << ch.lanes;
      if (st.kind != StageKind::update) {
        if (b.rows > 0) {
          EXPECT_LE(ch.end - ch.begin, b.rows);
        }
        if (ch.end - ch.begin > 1 && b.nnz > 0) {
          EXPECT_LE(row_ptr[ch.end] - row_ptr[ch.begin], nnz_budget);
        }
        if (ch.end - ch.begin > 1 && b.nnz == 0) {  // closed once the budget was reached
          EXPECT_LT(row_ptr[ch.end - 1] - row_ptr[ch.begin], nnz_budget);
        }
      } else {
        EXPECT_LE(ch.end - ch.begin, update_budget);
        EXPECT_EQ(ch.lanes, 1);
      }
      at = ch.end;
    }
    EXPECT_EQ(at, end);
  }
  EXPECT_EQ(next_chunk, static_cast<std::int32_t>(plan.chunks.size()));
  EXPECT_EQ(forward, forward_stages);
  EXPECT_EQ(backward, backward_stages);
}

// z = (L L^T)^-1 r as the task program forms it (pcg_tasks.cu): the update's row-local
// part, then the forward and backward stages in order, chunk by chunk. y and z start
// as NaN, so a row read before it is formed shows.
std::vector<double> replay_preconditioner(const StagePlan& plan, const SweepTriangle& lower,
                                          const SweepTriangle& upper, const std::vector<double>& r) {
  const std::size_t n = r.size();
  std::vector<double> y(n, NAN), z(n, NAN), diag(n);
  for (std::size_t pos = 0; pos < n; ++pos) diag[static_cast<std::size_t>(lower.rows[pos])] = lower.diag[pos];
  for (std::size_t i = 0; i < n; ++i)
    if (plan.row_flags[i] & kFirstLevel) {
      y[i] = r[i] / diag[i];
      if (plan.row_flags[i] & kUpperFree) z[i] = y[i] / diag[i];
    }
  for (const Stage& st : plan.stages) {
    if (st.kind != StageKind::forward && st.kind != StageKind::backward) continue;
    const bool fwd = st.kind == StageKind::forward;
    const SweepTriangle& t = fwd ? lower : upper;
    for (std::int32_t c = st.first_chunk; c < st.first_chunk + st.chunk_count; ++c)
      for (index_t pos = plan.chunks[static_cast<std::size_t>(c)].begin; pos < plan.chunks[static_cast<std::size_t>(c)].end; ++pos) {
        const auto i = static_cast<std::size_t>(t.rows[pos]);
        double sum = 0;
        for (index_t k = t.row_ptr[pos]; k < t.row_ptr[pos + 1]; ++k) sum += t.val[k] * (fwd ? y : z)[t.col[k]];
        if (fwd) {
          y[i] = (r[i] - sum) / t.diag[pos];
          if (plan.row_flags[i] & kUpperFree) z[i] = y[i] / t.diag[pos];
        } else {
          z[i] = (y[i] - sum) / t.diag[pos];
        }
      }
  }
  return z;
}

TEST(StagePlan, Ic0CycleOnEveryOrdering) {
  for (const auto& c : generated_cases())
    for (Order o : kOrders) {
      SCOPED_TRACE(c.name + " " + std::string(to_string(o)));
      const Ordering ord = make_ordering(c.a, o);
      const Csr<double> a = sparse::permute_symmetric(c.a, std::span<const index_t>(ord.perm));
      const auto [shift, l] = testing::factor_with_smallest_shift(a);
      ASSERT_GE(shift, 0);
      const Csr<double> u = sparse::transpose(l);
      const SweepTriangle lower = sweep_triangle(l, false), upper = sweep_triangle(u, true);
      check_sweep(lower, l, false);
      check_sweep(upper, u, true);
      // Rows of one colour are independent: at most as many levels as colours.
      if (o == Order::color) {
        EXPECT_LE(lower.levels(), ord.colors);
        EXPECT_LE(upper.levels(), ord.colors);
      }
      std::vector<double> r(static_cast<std::size_t>(a.rows));
      for (std::size_t i = 0; i < r.size(); ++i) r[i] = 1.0 + static_cast<double>(i % 7) / 3;
      const std::vector<double> want = sparse::triangular_solve(
          u, std::span<const double>(sparse::triangular_solve(l, std::span<const double>(r))),
          {.triangle = sparse::Triangle::upper});
      for (const StageBudgets b : {StageBudgets{.tasks = 3}, StageBudgets{.nnz = 8, .rows = 4, .vector_rows = 16}}) {
        const StagePlan plan = plan_stages(a.row_ptr, HostPreconditioner::ic0, &lower, &upper, b);
        check_plan(plan, a.row_ptr, &lower, &upper, b);
        ASSERT_EQ(plan.row_flags.size(), r.size());
        for (index_t pos = 0; pos < a.rows; ++pos) {
          const auto i = static_cast<std::size_t>(lower.rows[pos]);
          EXPECT_EQ((plan.row_flags[i] & kFirstLevel) != 0, pos < lower.level_ptr[1]) << "row " << i;
        }
        for (index_t pos = 0; pos < a.rows; ++pos) {
          const auto i = static_cast<std::size_t>(upper.rows[pos]);
          EXPECT_EQ((plan.row_flags[i] & kUpperFree) != 0, pos < upper.level_ptr[1]) << "row " << i;
        }
        const std::vector<double> z = replay_preconditioner(plan, lower, upper, r);
        for (std::size_t i = 0; i < r.size(); ++i)
          ASSERT_NEAR(z[i], want[i], 1e-12 * std::max(1.0, std::abs(want[i]))) << "row " << i;
      }
    }
}

// Poisson 2D in colour order is red-black: one level of each colour per sweep.
TEST(StagePlan, RedBlackPoissonHasTwoLevelsPerSweep) {
  const Csr<double> p = sparse::poisson2d<double>(16, 16);
  const Ordering ord = make_ordering(p, Order::color);
  ASSERT_EQ(ord.colors, 2);
  const Csr<double> a = sparse::permute_symmetric(p, std::span<const index_t>(ord.perm));
  const Csr<double> l = ic0_reference(a, 0);
  EXPECT_EQ(sweep_triangle(l, false).levels(), 2);
  EXPECT_EQ(sweep_triangle(sparse::transpose(l), true).levels(), 2);
}

TEST(StagePlan, JacobiAndPlainCgHaveTwoStages) {
  const Csr<double> a = sparse::poisson2d<double>(30, 30);
  for (HostPreconditioner m : {HostPreconditioner::jacobi, HostPreconditioner::none}) {
    const StagePlan plan = plan_stages(a.row_ptr, m, nullptr, nullptr, {.tasks = 4});
    check_plan(plan, a.row_ptr, nullptr, nullptr, {.tasks = 4});
    EXPECT_TRUE(plan.row_flags.empty());
  }
}

// A diagonal factor has one level per sweep: the update does the whole preconditioner.
TEST(StagePlan, DiagonalFactorIsAllInTheUpdate) {
  const Csr<double> a = sparse::poisson2d<double>(3, 1);
  Csr<double> l;
  l.rows = l.cols = 3;
  l.row_ptr = {0, 1, 2, 3};
  l.col = {0, 1, 2};
  l.val = {2, 3, 4};
  const SweepTriangle lower = sweep_triangle(l, false), upper = sweep_triangle(sparse::transpose(l), true);
  const StagePlan plan = plan_stages(a.row_ptr, HostPreconditioner::ic0, &lower, &upper, {.tasks = 1});
  check_plan(plan, a.row_ptr, &lower, &upper, {.tasks = 1});
  ASSERT_EQ(plan.stages.size(), 2u);
  EXPECT_EQ(plan.stages[1].ends_preconditioner, 1);
  for (std::uint8_t f : plan.row_flags) EXPECT_EQ(f, kFirstLevel | kUpperFree);
  const std::vector<double> z = replay_preconditioner(plan, lower, upper, {4, 9, 32});
  EXPECT_EQ(z, (std::vector<double>{1, 1, 2}));
}

// Automatic budgets cut a large stage into about `tasks` chunks (one wave of tasks),
// a small one into chunks of at least kMinAutoChunk entries or rows.
TEST(StagePlan, AutomaticBudgetsGiveOneWave) {
  const Csr<double> a = sparse::poisson3d<double>(80, 80, 80);  // 512000 rows, 4 to 7 entries each
  const std::int64_t nnz = a.row_ptr.back();
  for (const int tasks : {20, 132, 264}) {
    SCOPED_TRACE(tasks);
    const StagePlan plan = plan_stages(a.row_ptr, HostPreconditioner::none, nullptr, nullptr, {.tasks = tasks});
    check_plan(plan, a.row_ptr, nullptr, nullptr, {.tasks = tasks});
    EXPECT_GE(plan.stages[0].chunk_count, tasks - 1);  // spmv
    EXPECT_LE(plan.stages[0].chunk_count, tasks);
    EXPECT_EQ(plan.stages[1].chunk_count, tasks);  // update
  }
  const StagePlan many = plan_stages(a.row_ptr, HostPreconditioner::none, nullptr, nullptr, {.tasks = 100000});
  EXPECT_EQ(many.stages[1].chunk_count, 512000 / kMinAutoChunk);
  EXPECT_GE(many.stages[0].chunk_count, nnz / kMinAutoChunk);
  EXPECT_LE(many.stages[0].chunk_count, (nnz + kMinAutoChunk - 1) / kMinAutoChunk);
}

// Lanes per row: one round of kSweepRounds loads per lane for a row of the mean length,
// spread over the task's threads where the chunk has few rows, never past the longest.
TEST(StagePlan, SweepLanes) {
  static_assert(kSweepRounds == 8, "the cases below assume 8 loads per lane");
  EXPECT_EQ(sweep_lanes(3788, 7, 26288), 1);     // a 7-point stencil's chunk
  EXPECT_EQ(sweep_lanes(1000, 27, 27000), 4);    // 27 entries: 4 lanes of up to 8
  EXPECT_EQ(sweep_lanes(1000, 40, 17000), 4);    // mean 17: 3 rounds up to 4 lanes
  EXPECT_EQ(sweep_lanes(8, 7, 56), 8);           // 8 rows on 256 threads: 32 would fit, 8 cover a row
  EXPECT_EQ(sweep_lanes(1, 3, 3), 4);            // never more than the longest row needs
  EXPECT_EQ(sweep_lanes(100, 5000, 100000), 32);  // long rows: a warp each
  EXPECT_EQ(sweep_lanes(0, 0, 0), 1);
}

TEST(StagePlan, RefusesBadInput) {
  const Csr<double> a = sparse::poisson2d<double>(4, 4);
  EXPECT_THROW(plan_stages(a.row_ptr, HostPreconditioner::ic0, nullptr, nullptr, {.tasks = 1}), std::invalid_argument);
  EXPECT_THROW(plan_stages(a.row_ptr, HostPreconditioner::none, nullptr, nullptr, {.nnz = -1, .tasks = 1}),
               std::invalid_argument);
  // Automatic budgets (0) need a task target.
  EXPECT_THROW(plan_stages(a.row_ptr, HostPreconditioner::none, nullptr, nullptr, {.nnz = 0, .vector_rows = 8}),
               std::invalid_argument);
  EXPECT_NO_THROW(plan_stages(a.row_ptr, HostPreconditioner::none, nullptr, nullptr, {.nnz = 8, .vector_rows = 8}));
  // A full matrix is not a triangle; a zero diagonal is refused naming the row.
  EXPECT_THROW(sweep_triangle(a, false), std::invalid_argument);
  Csr<double> l = ic0_reference(a, 0);
  l.val[static_cast<std::size_t>(l.row_end(5) - 1)] = 0;
  try {
    sweep_triangle(l, false);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace apiary::pcg
