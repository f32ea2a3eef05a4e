// The report of `apiary sptrsv` without a GPU: break-even counts, the table's failure
// rows, the JSON fields and the error line, on hand-made comparisons; repeated analyses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "sparse/generators.hpp"
#include "tasks/sptrsv/compare.hpp"

namespace {

using namespace apiary::sptrsv;

VariantResult result(Variant v, double setup_ms, double solve_ms) {
  VariantResult r;
  r.variant = v;
  r.setup_ms = setup_ms;
  r.solve_ms = r.min_ms = r.max_ms = solve_ms;
  r.residual = 1e-16;
  return r;
}

Comparison comparison() {
  Comparison c;
  c.n = 1000;
  c.nnz = 5000;
  c.analysis_ms = 10;
  c.results = {result(Variant::tassl_deps, 2, 0.5), result(Variant::syncfree, 1, 2.0),
               result(Variant::cusparse, 4, 1.0)};
  return c;
}

TEST(SptrsvCompare, BreakEvenCountsSolves) {
  const Comparison c = comparison();
  // tassl-deps: 10 + 2 + k * 0.5 <= 4 + k * 1.0 from k = 16 on.
  EXPECT_EQ(c.break_even(c.results[0]), 16);
  // Slower per solve than cuSPARSE: never.
  EXPECT_FALSE(c.break_even(c.results[1]).has_value());
  // Cheaper set-up and faster solves: from the first solve.
  Comparison d = c;
  d.analysis_ms = 0;
  d.results[0].setup_ms = 1;
  EXPECT_EQ(d.break_even(d.results[0]), 1);
  // Without a cuSPARSE result there is nothing to compare with.
  Comparison e = c;
  e.results.pop_back();
  EXPECT_FALSE(e.break_even(e.results[0]).has_value());
}

TEST(SptrsvCompare, GflopsAndFailedVariants) {
  Comparison c = comparison();
  EXPECT_DOUBLE_EQ(c.gflops(c.results[0]), 2.0 * 5000 / (0.5 * 1e6));
  c.results[1].error = "out of memory";
  EXPECT_EQ(c.find(Variant::syncfree), nullptr);
  const std::string table = format_comparison(c);
  EXPECT_NE(table.find("syncfree                   failed: out of memory"), std::string::npos) << table;
  EXPECT_NE(table.find("16 solves"), std::string::npos) << table;
  EXPECT_NE(table.find("2.00x"), std::string::npos) << table;  // cuSPARSE 1.0 ms / tassl-deps 0.5 ms
  const nlohmann::json j = to_json(c);
  EXPECT_EQ(j["results"][1]["error"], "out of memory");
  EXPECT_EQ(j["results"][0]["break_even_solves"], 16);
  EXPECT_DOUBLE_EQ(j["results"][2]["solve_ms"].get<double>(), 1.0);
}

// The line `apiary sptrsv` stops with: a failed variant first, a residual over the limit,
// and cuSPARSE's named when it is over the limit too.
TEST(SptrsvCompare, ResultErrorNamesTheVariantAndCusparse) {
  Comparison c = comparison();
  EXPECT_FALSE(result_error(c, 1e-10).has_value());
  c.results[0].residual = 3e65;
  EXPECT_EQ(result_error(c, 1e-10), "sptrsv: variant tassl-deps has residual 3.000e+65 above 1.0e-10");
  c.results[2].residual = 4e60;
  c.unit_diagonal = true;
  EXPECT_EQ(result_error(c, 1e-10),
            "sptrsv: variant tassl-deps has residual 3.000e+65 above 1.0e-10; cuSPARSE's is 4.000e+60, so the "
            "system itself is likely ill-conditioned for this right-hand side (--unit-diagonal ignores the "
            "stored diagonal)");
  c.results[0].residual = 1e-16;  // cuSPARSE alone: no second clause
  EXPECT_EQ(result_error(c, 1e-10), "sptrsv: variant cusparse has residual 4.000e+60 above 1.0e-10");
  c.results[1].error = "out of memory";
  EXPECT_EQ(result_error(c, 1e-10), "sptrsv: variant syncfree failed: out of memory");
}

// setup_reps analyses are timed and the last kept: the same analysis as one alone, and
// a positive time; none is refused.
TEST(SptrsvCompare, RepeatedAnalysesKeepTheSameAnalysis) {
  const auto a = apiary::sparse::generate<double>("poisson2d:40");
  CompareOptions o;
  o.system.take = apiary::sparse::Triangle::lower;
  const Comparison once = analysis_only(a, o);
  o.setup_reps = 3;
  const Comparison thrice = analysis_only(a, o);
  EXPECT_GT(thrice.analysis_ms, 0.0);
  EXPECT_EQ(thrice.analysis.plan.n_max, once.analysis.plan.n_max);
  EXPECT_EQ(thrice.analysis.plan.subgraphs, once.analysis.plan.subgraphs);
  EXPECT_EQ(thrice.analysis.plan.level_ptr, once.analysis.plan.level_ptr);
  EXPECT_EQ(thrice.analysis.predicted_seconds, once.analysis.predicted_seconds);
  o.setup_reps = 0;
  EXPECT_THROW(analysis_only(a, o), std::invalid_argument);
}

}  // namespace
