// Per matrix: each candidate's predicted time (heuristic vs bands), the choice, analysis time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "sparse/generators.hpp"
#include "tasks/sptrsv/analysis.hpp"
using namespace apiary;
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string spec = argv[i];
    sparse::Csr<double> l;
    if (spec.rfind("blocks16x", 0) == 0) {
      int s = std::stoi(spec.substr(9));
      l = sparse::block_diagonal_lower<double>(16, s, 0.001, 1);
    } else if (spec.rfind("blocks", 0) == 0) {
      int k = std::stoi(spec.substr(6));
      l = sparse::block_diagonal_lower<double>(k, 6000, 0.01, 2);
    } else if (sparse::is_generator_spec(spec)) {
      l = sparse::lower_triangle(sparse::generate<double>(spec));
    } else {
      auto a = sparse::read_csr<double>(spec);
      if (!a.is_square()) continue;
      l = sparse::dominant_diagonal(sparse::lower_triangle(a, sparse::Diagonal::add_missing, 1.0));
    }
    auto sys = sptrsv::make_lower_system(l, {});
    auto run = [&](std::optional<sptrsv::Split> sp, double* ms) {
      std::vector<double> t; sptrsv::Analysis an;
      for (int r = 0; r < 3; ++r) {
        auto o = sptrsv::limits_of<double>(); o.split = sp;
        auto t0 = std::chrono::steady_clock::now();
        an = sptrsv::analyze(sys, o);
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(t.begin(), t.end()); *ms = t[1]; return an;
    };
    double th, tb;
    auto h = run(sptrsv::Split::heuristic, &th);
    auto b = run(std::nullopt, &tb);
    std::string name = std::filesystem::path(spec).filename().string();
    std::printf("%-22s n %8d levels %6d | heur: nmax %5d x%d %4d sg %4d lv pred %8.1f us (%.1f ms) | both: %s nmax %5d x%d %4d sg %4d lv pred %8.1f us (%.1f ms)\n",
      name.c_str(), l.rows, h.row_levels, h.plan.n_max, h.plan.threads, h.plan.subgraphs, h.plan.levels(), h.predicted_seconds*1e6, th,
      sptrsv::split_name(b.split), b.plan.n_max, b.plan.threads, b.plan.subgraphs, b.plan.levels(), b.predicted_seconds*1e6, tb);
    if (getenv("ALL")) for (size_t k = 0; k < b.candidates.size(); ++k)
      std::printf("    %s %5d x%d %8.1f\n", sptrsv::split_name(b.candidate_splits[k]), b.candidates[k], b.candidate_threads[k], b.candidate_seconds[k]*1e6);
  }
}
