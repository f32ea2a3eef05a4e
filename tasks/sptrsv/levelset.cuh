// The levelset variant: row-level level sets (as cuSPARSE-style solvers use them), run
// through the runtime with the two cyclic phases of phased_levels.cuh. A task solves a
// chunk of up to kRowsPerTask rows of one level, a warp per row. Included once per
// precision by levelset_float.cu and levelset_double.cu.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

#include "runtime/device_buffer.hpp"
#include "schedulers/run.cuh"
#include "sparse/analysis.hpp"
#include "tasks/sptrsv/levelset_solver.hpp"
#include "tasks/sptrsv/phased_levels.cuh"

namespace apiary::sptrsv {

namespace levelset_detail {

inline constexpr index_t kRowsPerTask = 64;

template <class Real>
struct LevelsetEnv {
  index_t n = 0;
  bool reversed = false;
  const index_t* row_ptr = nullptr;  // lower triangle, diagonal last in each row
  const index_t* col = nullptr;
  const Real* val = nullptr;
  const Real* b = nullptr;
  Real* x = nullptr;
  int rhs = 1;
  LevelView levels;  // over rows
};

struct RowChunk {
  index_t begin;  // positions in levels.order
  index_t end;
  index_t level;
};

template <class Real>
struct SolveRows {
  using Item = RowChunk;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  static constexpr const char* name = "SolveRows";

  template <class Ctx>
  __device__ static void execute(const Item& chunk, Ctx& ctx) {
    const LevelsetEnv<Real>& env = ctx.env();
    const int lane = ctx.rank() % 32;
    const int warp = ctx.rank() / 32;
    for (index_t pos = chunk.begin + warp; pos < chunk.end; pos += threads / 32) {
      const index_t i = env.levels.order[pos];
      const index_t k0 = env.row_ptr[i], k1 = env.row_ptr[i + 1] - 1;  // k1: the diagonal
      const index_t row = env.reversed ? env.n - 1 - i : i;
      for (int c = 0; c < env.rhs; ++c) {
        const std::size_t off = static_cast<std::size_t>(c) * env.n;
        Real sum = 0;
        for (index_t k = k0 + lane; k < k1; k += 32) {
          const index_t j = env.reversed ? env.n - 1 - env.col[k] : env.col[k];
          sum += env.val[k] * __ldcg(env.x + off + j);  // written in an earlier level
        }
        for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
        if (lane == 0) env.x[off + row] = (env.b[off + row] - sum) / env.val[k1];
      }
    }
    if (ctx.rank() == 0 && chunk.begin == env.levels.level_ptr[chunk.level])
      release_next_level<AdvanceLevel<SolveRows>>(ctx, env.levels, chunk.level);
  }

  template <class Ctx>
  __device__ static void enqueue_level(Ctx& ctx, index_t k) {
    const LevelView& lv = ctx.env().levels;
    const index_t begin = lv.level_ptr[k], end = lv.level_ptr[k + 1];
    ctx.template enqueue_each<SolveRows>((end - begin + kRowsPerTask - 1) / kRowsPerTask, [&](index_t c) {
      const index_t pos = begin + c * kRowsPerTask;
      return RowChunk{pos, min(end, pos + kRowsPerTask), k};
    });
  }
};

template <class Real>
using LevelsetProgram = Program<Phase<SolveRows<Real>>, Phase<AdvanceLevel<SolveRows<Real>>>>;

template <class Real>
class LevelsetSolver final : public TriangularSolver<Real> {
 public:
  LevelsetSolver(const LowerSystem& s, const SolverOptions& o) : options_(o) {
    const auto t0 = std::chrono::steady_clock::now();
    const sparse::LevelSets ls = sparse::level_sets(s.lower, sparse::Triangle::lower);
    env_.n = s.lower.rows;
    env_.reversed = s.reversed;
    row_ptr_ = to_device(s.lower.row_ptr);
    col_ = to_device(s.lower.col);
    val_ = to_device(std::vector<Real>(s.lower.val.begin(), s.lower.val.end()));
    level_ = to_device(ls.level);
    level_ptr_ = to_device(ls.level_ptr);
    order_ = to_device(ls.order);
    env_.row_ptr = row_ptr_.data();
    env_.col = col_.data();
    env_.val = val_.data();
    env_.levels = LevelView{level_.data(), level_ptr_.data(), order_.data(), ls.count};
    if (ls.count > 0)
      for (index_t pos = 0; pos < ls.level_ptr[1]; pos += kRowsPerTask)
        first_chunks_.push_back(RowChunk{pos, std::min(ls.level_ptr[1], pos + kRowsPerTask), 0});
    RunOptions ro;
    ro.queue_capacity = static_cast<std::uint32_t>(s.lower.rows / kRowsPerTask + ls.count + 16);
    ro.waiting_capacity = 1;
    ro.cyclic = true;
    ro.event_timer = false;  // compared by wall time, as the TASSL variants (tassl.cuh)
    rt_ = std::make_unique<Runtime<LevelsetProgram<Real>, LevelsetEnv<Real>>>(ro, env_);
    setup_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) override {
    if (rhs < 1) throw std::invalid_argument("sptrsv: rhs must be at least 1");
    if (env_.n == 0) return;
    env_.b = d_b;
    env_.x = d_x;
    env_.rhs = rhs;
    rt_->env() = env_;
    rt_->template seed<SolveRows<Real>>(first_chunks_);
    last_ = rt_->run(options_.scheduler, stream);
  }
  double setup_ms() const override { return setup_ms_; }
  std::optional<RunStats> last_run() const override { return last_; }

 private:
  SolverOptions options_;
  LevelsetEnv<Real> env_;
  DeviceBuffer<index_t> row_ptr_, col_, level_, level_ptr_, order_;
  DeviceBuffer<Real> val_;
  std::vector<RowChunk> first_chunks_;
  std::unique_ptr<Runtime<LevelsetProgram<Real>, LevelsetEnv<Real>>> rt_;
  std::optional<RunStats> last_;
  double setup_ms_ = 0;
};

}  // namespace levelset_detail

template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_levelset_solver(const LowerSystem& s, const SolverOptions& o) {
  return std::make_unique<levelset_detail::LevelsetSolver<Real>>(s, o);
}

}  // namespace apiary::sptrsv
