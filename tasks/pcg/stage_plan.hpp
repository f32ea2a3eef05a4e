// The PCG iteration as a cycle of stages, for the task program (pcg_tasks.cu). Plain
// host C++, tested on every machine.
//
// One iteration is a fixed sequence of stages; each stage is a set of independent
// chunk tasks, and a stage starts when the last task of the one before it has
// finished (the task program finds that task with an arrival counter; nothing waits
// on the host). The cycle starts with the preconditioner, so that the first pass
// computes z0 = M^-1 b and p0 = z0:
//
//   preconditioner  ic0:    one stage per level set of L (forward, y = L^-1 r), then one
//                           per level set of L^T (backward, z = L^-T y; partial r.z)
//                   jacobi: z = r / diag(A) (partial r.z)
//                   none:   z = r (partial r.r)
//     -> decide: rz' = r.z (breakdown test from the second pass on), beta = rz' / rz
//   direction       p = z + beta p (p = z in the first pass)
//   spmv            q = A p (partial p.q)
//     -> decide: p.q (breakdown test), alpha = rz / p.q
//   update          x += alpha p, r -= alpha q (partial r.r)
//     -> decide: ||r|| / ||b|| below the tolerance, or the iteration limit: stop
//
// The rows of one level set of a triangle do not depend on each other, so each level
// is one stage of independent chunks. The triangles are stored in solve order (the
// rows of level 0 first, ascending within a level: SweepTriangle), so the chunks of a
// level are contiguous positions and read their entries side by side. In the colour
// ordering a triangle has at most as many levels as colours; in the natural and RCM
// orderings of a mesh it has many (the price of IC(0) there).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/formats.hpp"
#include "tasks/pcg/pcg_reference.hpp"

namespace apiary::pcg {

using sparse::Csr;
using sparse::index_t;

// The strict part of a triangular factor, rows stored in the order of its level sets:
// position `pos` holds row rows[pos]; its off-diagonal entries are
// [row_ptr[pos], row_ptr[pos + 1]) of col/val, its diagonal diag[pos]. Level l is
// positions [level_ptr[l], level_ptr[l + 1]).
struct SweepTriangle {
  std::vector<index_t> rows;
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col;
  std::vector<double> val;
  std::vector<double> diag;
  std::vector<index_t> level_ptr{0};
  index_t levels() const { return static_cast<index_t>(level_ptr.size()) - 1; }
};

// From a lower triangular factor with its diagonal stored (the forward solve,
// upper = false), or from an upper one (the backward solve, upper = true; rows depend
// on later rows). std::invalid_argument for a non-square matrix, an entry in the other
// triangle, or a missing or zero diagonal.
SweepTriangle sweep_triangle(const Csr<double>& t, bool upper);

enum class StageKind : std::int32_t {
  forward,    // y = L^-1 r on one level set of L
  backward,   // z = L^-T y on one level set of L^T; partial r.z
  scale,      // z = r / diag(A); partial r.z
  copy,       // z = r; partial r.r
  direction,  // p = z + beta p
  spmv,       // q = A p; partial p.q
  update,     // x += alpha p, r -= alpha q; partial r.r
};
std::string_view to_string(StageKind k);

// Whether each chunk of a stage of this kind leaves a partial sum.
constexpr bool leaves_partial(StageKind k) { return k != StageKind::forward && k != StageKind::direction; }

// One task's work: positions [begin, end) of its stage's rows (the triangle's positions
// for forward and backward, rows of A otherwise), `lanes` threads per row
// (sparse::lanes_per_row for 256 threads; 1 for the elementwise stages).
struct StageChunk {
  std::int32_t begin = 0;
  std::int32_t end = 0;
  std::int32_t lanes = 1;
  std::int32_t stage = 0;
};

// A stage: chunks [first_chunk, first_chunk + chunk_count). When reduce_count > 0 the
// last task of the stage sums the partials of chunks [reduce_first, reduce_first +
// reduce_count) in order and makes the decision of the stage's kind (the end of the
// preconditioner, spmv or update).
struct Stage {
  StageKind kind = StageKind::copy;
  std::int32_t first_chunk = 0;
  std::int32_t chunk_count = 0;
  std::int32_t reduce_first = 0;
  std::int32_t reduce_count = 0;
};

// Chunk sizes: rows of a sparse stage are grouped up to `nnz` entries and `rows` rows
// (a longer row is a chunk of its own); elementwise stages take `vector_rows` rows per
// chunk.
struct StageBudgets {
  int nnz = 16384;
  int rows = 4096;
  int vector_rows = 4096;
};

struct StagePlan {
  std::vector<Stage> stages;  // one iteration, from the preconditioner to the update
  std::vector<StageChunk> chunks;
  std::int32_t direction_stage = 0;  // where the preconditioner ends
  std::int32_t max_chunks = 0;       // most chunks of one stage: the tasks queued at once
};

// The cycle for A (its row pointer) and preconditioner m. For ic0, `lower` and `upper`
// are the sweeps of L and L^T (sweep_triangle); ignored otherwise. std::invalid_argument
// for budgets out of range or missing triangles.
StagePlan plan_stages(std::span<const index_t> a_row_ptr, HostPreconditioner m, const SweepTriangle* lower,
                      const SweepTriangle* upper, const StageBudgets& budgets = {});

}  // namespace apiary::pcg
