#include "tasks/jacobi/partition.hpp"

#include <algorithm>
#include <stdexcept>

#include "sparse/lanes.hpp"

namespace apiary::jacobi {

namespace {

std::string at_chunk(std::size_t c, const std::string& what) { return "chunk " + std::to_string(c) + ": " + what; }

}  // namespace

PartitionOptions auto_budgets(std::int64_t rows, std::int64_t entries, int multiprocessors) {
  if (multiprocessors < 1) throw std::invalid_argument("jacobi: auto budgets need a positive multiprocessor count");
  const std::int64_t sms = multiprocessors;
  entries = std::max<std::int64_t>(entries, 1);
  const std::int64_t per_sm = (entries + sms - 1) / sms;
  std::int64_t want = per_sm;                                               // one task per SM
  if (per_sm > 1024) want = entries >= 16 * rows ? 4096 : (per_sm + 2) / 3;  // the stage, or three per SM
  std::int64_t budget = 512;
  while (budget < want && budget < (std::int64_t{1} << 30)) budget *= 2;
  PartitionOptions o;
  o.nnz_budget = static_cast<int>(budget);
  o.row_budget = static_cast<int>(budget);
  return o;
}

std::int32_t lanes_for(index_t rows, index_t max_off, std::int64_t off_entries) {
  if (rows <= 1 && max_off > 32) return 0;
  return sparse::lanes_per_row(rows, max_off, off_entries, kTaskThreads);
}

Partition partition_rows(std::span<const index_t> off_row_ptr, const PartitionOptions& options) {
  if (options.nnz_budget < 2)
    throw std::invalid_argument("jacobi: the nnz budget must be at least 2 (got " + std::to_string(options.nnz_budget) +
                                ")");
  if (options.row_budget < 1)
    throw std::invalid_argument("jacobi: the row budget must be at least 1 (got " + std::to_string(options.row_budget) +
                                ")");
  if (off_row_ptr.empty()) throw std::invalid_argument("jacobi: empty row pointer");
  const auto n = static_cast<index_t>(off_row_ptr.size() - 1);
  const std::int64_t budget = options.nnz_budget;

  Partition p;
  index_t open_begin = 0;  // rows [open_begin, r) wait in the open chunk
  std::int64_t open_entries = 0;
  index_t open_max_off = 0;
  auto close = [&](index_t end) {
    if (end == open_begin) return;
    Chunk c;
    c.row_begin = open_begin;
    c.row_end = end;
    c.nz_begin = off_row_ptr[open_begin];
    c.nz_end = off_row_ptr[end];
    c.lanes = lanes_for(end - open_begin, open_max_off, c.nz_end - c.nz_begin);
    p.chunks.push_back(c);
    p.max_rows = std::max(p.max_rows, end - open_begin);
    p.max_entries = std::max(p.max_entries, open_entries);
    open_begin = end;
    open_entries = 0;
    open_max_off = 0;
  };

  for (index_t r = 0; r < n; ++r) {
    const index_t off = off_row_ptr[r + 1] - off_row_ptr[r];
    const std::int64_t entries = std::int64_t{off} + 1;
    if (entries > budget) {
      close(r);
      const std::int64_t pieces = (entries + budget - 1) / budget;  // >= 2, and <= off since budget >= 2
      const auto first = static_cast<std::int32_t>(p.chunks.size());
      for (std::int64_t k = 0; k < pieces; ++k) {
        Chunk c;
        c.row_begin = r;
        c.row_end = r + 1;
        c.nz_begin = static_cast<std::int32_t>(off_row_ptr[r] + off * k / pieces);
        c.nz_end = static_cast<std::int32_t>(off_row_ptr[r] + off * (k + 1) / pieces);
        c.first_piece = first;
        c.piece_count = static_cast<std::int32_t>(pieces);
        c.lanes = 0;
        p.max_entries = std::max<std::int64_t>(p.max_entries, c.nz_end - c.nz_begin);
        p.chunks.push_back(c);
      }
      p.max_rows = std::max<index_t>(p.max_rows, 1);
      ++p.split_rows;
      p.piece_chunks += pieces;
      open_begin = r + 1;
      continue;
    }
    if (r > open_begin && (open_entries + entries > budget || r - open_begin >= options.row_budget)) close(r);
    open_entries += entries;
    open_max_off = std::max(open_max_off, off);
  }
  close(n);
  return p;
}

std::string check_partition(const Partition& p, std::span<const index_t> off_row_ptr, const PartitionOptions& options) {
  const auto n = static_cast<index_t>(off_row_ptr.size() - 1);
  index_t next_row = 0;
  std::int32_t next_nz = 0;
  index_t split_rows = 0;
  std::int64_t pieces = 0;
  for (std::size_t ci = 0; ci < p.chunks.size(); ++ci) {
    const Chunk& c = p.chunks[ci];
    if (c.row_begin != next_row)
      return at_chunk(ci, "starts at row " + std::to_string(c.row_begin) + ", expected " + std::to_string(next_row));
    if (c.row_end <= c.row_begin || c.row_end > n) return at_chunk(ci, "bad row range");
    if (c.nz_begin != next_nz) return at_chunk(ci, "entries do not continue the previous chunk's");
    if (c.nz_end < c.nz_begin) return at_chunk(ci, "negative entry range");
    if (!c.is_piece()) {
      const index_t rows = c.row_end - c.row_begin;
      if (c.piece_count != 0) return at_chunk(ci, "whole rows with a piece count");
      if (c.nz_begin != off_row_ptr[c.row_begin] || c.nz_end != off_row_ptr[c.row_end])
        return at_chunk(ci, "entry range does not match its rows");
      const std::int64_t entries = std::int64_t{c.nz_end - c.nz_begin} + rows;
      if (rows > 1 && entries > options.nnz_budget) return at_chunk(ci, "over the nnz budget");
      if (rows == 1 && entries > options.nnz_budget) return at_chunk(ci, "a long row that was not split");
      if (rows > options.row_budget) return at_chunk(ci, "over the row budget");
      index_t max_off = 0;
      for (index_t r = c.row_begin; r < c.row_end; ++r)
        max_off = std::max(max_off, off_row_ptr[r + 1] - off_row_ptr[r]);
      const std::int32_t lanes = lanes_for(rows, max_off, c.nz_end - c.nz_begin);
      if (c.lanes != lanes)
        return at_chunk(ci, "lanes " + std::to_string(c.lanes) + ", expected " + std::to_string(lanes));
      next_row = c.row_end;
      next_nz = c.nz_end;
      continue;
    }
    // The pieces of one row, in order.
    const index_t r = c.row_begin;
    if (c.first_piece != static_cast<std::int32_t>(ci)) return at_chunk(ci, "a row's first piece names another chunk");
    if (c.piece_count < 2 || ci + static_cast<std::size_t>(c.piece_count) > p.chunks.size())
      return at_chunk(ci, "bad piece count");
    const std::int64_t entries = std::int64_t{off_row_ptr[r + 1] - off_row_ptr[r]} + 1;
    if (entries <= options.nnz_budget) return at_chunk(ci, "a row within the budget was split");
    if (c.piece_count != (entries + options.nnz_budget - 1) / options.nnz_budget)
      return at_chunk(ci, "unexpected number of pieces");
    for (std::int32_t k = 0; k < c.piece_count; ++k) {
      const Chunk& q = p.chunks[ci + static_cast<std::size_t>(k)];
      const std::string where = "piece " + std::to_string(k) + " of row " + std::to_string(r);
      if (q.row_begin != r || q.row_end != r + 1 || q.first_piece != c.first_piece || q.piece_count != c.piece_count)
        return at_chunk(ci + static_cast<std::size_t>(k), where + ": inconsistent");
      if (q.nz_begin != next_nz) return at_chunk(ci + static_cast<std::size_t>(k), where + ": entries not contiguous");
      if (q.nz_end <= q.nz_begin) return at_chunk(ci + static_cast<std::size_t>(k), where + ": empty");
      if (q.nz_end - q.nz_begin > options.nnz_budget)
        return at_chunk(ci + static_cast<std::size_t>(k), where + ": over the nnz budget");
      if (q.lanes != 0) return at_chunk(ci + static_cast<std::size_t>(k), where + ": a piece must use the whole task");
      next_nz = q.nz_end;
    }
    if (next_nz != off_row_ptr[r + 1]) return at_chunk(ci, "pieces do not cover their row");
    ++split_rows;
    pieces += c.piece_count;
    next_row = r + 1;
    ci += static_cast<std::size_t>(c.piece_count) - 1;
  }
  if (next_row != n) return "rows from " + std::to_string(next_row) + " on are in no chunk";
  if (split_rows != p.split_rows || pieces != p.piece_chunks) return "split-row counts do not match the chunks";
  return {};
}

}  // namespace apiary::jacobi
