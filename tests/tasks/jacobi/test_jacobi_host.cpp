// The host side of the Jacobi solver: the work distribution (chunks, split rows, lanes),
// the diagonal split and its errors, dominance, right-hand sides, and the host model of
// the device arithmetic against the reference sparse::jacobi.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/reference.hpp"
#include "tasks/jacobi/partition.hpp"
#include "tasks/jacobi/problem.hpp"
#include "tests/tasks/jacobi/jacobi_cases.hpp"

namespace apiary::jacobi {
namespace {

using sparse::Csr;
using testing::change_tolerance;
using testing::changes_of;
using testing::relative_difference;
using testing::with_long_rows;

Csr<double> from_triplets(index_t n, const std::vector<std::tuple<index_t, index_t, double>>& t) {
  sparse::Coo<double> c;
  c.rows = n;
  c.cols = n;
  for (const auto& [i, j, v] : t) c.push_back(i, j, v);
  return sparse::coo_to_csr(c);
}

// ---- partition ----

TEST(JacobiPartition, LanesFitTheRowsIntoTheTask) {
  EXPECT_EQ(lanes_for(1, 0, 0), 1);  // a diagonal-only row
  EXPECT_EQ(lanes_for(1, 5, 5), 8);  // one short row: no more lanes than entries
  EXPECT_EQ(lanes_for(1, 32, 32), 32);
  EXPECT_EQ(lanes_for(1, 33, 33), 0);     // one long row: the whole task
  EXPECT_EQ(lanes_for(2, 500, 520), 32);  // two rows never use the whole task
  EXPECT_EQ(lanes_for(20, 26, 380), 8);   // 20 rows x 8 lanes fit in 256 threads, 16 would not
  EXPECT_EQ(lanes_for(102, 4, 400), 2);
  EXPECT_EQ(lanes_for(256, 4, 256), 1);  // a mean of 1 entry per row
  EXPECT_EQ(lanes_for(300, 4, 300), 1);  // more rows than threads: several passes
}

TEST(JacobiPartition, LongChunksGiveEachRowHalfItsMeanLength) {
  EXPECT_EQ(lanes_for(256, 27, 256 * 19), 8);     // 9.5 entries per lane: 8 lanes, 8 passes
  EXPECT_EQ(lanes_for(256, 4, 256 * 4), 2);       // 2 per lane
  EXPECT_EQ(lanes_for(300, 200, 300 * 100), 32);  // capped at a warp
  EXPECT_EQ(lanes_for(256, 3, 256 * 3), 1);       // 1.5 per lane rounds down
}

TEST(JacobiPartition, PoissonChunksKeepTheBudgets) {
  const Csr<double> a = sparse::poisson2d<double>(100, 100);
  const JacobiProblem p = split_diagonal(a);
  const PartitionOptions o;  // 512 entries, 256 rows
  const Partition part = partition_rows(p.row_ptr, o);
  EXPECT_EQ(check_partition(part, p.row_ptr, o), "");
  EXPECT_EQ(part.split_rows, 0);
  EXPECT_LE(part.max_entries, 512);
  // Greedy: every chunk but the last is full enough that the next row would not fit.
  for (std::size_t c = 0; c + 1 < part.chunks.size(); ++c) {
    const Chunk& ch = part.chunks[c];
    const std::int64_t entries = ch.nz_end - ch.nz_begin + (ch.row_end - ch.row_begin);
    const std::int64_t next = p.row_ptr[ch.row_end + 1] - p.row_ptr[ch.row_end] + 1;
    EXPECT_GT(entries + next, 512) << "chunk " << c;
  }
  EXPECT_EQ(part.chunks.back().row_end, a.rows);
}

TEST(JacobiPartition, RowBudgetLimitsChunksOfShortRows) {
  // A diagonal matrix: 1 entry per row, so only the row budget closes chunks.
  std::vector<std::tuple<index_t, index_t, double>> t;
  for (index_t i = 0; i < 1000; ++i) t.emplace_back(i, i, 2.0);
  const JacobiProblem p = split_diagonal(from_triplets(1000, t));
  PartitionOptions o;
  o.row_budget = 256;
  const Partition part = partition_rows(p.row_ptr, o);
  ASSERT_EQ(part.chunks.size(), 4u);
  EXPECT_EQ(part.chunks[0].row_end, 256);
  EXPECT_EQ(part.chunks[3].row_end - part.chunks[3].row_begin, 1000 - 3 * 256);
  EXPECT_EQ(part.chunks[0].lanes, 1);
  EXPECT_EQ(check_partition(part, p.row_ptr, o), "");
}

TEST(JacobiPartition, LongRowsAreSplitIntoPiecesWithinTheBudget) {
  const std::vector<index_t> long_rows{7, 8, 1500};
  const Csr<double> a = with_long_rows(3000, 5, 9, long_rows, 2000);
  ASSERT_EQ(a.row_length(7), 2000);
  const JacobiProblem p = split_diagonal(a);
  PartitionOptions o;
  o.nnz_budget = 512;
  const Partition part = partition_rows(p.row_ptr, o);
  EXPECT_EQ(check_partition(part, p.row_ptr, o), "");
  EXPECT_EQ(part.split_rows, 3);
  EXPECT_EQ(part.piece_chunks, 3 * 4);  // ceil(2000 / 512) = 4 pieces each
  int pieces_of_7 = 0;
  for (const Chunk& c : part.chunks) {
    if (c.row_begin != 7 || !c.is_piece()) continue;
    ++pieces_of_7;
    EXPECT_EQ(c.piece_count, 4);
    EXPECT_EQ(c.lanes, 0);
    EXPECT_LE(c.nz_end - c.nz_begin, 512);
    EXPECT_GE(c.nz_end - c.nz_begin, 1999 / 4);  // as even as possible
  }
  EXPECT_EQ(pieces_of_7, 4);
}

TEST(JacobiPartition, RowsAtTheBudgetStayWholeOneMoreIsSplit) {
  const std::vector<index_t> at{3};
  const Csr<double> exact = with_long_rows(600, 2, 3, at, 64);
  const Csr<double> over = with_long_rows(600, 2, 3, at, 65);
  PartitionOptions o;
  o.nnz_budget = 64;
  const JacobiProblem pe = split_diagonal(exact);
  const JacobiProblem po = split_diagonal(over);
  const Partition e = partition_rows(pe.row_ptr, o);
  const Partition v = partition_rows(po.row_ptr, o);
  EXPECT_EQ(check_partition(e, pe.row_ptr, o), "");
  EXPECT_EQ(check_partition(v, po.row_ptr, o), "");
  EXPECT_EQ(e.split_rows, 0);
  EXPECT_EQ(v.split_rows, 1);
  EXPECT_EQ(v.piece_chunks, 2);
}

TEST(JacobiPartition, RandomMatricesAndBudgetsGiveValidPartitions) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 60; ++trial) {
    const auto n = static_cast<index_t>(50 + rng() % 400);
    const auto lo = static_cast<index_t>(1 + rng() % 10);
    const auto hi = static_cast<index_t>(lo + rng() % 30);
    std::vector<index_t> long_rows;
    for (int k = 0; k < static_cast<int>(rng() % 4); ++k) long_rows.push_back(static_cast<index_t>(rng() % n));
    const Csr<double> a = with_long_rows(n, lo, std::min(hi, n), long_rows, static_cast<index_t>(n / 2 + 1), rng());
    PartitionOptions o;
    o.nnz_budget = static_cast<int>(2 + rng() % 100);
    o.row_budget = static_cast<int>(1 + rng() % 300);
    const JacobiProblem p = split_diagonal(a);
    const Partition part = partition_rows(p.row_ptr, o);
    ASSERT_EQ(check_partition(part, p.row_ptr, o), "")
        << "trial " << trial << ": n " << n << ", budget " << o.nnz_budget << ", rows " << o.row_budget;
  }
}

TEST(JacobiPartition, TheCheckerFindsBrokenPartitions) {
  const Csr<double> a = with_long_rows(800, 3, 12, std::vector<index_t>{100}, 300);
  const JacobiProblem p = split_diagonal(a);
  PartitionOptions o;
  o.nnz_budget = 64;
  const Partition good = partition_rows(p.row_ptr, o);
  ASSERT_EQ(check_partition(good, p.row_ptr, o), "");
  Partition dropped = good;
  dropped.chunks.erase(dropped.chunks.begin() + 3);
  EXPECT_NE(check_partition(dropped, p.row_ptr, o), "");
  Partition shifted = good;
  shifted.chunks[2].nz_end -= 1;
  EXPECT_NE(check_partition(shifted, p.row_ptr, o), "");
  Partition lanes = good;
  for (Chunk& c : lanes.chunks)
    if (!c.is_piece()) {
      c.lanes = c.lanes == 1 ? 2 : 1;
      break;
    }
  EXPECT_NE(check_partition(lanes, p.row_ptr, o), "");
  PartitionOptions tighter = o;
  tighter.nnz_budget = 32;
  EXPECT_NE(check_partition(good, p.row_ptr, tighter), "");
}

TEST(JacobiPartition, BudgetsOutOfRangeAreRefused) {
  const JacobiProblem p = split_diagonal(sparse::poisson2d<double>(4, 4));
  PartitionOptions o;
  o.nnz_budget = 1;
  EXPECT_THROW(partition_rows(p.row_ptr, o), std::invalid_argument);
  o.nnz_budget = 512;
  o.row_budget = 0;
  EXPECT_THROW(partition_rows(p.row_ptr, o), std::invalid_argument);
}

// The rule of --nnz-budget auto at the sizes it was read from (132 SMs, as on an H100 or
// H200; bench_jacobi, session 23): one task per SM while it holds at most 1024 entries;
// then the stage's 4096 for rows of 16 entries or more, else about three tasks per SM;
// rounded up to a power of two. The row budget follows the entry budget.
TEST(JacobiPartition, AutoBudgetsFollowTheMeasuredBestPartitions) {
  auto budget = [](std::int64_t rows, std::int64_t entries) { return auto_budgets(rows, entries, 132).nnz_budget; };
  EXPECT_EQ(budget(526, 9'934), 512);                   // dd 10^4: best 512
  EXPECT_EQ(budget(5'263, 99'562), 1024);               // dd 10^5: best 1024
  EXPECT_EQ(budget(52'632, 1'001'620), 4096);           // dd 10^6: best 4096
  EXPECT_EQ(budget(526'316, 9'999'749), 4096);          // dd 10^7: best 4096
  EXPECT_EQ(budget(3'375'000, 23'490'000), 65536);      // poisson3d:150: best 65536 (16384 rows or more)
  EXPECT_EQ(budget(1, 1), 512);                         // never below 512
  EXPECT_EQ(budget(10'000, 132 * 1024), 1024);          // the last size with one task per SM
  EXPECT_EQ(budget(8'000, 132 * 1024 + 1), 4096);       // then the stage for 16.9 entries a row...
  EXPECT_EQ(budget(10'000, 132 * 1024 + 1), 512);       // ...and for 13.5 three tasks per SM: 342, raised to 512
  const PartitionOptions o = auto_budgets(3'375'000, 23'490'000, 132);
  EXPECT_EQ(o.row_budget, o.nnz_budget);
  EXPECT_THROW(auto_budgets(10, 1000, 0), std::invalid_argument);
  // Valid budgets for the partition, whatever the size.
  const JacobiProblem p = split_diagonal(sparse::poisson2d<double>(40, 40));
  const PartitionOptions chosen = auto_budgets(1600, static_cast<std::int64_t>(p.row_ptr.back()) + 1600, 8);
  const Partition part = partition_rows(p.row_ptr, chosen);
  EXPECT_EQ(check_partition(part, p.row_ptr, chosen), "");
}

// ---- the diagonal ----

TEST(JacobiProblem, SplitKeepsTheOffDiagonalPartAndInvertsTheDiagonal) {
  const Csr<double> a = from_triplets(3, {{0, 0, 4}, {0, 2, -1}, {1, 0, 2}, {1, 1, 5}, {2, 1, 3}, {2, 2, -8}});
  const JacobiProblem p = split_diagonal(a);
  EXPECT_EQ(p.n, 3);
  EXPECT_EQ(p.nnz_a, 6u);
  EXPECT_EQ(p.row_ptr, (std::vector<index_t>{0, 1, 2, 3}));
  EXPECT_EQ(p.col, (std::vector<index_t>{2, 0, 1}));
  EXPECT_EQ(p.val, (std::vector<double>{-1, 2, 3}));
  EXPECT_EQ(p.inv_diag, (std::vector<double>{1.0 / 4, 1.0 / 5, 1.0 / -8}));
}

TEST(JacobiProblem, ZeroDiagonalNamesTheRow) {
  const Csr<double> a = from_triplets(4, {{0, 0, 1}, {1, 1, 1}, {2, 1, 1}, {2, 2, 0.0}, {3, 3, 1}});
  // coo_to_csr keeps an explicit zero: it is stored, so it is a zero diagonal.
  try {
    split_diagonal(a);
    FAIL() << "expected SingularError";
  } catch (const sparse::SingularError& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_FALSE(e.missing());
    EXPECT_STREQ(e.what(), "zero diagonal at row 2 (0-based)");
  }
}

TEST(JacobiProblem, MissingDiagonalNamesTheRow) {
  const Csr<double> a = from_triplets(3, {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}});
  try {
    split_diagonal(a);
    FAIL() << "expected SingularError";
  } catch (const sparse::SingularError& e) {
    EXPECT_EQ(e.row(), 1);
    EXPECT_TRUE(e.missing());
    EXPECT_STREQ(e.what(), "missing diagonal at row 1 (0-based)");
  }
}

TEST(JacobiProblem, NonSquareAndEmptyMatricesAreRefused) {
  sparse::Coo<double> c;
  c.rows = 2;
  c.cols = 3;
  c.push_back(0, 0, 1);
  EXPECT_THROW(split_diagonal(sparse::coo_to_csr(c)), std::invalid_argument);
  EXPECT_THROW(split_diagonal(Csr<double>{}), std::invalid_argument);
}

TEST(JacobiProblem, DominanceIsReported) {
  const Dominance dd = diagonal_dominance(sparse::random_diagonally_dominant<double>(500, 3, 9, 3));
  EXPECT_TRUE(dd.strict);
  EXPECT_FALSE(dominance_warning(dd).has_value());

  const Dominance poisson = diagonal_dominance(sparse::poisson2d<double>(10, 10));
  EXPECT_FALSE(poisson.strict);
  EXPECT_TRUE(poisson.weak);
  EXPECT_DOUBLE_EQ(poisson.worst_ratio, 1.0);
  ASSERT_TRUE(dominance_warning(poisson).has_value());
  EXPECT_NE(dominance_warning(poisson)->find("only weakly"), std::string::npos);

  const Dominance bad = diagonal_dominance(from_triplets(3, {{0, 0, 4}, {1, 0, 3}, {1, 1, 1}, {1, 2, 1}, {2, 2, 1}}));
  EXPECT_FALSE(bad.weak);
  EXPECT_EQ(bad.worst_row, 1);
  EXPECT_DOUBLE_EQ(bad.worst_ratio, 4.0);
  EXPECT_NE(dominance_warning(bad)->find("row 1"), std::string::npos);
}

TEST(JacobiProblem, RightHandSides) {
  EXPECT_EQ(make_rhs(Rhs::ones, 5), std::vector<double>(5, 1.0));
  const std::vector<double> r1 = make_rhs(Rhs::random, 1000, 9);
  EXPECT_EQ(r1, make_rhs(Rhs::random, 1000, 9));
  EXPECT_NE(r1, make_rhs(Rhs::random, 1000, 10));
  EXPECT_TRUE(std::all_of(r1.begin(), r1.end(), [](double v) { return v >= -1.0 && v < 1.0; }));
  EXPECT_LT(*std::min_element(r1.begin(), r1.end()), -0.9);
  EXPECT_GT(*std::max_element(r1.begin(), r1.end()), 0.9);
  EXPECT_EQ(parse_rhs("random"), Rhs::random);
  EXPECT_FALSE(parse_rhs("zeros").has_value());
}

TEST(JacobiProblem, TrafficModelCountsEachEntryAndVectorElementOnce) {
  const JacobiProblem p = split_diagonal(sparse::poisson2d<double>(10, 10));
  // 100 rows, 360 off-diagonal entries: 12 bytes each, 36 bytes per row.
  EXPECT_DOUBLE_EQ(bytes_per_iteration(p), 360.0 * 12 + 100.0 * 36);
}

// ---- the checkpoints variant's chunk graph and protocol ----

std::vector<std::int32_t> unit_of_rows(const JacobiProblem& p, const Partition& part, const ChunkGraph& g) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(p.n));
  for (std::size_t t = 0; t < part.chunks.size(); ++t)
    for (index_t r = part.chunks[t].row_begin; r < part.chunks[t].row_end; ++r)
      out[static_cast<std::size_t>(r)] = g.unit[t];
  return out;
}

bool consumes(const ChunkGraph& g, std::int32_t u, std::int32_t chunk) {
  const auto b = g.consumers.begin() + g.consumer_ptr[static_cast<std::size_t>(u)];
  const auto e = g.consumers.begin() + g.consumer_ptr[static_cast<std::size_t>(u) + 1];
  return std::find(b, e, chunk) != e;
}

void expect_consistent_graph(const JacobiProblem& p, const Partition& part) {
  const ChunkGraph g = chunk_graph(p, part);
  ASSERT_EQ(g.unit.size(), part.chunks.size());
  ASSERT_EQ(g.consumer_ptr.size(), static_cast<std::size_t>(g.units) + 1);
  // Every chunk's next task gets exactly as many resolves as it waits for.
  std::vector<std::int32_t> received(part.chunks.size(), 0);
  for (std::int32_t c : g.consumers) ++received[static_cast<std::size_t>(c)];
  EXPECT_EQ(received, g.wait_count);
  // Whoever completes the rows a chunk reads resolves that chunk, and the chunk resolves
  // (every piece of) whoever reads its rows; a piece also waits for its own row.
  const std::vector<std::int32_t> unit_of_row = unit_of_rows(p, part, g);
  for (std::size_t t = 0; t < part.chunks.size(); ++t) {
    const Chunk& c = part.chunks[t];
    const auto u = g.unit[t];
    if (c.is_piece()) {
      ASSERT_TRUE(consumes(g, u, static_cast<std::int32_t>(t))) << "piece " << t;
    }
    for (std::int32_t q = c.nz_begin; q < c.nz_end; ++q) {
      const auto v = unit_of_row[static_cast<std::size_t>(p.col[static_cast<std::size_t>(q)])];
      if (v == u) continue;
      ASSERT_TRUE(consumes(g, v, static_cast<std::int32_t>(t))) << "chunk " << t << " reads unit " << v;
      for (std::size_t w = 0; w < part.chunks.size(); ++w) {
        if (g.unit[w] == v) {
          ASSERT_TRUE(consumes(g, u, static_cast<std::int32_t>(w)))
              << "unit " << u << " resolves the readers of its rows";
        }
      }
    }
  }
  // Symmetric between different units.
  for (std::int32_t u = 0; u < g.units; ++u)
    for (auto i = g.consumer_ptr[static_cast<std::size_t>(u)]; i < g.consumer_ptr[static_cast<std::size_t>(u) + 1];
         ++i) {
      const std::int32_t t = g.consumers[static_cast<std::size_t>(i)];
      const std::int32_t v = g.unit[static_cast<std::size_t>(t)];
      if (v == u) continue;
      for (std::size_t w = 0; w < part.chunks.size(); ++w) {
        if (g.unit[w] == u) {
          ASSERT_TRUE(consumes(g, v, static_cast<std::int32_t>(w))) << "units " << u << ", " << v;
        }
      }
    }
}

TEST(JacobiChunkGraph, ResolvesMatchWaitCountsAndCoverEveryRead) {
  {
    SCOPED_TRACE("poisson");
    const JacobiProblem p = split_diagonal(sparse::poisson2d<double>(40, 40));
    PartitionOptions o;
    o.nnz_budget = 64;
    expect_consistent_graph(p, partition_rows(p.row_ptr, o));
  }
  {
    SCOPED_TRACE("unsymmetric with long rows");
    const JacobiProblem p = split_diagonal(with_long_rows(900, 2, 9, std::vector<index_t>{0, 450, 451}, 300));
    PartitionOptions o;
    o.nnz_budget = 40;
    o.row_budget = 7;
    expect_consistent_graph(p, partition_rows(p.row_ptr, o));
  }
  {
    SCOPED_TRACE("diagonal");
    std::vector<std::tuple<index_t, index_t, double>> t;
    for (index_t i = 0; i < 600; ++i) t.emplace_back(i, i, 3.0);
    const JacobiProblem p = split_diagonal(from_triplets(600, t));
    const Partition part = partition_rows(p.row_ptr, {});
    const ChunkGraph g = chunk_graph(p, part);
    EXPECT_TRUE(g.consumers.empty());
    EXPECT_EQ(g.wait_count, std::vector<std::int32_t>(part.chunks.size(), 0));
  }
}

// A host simulation of the checkpoints protocol (tasks.cu), with tasks that overlap in
// time: tasks start and finish in random order, a task reads x(k) of every column it
// touches and its own rows from its start to its end, and writes x(k+1) of its rows (a
// split row: the last piece to finish) at some time in between. Checks that every read
// finds the right version in the ring of max(2, interval) versions, that no running task
// reads what another running task may write, that a dependency never gets a resolve of
// its next use while its current task still waits (the runtime's reuse rule), that no
// task is left waiting, and that the answer survives the window that stops.
void simulate_checkpoints(const JacobiProblem& p, const Partition& part, int interval, int max_iterations,
                          int converged_at, std::uint64_t seed) {
  const ChunkGraph g = chunk_graph(p, part);
  const auto chunks = static_cast<std::int32_t>(part.chunks.size());
  const int ring = std::max(2, interval);  // as the solver allocates (jacobi.cu)
  std::mt19937_64 rng(seed);
  // version[slot][row]: which iterate the ring slot holds for the row.
  std::vector<std::vector<int>> version(static_cast<std::size_t>(ring),
                                        std::vector<int>(static_cast<std::size_t>(p.n), -1));
  std::fill(version[0].begin(), version[0].end(), 0);
  struct Task {
    std::int32_t chunk;  // -1: the checkpoint
    int k;
  };
  std::vector<Task> ready, running;
  // Dependencies: (parity, chunk) for row tasks, and the checkpoint's.
  struct Dep {
    int counter = 0;
    int use = -1;  // iteration of the task announced or waiting, -1 when none
    bool waiting = false;
  };
  std::vector<Dep> deps(2 * static_cast<std::size_t>(chunks) + 1);
  Dep& check = deps.back();
  std::vector<int> arrivals(static_cast<std::size_t>(p.n), 0);
  std::vector<int> ran(static_cast<std::size_t>(chunks), -1);  // last iteration each chunk ran
  int answer = -1;

  auto release = [&](Dep& d, Task t) {
    d.waiting = false;
    d.use = -1;
    ready.push_back(t);
  };
  auto resolve = [&](Dep& d, Task t, int use) {
    ASSERT_TRUE(d.use == -1 || d.use == use) << "a resolve of use " << use << " while use " << d.use << " waits";
    d.use = use;
    if (--d.counter == 0 && d.waiting) release(d, t);
  };
  auto create = [&](Dep& d, Task t, int predecessors) {
    ASSERT_FALSE(d.waiting) << "two tasks behind one dependency";
    ASSERT_TRUE(d.use == -1 || d.use == t.k);
    d.use = t.k;
    d.waiting = true;
    d.counter += predecessors + 1;
    if (--d.counter == 0) release(d, t);
  };
  auto rows_of = [&](std::int32_t t) {
    return std::pair{part.chunks[static_cast<std::size_t>(t)].row_begin,
                     part.chunks[static_cast<std::size_t>(t)].row_end};
  };
  // What a row task reads (slot k % ring) and may write (slot (k + 1) % ring).
  auto reads = [&](const Task& t) {
    std::vector<std::pair<int, index_t>> out;
    const Chunk& c = part.chunks[static_cast<std::size_t>(t.chunk)];
    for (std::int32_t q = c.nz_begin; q < c.nz_end; ++q)
      out.emplace_back(t.k % ring, p.col[static_cast<std::size_t>(q)]);
    for (index_t r = c.row_begin; r < c.row_end; ++r) out.emplace_back(t.k % ring, r);
    return out;
  };
  auto writes = [&](const Task& t) {
    std::vector<std::pair<int, index_t>> out;
    const auto [b, e] = rows_of(t.chunk);
    for (index_t r = b; r < e; ++r) out.emplace_back((t.k + 1) % ring, r);
    return out;
  };
  auto overlaps = [](const std::vector<std::pair<int, index_t>>& a, const std::vector<std::pair<int, index_t>>& b) {
    for (const auto& x : a)
      if (std::find(b.begin(), b.end(), x) != b.end()) return true;
    return false;
  };

  for (std::int32_t t = 0; t < chunks; ++t) ready.push_back({t, 0});
  while (!ready.empty() || !running.empty()) {
    const bool start = running.empty() || (!ready.empty() && rng() % 2 == 0);
    if (start) {
      const std::size_t i = rng() % ready.size();
      const Task t = ready[i];
      ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(i));
      if (t.chunk < 0) {  // the checkpoint of the window ending at t.k: runs at once
        const int first = t.k - t.k % interval;
        int stop_at = -1;
        for (int k = first; k <= t.k && stop_at < 0; ++k)
          if (k == converged_at || k + 1 >= max_iterations) stop_at = k;
        if (stop_at >= 0) {
          answer = stop_at + 1;
          continue;
        }
        const int next_first = t.k + 1;
        create(check, {-1, std::min(next_first + interval, max_iterations) - 1}, chunks);
        for (std::int32_t c = 0; c < chunks; ++c) ready.push_back({c, next_first});
        continue;
      }
      ASSERT_EQ(ran[static_cast<std::size_t>(t.chunk)], t.k - 1) << "chunk " << t.chunk << " out of order";
      ran[static_cast<std::size_t>(t.chunk)] = t.k;
      for (const auto& [slot, row] : reads(t))
        ASSERT_EQ(version[static_cast<std::size_t>(slot)][static_cast<std::size_t>(row)], t.k)
            << "chunk " << t.chunk << " iteration " << t.k << " reads row " << row;
      for (const Task& other : running) {
        ASSERT_FALSE(overlaps(reads(t), writes(other))) << "reads while chunk " << other.chunk << " writes";
        ASSERT_FALSE(overlaps(writes(t), reads(other))) << "writes while chunk " << other.chunk << " reads";
      }
      running.push_back(t);
      continue;
    }
    const std::size_t i = rng() % running.size();
    const Task t = running[i];
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    const Chunk& c = part.chunks[static_cast<std::size_t>(t.chunk)];
    bool done = true;
    if (c.is_piece()) {
      int& a = arrivals[static_cast<std::size_t>(c.row_begin)];
      done = ++a == c.piece_count;
      if (done) a = 0;
    }
    if (done)
      for (const auto& [slot, row] : writes(t))
        version[static_cast<std::size_t>(slot)][static_cast<std::size_t>(row)] = t.k + 1;
    if (t.k == 0 && t.chunk == 0) create(check, {-1, std::min(interval, max_iterations) - 1}, chunks);
    if ((t.k + 1) % interval == 0 || t.k + 1 >= max_iterations) {
      resolve(check, {-1, check.use}, check.use);
      continue;
    }
    Dep* next = deps.data() + static_cast<std::size_t>((t.k + 1) & 1) * static_cast<std::size_t>(chunks);
    create(next[t.chunk], {t.chunk, t.k + 1}, g.wait_count[static_cast<std::size_t>(t.chunk)]);
    if (done) {
      const auto u = static_cast<std::size_t>(g.unit[static_cast<std::size_t>(t.chunk)]);
      for (auto j = g.consumer_ptr[u]; j < g.consumer_ptr[u + 1]; ++j) {
        const std::int32_t to = g.consumers[static_cast<std::size_t>(j)];
        resolve(next[to], {to, t.k + 1}, t.k + 1);
      }
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  const int expected_answer = std::min(converged_at, max_iterations - 1) + 1;
  ASSERT_EQ(answer, expected_answer);
  for (const Dep& d : deps) {
    EXPECT_EQ(d.counter, 0);
    EXPECT_FALSE(d.waiting);
  }
  // The answer is intact in its slot, whatever ran after it in the window.
  for (index_t r = 0; r < p.n; ++r)
    ASSERT_EQ(version[static_cast<std::size_t>(answer % ring)][static_cast<std::size_t>(r)], answer);
}

TEST(JacobiCheckpointsProtocol, RandomInterleavingsKeepEveryIterateIntact) {
  const JacobiProblem unsym = split_diagonal(with_long_rows(300, 2, 6, std::vector<index_t>{10, 200}, 120));
  const JacobiProblem poisson = split_diagonal(sparse::poisson2d<double>(12, 12));
  PartitionOptions o;
  o.nnz_budget = 24;
  o.row_budget = 5;
  const Partition pu = partition_rows(unsym.row_ptr, o);
  const Partition pp = partition_rows(poisson.row_ptr, o);
  ASSERT_GT(pu.split_rows, 0);
  int trial = 0;
  for (int interval : {1, 2, 3, 5}) {
    for (int converged_at : {0, 3, 6, 100}) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE("interval " + std::to_string(interval) + ", converged at " + std::to_string(converged_at) +
                     ", seed " + std::to_string(seed));
        simulate_checkpoints(unsym, pu, interval, 12, converged_at, seed + 100 * static_cast<std::uint64_t>(trial));
        if (::testing::Test::HasFatalFailure()) return;
        simulate_checkpoints(poisson, pp, interval, 12, converged_at, seed + 7);
        if (::testing::Test::HasFatalFailure()) return;
        ++trial;
      }
    }
  }
}

// A host simulation of the autonomous protocol (tasks.cu) in the same style: row tasks
// overlap in time, the last arrival of iteration k starts iteration k + 1 and then sums
// the changes of k (a decide step that overlaps with the next iteration's tasks), and a
// decider that goes on arrives once more for k + 1. Checks the versions every row task
// reads, that no running step writes what another reads (x ring of two versions, change
// slots by parity), that at most one iteration runs past the decision (whole: its tasks
// do not look at the stop flag), and that the answer survives it.
void simulate_autonomous(const JacobiProblem& p, const Partition& part, int max_iterations, int converged_at,
                         std::uint64_t seed) {
  const auto chunks = static_cast<std::int32_t>(part.chunks.size());
  constexpr int ring = 2;
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> version(ring, std::vector<int>(static_cast<std::size_t>(p.n), -1));
  std::fill(version[0].begin(), version[0].end(), 0);
  // Resources: x slot s row r -> (0, s, r); change slot s chunk t -> (1, s, t).
  using Key = std::tuple<int, int, std::int64_t>;
  struct Step {
    bool decide;
    std::int32_t chunk;
    int k;
    std::vector<Key> reads, writes;
  };
  std::vector<Step> ready, running;
  std::vector<int> arrivals(static_cast<std::size_t>(max_iterations) + 1, 0);
  std::vector<int> arrival_pieces(static_cast<std::size_t>(p.n), 0);
  int answer = -1;
  int highest = 0;

  auto row_step = [&](std::int32_t t, int k) {
    Step st{false, t, k, {}, {}};
    const Chunk& c = part.chunks[static_cast<std::size_t>(t)];
    for (std::int32_t q = c.nz_begin; q < c.nz_end; ++q)
      st.reads.emplace_back(0, k % ring, p.col[static_cast<std::size_t>(q)]);
    for (index_t r = c.row_begin; r < c.row_end; ++r) {
      st.reads.emplace_back(0, k % ring, r);
      st.writes.emplace_back(0, (k + 1) % ring, r);
    }
    st.writes.emplace_back(1, k % 2, t);
    if (c.is_piece()) st.writes.emplace_back(1, k % 2, c.first_piece);
    return st;
  };
  auto decide_step = [&](int k) {
    Step st{true, -1, k, {}, {}};
    for (std::int32_t t = 0; t < chunks; ++t) st.reads.emplace_back(1, k % 2, t);
    return st;
  };
  auto conflicts = [](const Step& a, const Step& b) {
    for (const Key& x : a.reads)
      if (std::find(b.writes.begin(), b.writes.end(), x) != b.writes.end()) return true;
    for (const Key& x : a.writes)
      if (std::find(b.reads.begin(), b.reads.end(), x) != b.reads.end()) return true;
    return false;
  };
  auto begin = [&](Step st) {
    for (const Step& other : running)
      ASSERT_FALSE(conflicts(st, other)) << (st.decide ? "decide " : "row ") << st.k << " overlaps with "
                                         << (other.decide ? "decide " : "row ") << other.k;
    running.push_back(std::move(st));
  };
  // The last arrival for iteration k (decider of k - 1 included): start k + 1, then decide.
  auto arrive = [&](int k) {
    const int expected = chunks + (k > 0 ? 1 : 0);
    if (++arrivals[static_cast<std::size_t>(k)] != expected) return;
    if (k + 1 < max_iterations)
      for (std::int32_t t = 0; t < chunks; ++t) ready.push_back(row_step(t, k + 1));
    begin(decide_step(k));
  };

  for (std::int32_t t = 0; t < chunks; ++t) ready.push_back(row_step(t, 0));
  while (!ready.empty() || !running.empty()) {
    if (running.empty() || (!ready.empty() && rng() % 2 == 0)) {
      const std::size_t i = rng() % ready.size();
      Step st = std::move(ready[i]);
      ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(i));
      highest = std::max(highest, st.k);
      for (const Key& key : st.reads) {
        if (std::get<0>(key) != 0) continue;
        ASSERT_EQ(version[static_cast<std::size_t>(std::get<1>(key))][static_cast<std::size_t>(std::get<2>(key))], st.k)
            << "row task of iteration " << st.k << " reads row " << std::get<2>(key);
      }
      begin(std::move(st));
      if (::testing::Test::HasFatalFailure()) return;
      continue;
    }
    const std::size_t i = rng() % running.size();
    const Step st = std::move(running[i]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    if (st.decide) {
      if (st.k == converged_at || st.k + 1 >= max_iterations) {
        answer = st.k + 1;  // the row tasks of answer, started already, still run to the end
      } else {
        arrive(st.k + 1);
      }
    } else {
      const Chunk& c = part.chunks[static_cast<std::size_t>(st.chunk)];
      bool done = true;
      if (c.is_piece()) {
        int& a = arrival_pieces[static_cast<std::size_t>(c.row_begin)];
        done = ++a == c.piece_count;
        if (done) a = 0;
      }
      if (done)
        for (index_t r = c.row_begin; r < c.row_end; ++r)
          version[static_cast<std::size_t>((st.k + 1) % ring)][static_cast<std::size_t>(r)] = st.k + 1;
      arrive(st.k);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  const int expected_answer = std::min(converged_at, max_iterations - 1) + 1;
  ASSERT_EQ(answer, expected_answer);
  EXPECT_LE(highest, answer);  // iterations 0 .. answer - 1, and at most one more
  for (index_t r = 0; r < p.n; ++r)
    ASSERT_EQ(version[static_cast<std::size_t>(answer % ring)][static_cast<std::size_t>(r)], answer);
}

TEST(JacobiAutonomousProtocol, RandomInterleavingsKeepEveryIterateIntact) {
  const JacobiProblem unsym = split_diagonal(with_long_rows(200, 2, 6, std::vector<index_t>{10, 150}, 90));
  PartitionOptions o;
  o.nnz_budget = 24;
  o.row_budget = 5;
  const Partition part = partition_rows(unsym.row_ptr, o);
  ASSERT_GT(part.split_rows, 0);
  for (int converged_at : {0, 1, 4, 100})
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      SCOPED_TRACE("converged at " + std::to_string(converged_at) + ", seed " + std::to_string(seed));
      simulate_autonomous(unsym, part, 9, converged_at, seed);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// ---- the model of the device iteration against the reference ----

struct ModelCase {
  const char* name;
  Csr<double> a;
  std::vector<double> b;
  PartitionOptions partition;
  double tolerance;
  int max_iterations;
};

void expect_model_matches_reference(const ModelCase& c) {
  SCOPED_TRACE(c.name);
  const JacobiProblem p = split_diagonal(c.a);
  const Partition part = partition_rows(p.row_ptr, c.partition);
  ASSERT_EQ(check_partition(part, p.row_ptr, c.partition), "");
  const ModelRun model = model_solve(p, part, c.b, c.tolerance, c.max_iterations, true);
  sparse::JacobiOptions ro;
  ro.tolerance = c.tolerance;
  ro.max_iterations = c.max_iterations;
  ro.keep_history = true;
  const sparse::JacobiResult<double> ref = sparse::jacobi(c.a, c.b, ro);
  ASSERT_EQ(model.iterations, ref.iterations);
  EXPECT_EQ(model.converged, ref.converged);
  ASSERT_EQ(model.history.size(), ref.history.size());
  for (std::size_t k = 0; k < ref.history.size(); ++k)
    ASSERT_LE(relative_difference(model.history[k], ref.history[k]), 1e-12) << "iterate " << k + 1;
  const std::vector<double> ref_changes = changes_of(ref.history, static_cast<std::size_t>(p.n));
  ASSERT_EQ(model.changes.size(), ref_changes.size());
  for (std::size_t k = 0; k < ref_changes.size(); ++k)
    EXPECT_NEAR(model.changes[k], ref_changes[k], change_tolerance(ref.history[k])) << "change " << k;
  EXPECT_NEAR(model.last_change, ref.last_change, change_tolerance(ref.x));
  EXPECT_EQ(model.x, model.history.back());
}

TEST(JacobiModel, DiagonallyDominantMatchesTheReference) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(2000, 11, 27, 5);
  expect_model_matches_reference({"dd", a, make_rhs(Rhs::random, a.rows), {}, 1e-10, 1000});
}

TEST(JacobiModel, SplitRowsMatchTheReference) {
  const std::vector<index_t> long_rows{0, 1234, 2999};
  const Csr<double> a = with_long_rows(3000, 3, 15, long_rows, 2000);
  PartitionOptions o;
  o.nnz_budget = 512;
  expect_model_matches_reference({"long rows", a, make_rhs(Rhs::ones, a.rows), o, 1e-9, 1000});
}

TEST(JacobiModel, TinyBudgetsMatchTheReference) {
  // Budget 4 splits nearly every row, so pieces, lanes and reductions all vary.
  const Csr<double> a = sparse::random_diagonally_dominant<double>(700, 1, 12, 8);
  PartitionOptions o;
  o.nnz_budget = 4;
  o.row_budget = 3;
  expect_model_matches_reference({"tiny budget", a, make_rhs(Rhs::random, a.rows), o, 1e-10, 1000});
}

TEST(JacobiModel, PoissonConvergesSlowlyWithTheSameIterationCount) {
  const Csr<double> a = sparse::poisson2d<double>(30, 30);
  expect_model_matches_reference({"poisson", a, make_rhs(Rhs::ones, a.rows), {}, 1e-3, 5000});
}

TEST(JacobiModel, NonConvergenceStopsAtTheLimit) {
  const Csr<double> a = sparse::poisson2d<double>(30, 30);
  const JacobiProblem p = split_diagonal(a);
  const Partition part = partition_rows(p.row_ptr, {});
  const ModelRun run = model_solve(p, part, make_rhs(Rhs::ones, a.rows), 1e-12, 25);
  EXPECT_FALSE(run.converged);
  EXPECT_EQ(run.iterations, 25);
  EXPECT_EQ(run.changes.size(), 25u);
  EXPECT_GT(run.last_change, 1e-12);
}

}  // namespace
}  // namespace apiary::jacobi
