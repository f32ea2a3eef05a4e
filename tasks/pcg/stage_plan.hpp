// The PCG iteration as a cycle of stages, for the task program (pcg_tasks.cu). Plain
// host C++, tested on every machine.
//
// One iteration is a fixed sequence of stages; each stage is a set of independent
// chunk tasks, and a stage starts when the last task of the one before it has
// finished (the task program finds that task with an arrival counter; nothing waits
// on the host). Every stage boundary costs a few microseconds of latency, so work that
// needs no global result in between shares a stage:
//
//   ic0 forward     one stage per level set of L but the first (y = L^-1 r); a row
//                   without entries right of the diagonal in L^T also gets z = y / d
//   ic0 backward    one stage per level set of L^T but the first (z = L^-T y)
//     -> decide (at the end of the preconditioner): rz' = r.z (breakdown test from
//        the second pass on), beta = rz' / rz
//   spmv            p' = z + beta p, q = A p' (partial p'.q); each task forms the
//                   entries of p' it reads itself, so p is double-buffered
//     -> decide: p.q (breakdown test), alpha = rz / p.q
//   update          x += alpha p, r -= alpha q (partial r.r), then what the new r
//                   alone gives of the preconditioner: ic0 y = r / d on the first level
//                   set of L (and z = y / d where that row is also in the first level
//                   set of L^T); jacobi z = r / diag(A); none z = r
//     -> decide: ||r|| / ||b|| below the tolerance, or the iteration limit: stop;
//        with no preconditioner stage (jacobi, none, a diagonal factor) then r.z
//
// Jacobi and plain CG are two stages per iteration, IC(0) on a red-black ordering four.
// The run starts with a priming pass of the update stage (alpha = 0, p = q = 0: r = b,
// no stopping test), so the first pass computes z0 = M^-1 b and p0 = z0 as the rest do.
// Every chunk leaves two partials: its own stage's sum (spmv, update) and its share of
// r.z; the r.z decision sums the second over all chunks in order.
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
  forward,   // y = L^-1 r on one level set of L (z = y / d for rows of L^T's first)
  backward,  // z = L^-T y on one level set of L^T
  spmv,      // p = z + beta p, q = A p; partial p.q
  update,    // x += alpha p, r -= alpha q, the preconditioner's row-local part; partial r.r
};
std::string_view to_string(StageKind k);

// Threads per task of the task program (pcg_tasks.cu).
inline constexpr int kStageThreads = 256;
// Entries each lane of a row loads at once in a sparse stage (pcg_tasks.cu's sweep):
// 8 was the fastest of 2, 4 and 8 on Poisson 3D on an H100 (docs/pcg.md).
inline constexpr int kSweepRounds = 8;

// Lanes per row of a sparse chunk: enough that a row of the mean length takes one
// round of kSweepRounds loads per lane, and as many as kStageThreads spread over the
// chunk's rows; a power of two from 1 to 32, not beyond the longest row.
std::int32_t sweep_lanes(index_t rows, index_t longest, std::int64_t entries);

// One task's work: positions [begin, end) of its stage's rows (the triangle's positions
// for forward and backward, rows of A otherwise), `lanes` threads per row
// (sweep_lanes; 1 for the update).
struct StageChunk {
  std::int32_t begin = 0;
  std::int32_t end = 0;
  std::int32_t lanes = 1;
  std::int32_t stage = 0;
};

// A stage: chunks [first_chunk, first_chunk + chunk_count). The last task of spmv and
// update sums their chunks' own partials in order and decides; the last task of the
// stage that ends_preconditioner sums every chunk's r.z partial in order and decides.
struct Stage {
  StageKind kind = StageKind::update;
  std::int32_t first_chunk = 0;
  std::int32_t chunk_count = 0;
  std::int32_t ends_preconditioner = 0;
};

// Per row of A, for ic0: what the update and the forward stages do of the
// preconditioner's solves beyond their own level.
enum RowFlags : std::uint8_t {
  kFirstLevel = 1,  // no entry left of the diagonal in L: y = r / d in the update
  kUpperFree = 2,   // none right of the diagonal in L^T: z = y / d where y is formed
};

// Chunk sizes: rows of a sparse stage are grouped up to `nnz` entries and `rows` rows
// (a longer row is a chunk of its own); the update takes `vector_rows` rows per chunk.
// A budget of 0 is automatic: a stage is cut into about `tasks` chunks (TaskLoop: the
// blocks the megakernel keeps resident, so that a stage is one wave of tasks), but no
// chunk below kMinAutoChunk entries (rows for the update), and sparse chunks have no
// row limit. A stage of fewer chunks than resident blocks leaves blocks idle; one of
// more runs in a second, partial wave: both cost the stage time.
struct StageBudgets {
  int nnz = 0;
  int rows = 0;
  int vector_rows = 0;
  int tasks = 0;  // the automatic budgets' target; needed where a budget is 0
};
inline constexpr int kMinAutoChunk = 1024;

struct StagePlan {
  std::vector<Stage> stages;  // one iteration, from the preconditioner to the update
  std::vector<StageChunk> chunks;
  std::vector<std::uint8_t> row_flags;  // ic0: RowFlags per row of A; empty otherwise
  std::int32_t max_chunks = 0;          // most chunks of one stage: the tasks queued at once
  std::int32_t update_stage() const { return static_cast<std::int32_t>(stages.size()) - 1; }
};

// The cycle for A (its row pointer) and preconditioner m. For ic0, `lower` and `upper`
// are the sweeps of L and L^T (sweep_triangle); ignored otherwise. std::invalid_argument
// for negative budgets, an automatic one without a positive `tasks`, or missing
// triangles.
StagePlan plan_stages(std::span<const index_t> a_row_ptr, HostPreconditioner m, const SweepTriangle* lower,
                      const SweepTriangle* upper, const StageBudgets& budgets = {});

}  // namespace apiary::pcg
