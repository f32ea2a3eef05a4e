// How the rows of A are handed to the device: consecutive rows grouped into chunks up
// to an entry budget and a row budget. One chunk is the work of one row task (and of one
// block in the kernel baselines), in every variant, so every variant computes the same
// iterates bit for bit. Rows with more entries than the budget are split into pieces,
// each a chunk of its own; the last piece of a row to finish combines the pieces' sums
// (see device.cuh). Plain host C++, tested on every machine.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::jacobi {

using sparse::index_t;

// Threads of a row task, of a check task and of a block in the kernel baselines.
inline constexpr int kTaskThreads = 256;

// One chunk: a range of whole rows, or one piece of a split row. 32 bytes. The
// autonomous variant's row task carries all of it but the piece count in its work item
// (tasks.cu: RowTask).
struct Chunk {
  std::int32_t row_begin = 0;     // rows [row_begin, row_end)
  std::int32_t row_end = 0;       // a piece: row_begin + 1
  std::int32_t nz_begin = 0;      // its off-diagonal entries [nz_begin, nz_end) (in the
  std::int32_t nz_end = 0;        // off-diagonal CSR of problem.hpp)
  std::int32_t first_piece = -1;  // a piece: the chunk index of its row's first piece; else -1
  std::int32_t piece_count = 0;   // a piece: how many pieces its row has (>= 2); else 0
  std::int32_t lanes = 1;         // threads per row: 1, 2, 4, 8, 16 or 32; 0: all kTaskThreads
                                  // threads on the chunk's single row (or piece)
  std::int32_t reserved = 0;

  bool is_piece() const { return first_piece >= 0; }
  friend bool operator==(const Chunk&, const Chunk&) = default;
};

struct PartitionOptions {
  int nnz_budget = 512;  // most entries of A per chunk (>= 2); a longer row is split
  int row_budget = 256;  // most rows per chunk (>= 1)
};

struct Partition {
  std::vector<Chunk> chunks;
  index_t split_rows = 0;         // rows longer than the budget
  std::int64_t piece_chunks = 0;  // chunks that hold a piece of a split row
  index_t max_rows = 0;           // most rows in one chunk
  std::int64_t max_entries = 0;   // most entries of A in one chunk (a piece: off-diagonal only)
};

// Budgets for a matrix of `rows` rows and `entries` entries of A on a GPU of
// `multiprocessors` SMs (`--nnz-budget auto`), read off the best partitions of the
// autonomous variant under the megakernel (H100, session 23, docs/jacobi.md "Choosing
// the budgets automatically"):
//  * where one task per SM holds at most 1024 entries (4 a thread), an iteration is a
//    chain of memory latencies: one task per SM, at least 512 entries (dd 10^4 and
//    10^5 non-zeros: 512 and 1024);
//  * above that, rows of 16 entries or more on average: 4096, so that a chunk fits the
//    row task's shared stage (at most 256 rows, 4096 entries; dd 10^6 and 10^7: 4096);
//  * shorter rows: about three tasks per SM, one per resident megakernel block, each
//    updating its rows without the stage (Poisson 3D 150³, 7 per row: 65536);
// rounded up to a power of two. The row budget is the entry budget, so it never binds
// first (every row has its diagonal). Rows longer than the budget are split as usual.
PartitionOptions auto_budgets(std::int64_t rows, std::int64_t entries, int multiprocessors);

// Greedy, in row order: a row joins the current chunk while the chunk stays within both
// budgets. A row has 1 + (its off-diagonal entries) entries of A: the diagonal always
// exists (problem.hpp refuses a missing one). A row with more than nnz_budget entries is
// split into ceil(entries / nnz_budget) pieces of its off-diagonal entries, as even as
// possible, so no piece holds more than the budget and none is empty. Throws
// std::invalid_argument for budgets out of range.
//
// `off_row_ptr` is the row pointer of A without its diagonal (rows + 1 entries).
Partition partition_rows(std::span<const index_t> off_row_ptr, const PartitionOptions& options);

// Threads per row for a chunk of `rows` whole rows with `off_entries` off-diagonal
// entries, the longest `max_off` of them: 0 (the whole task) for a single row longer
// than a warp's worth, otherwise a power of two up to 32 and not beyond the longest row:
// as many lanes as fit into the task for every row at once, but at least half the mean
// row length (then the task takes several passes over its rows), so that the lanes of a
// row read its entries side by side.
std::int32_t lanes_for(index_t rows, index_t max_off, std::int64_t off_entries);

// Empty when `p` is a valid partition of the rows behind off_row_ptr under `options`
// (every off-diagonal entry in exactly one chunk, rows in order, budgets kept, pieces
// consistent, lanes as lanes_for says); otherwise the first problem found, in words.
std::string check_partition(const Partition& p, std::span<const index_t> off_row_ptr, const PartitionOptions& options);

}  // namespace apiary::jacobi
