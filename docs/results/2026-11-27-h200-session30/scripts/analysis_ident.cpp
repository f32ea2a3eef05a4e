// Hashes of the analysis of each matrix: every candidate's partition, schedule and DAG,
// and the chosen device plan. Built against two trees, the outputs must be equal.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/device_plan.hpp"

using namespace apiary;
using apiary::sparse::Csr;
using apiary::sparse::index_t;
using clk = std::chrono::steady_clock;

struct H {
  unsigned long long h = 1469598103934665603ull;
  template <class T, class A>
  void add(const std::vector<T, A>& v) {
    add_bytes(v.data(), v.size() * sizeof(T));
    add_bytes(&h, 0);
    unsigned long long n = v.size();
    add_bytes(&n, sizeof n);
  }
  void add_bytes(const void* p, std::size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void val(T x) { add_bytes(&x, sizeof x); }
};

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string spec = argv[i];
    Csr<double> a;
    if (spec.rfind("blocks", 0) == 0) {
      int k, s; double d;
      std::sscanf(spec.c_str(), "blocks%dx%d@%lf", &k, &s, &d);
      a = sparse::block_diagonal_lower<double>(k, s, d / 100, 1);
    } else if (sparse::is_generator_spec(spec)) a = sparse::generate<double>(spec);
    else a = sparse::read_csr<double>(spec);
    sptrsv::SystemOptions so;
    if (getenv("LOWER")) so.take = sparse::Triangle::lower;
    sptrsv::LowerSystem sys;
    try {
      sys = sptrsv::make_lower_system(a, so);
    } catch (const std::exception&) {
      so.unit_diagonal = true;
      sys = sptrsv::make_lower_system(a, so);
    }
    sptrsv::AnalysisOptions o;
    o.n_max_limit = 6144;
    auto t0 = clk::now();
    auto an = sptrsv::analyze(sys, o);
    auto t1 = clk::now();
    H h;
    const auto& d = an.plan;
    h.val(d.n); h.val(d.subgraphs); h.val(d.n_max); h.val(d.largest);
    h.add(d.part_ptr); h.add(d.load_index); h.add(d.diagonal); h.add(d.external_slots); h.add(d.slot_ptr);
    h.add(d.edge_ptr); h.add(d.edge_source); h.add(d.edge_target); h.add(d.edge_value); h.add(d.succ_ptr);
    h.add(d.succ); h.add(d.pred_count); h.add(d.level); h.add(d.level_ptr); h.add(d.order);
    h.add(an.candidate_seconds);
    std::printf("%-28s plan %016llx analyze %.1f ms", spec.c_str(), h.h, std::chrono::duration<double, std::milli>(t1 - t0).count());
    if (getenv("CANDS")) {
      H c;
      for (index_t m : an.candidates) {
        sptrsv::PartitionStats st;
        auto p = sptrsv::partition(sys.lower, m, &st);
        auto s = sptrsv::build_schedule(sys.lower, p);
        auto g = sptrsv::subgraph_dag(sys.lower, p);
        c.add(p.part); c.add(p.part_ptr); c.add(p.vertices); c.val(st.heuristic_attempts);
        c.add(s.external_slots); c.add(s.internal_slots); c.add(s.slot_ptr); c.add(s.edge_ptr); c.add(s.edge_source);
        c.add(s.edge_target); c.add(s.edge_value); c.add(s.ready_ptr); c.add(s.ready); c.add(s.division_ptr);
        c.add(s.division); c.add(s.diagonal);
        c.add(g.pred_ptr); c.add(g.pred); c.add(g.level); c.add(g.level_ptr); c.add(g.order);
        c.val(g.internal_edges); c.val(g.external_edges);
        std::string why = sptrsv::check_schedule(sys.lower, p, s);
        if (!why.empty()) std::printf(" CHECK FAILED n_max %d: %s", m, why.c_str());
      }
      std::printf(" candidates %016llx", c.h);
    }
    std::printf("\n");
  }
}
