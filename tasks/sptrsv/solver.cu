// make_solver: one entry point for every variant. For an upper-triangular system (kept as
// a reversed lower one) cuSPARSE gets the upper triangle itself; the sync-free solver
// takes a lower matrix only, so it is wrapped in two reversal kernels, part of its time.
#include "tasks/sptrsv/solver.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "tasks/sptrsv/baselines.hpp"
#include "tasks/sptrsv/levelset_solver.hpp"
#include "tasks/sptrsv/tassl_solver.hpp"

namespace apiary::sptrsv {

std::string_view to_string(Variant v) {
  switch (v) {
    case Variant::tassl_deps: return "tassl-deps";
    case Variant::tassl_phases: return "tassl-phases";
    case Variant::tassl_kernels: return "tassl-kernels";
    case Variant::levelset: return "levelset";
    case Variant::syncfree: return "syncfree";
    case Variant::cusparse: return "cusparse";
  }
  return "?";
}

std::optional<Variant> parse_variant(std::string_view s) {
  for (Variant v : kVariants)
    if (to_string(v) == s) return v;
  return std::nullopt;
}

namespace {

template <class Real>
__global__ void reverse_columns(const Real* in, Real* out, index_t n, int rhs) {
  const std::size_t total = static_cast<std::size_t>(n) * rhs;
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < total;
       k += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t c = k / n, i = k % n;
    out[c * n + (n - 1 - i)] = in[k];
  }
}

template <class Real>
void reverse(const Real* in, Real* out, index_t n, int rhs, cudaStream_t stream) {
  const std::size_t total = static_cast<std::size_t>(n) * rhs;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((total + 255) / 256, 4096));
  if (total == 0) return;
  reverse_columns<Real><<<blocks, 256, 0, stream>>>(in, out, n, rhs);
  APIARY_CUDA_CHECK_LAUNCH();
}

// A baseline (SyncFreeSolver or CusparseSolver) behind the common interface.
template <class Real, class Baseline>
class BaselineSolver final : public TriangularSolver<Real> {
 public:
  // cuSPARSE solves an upper system natively; the sync-free solver needs b and x reversed.
  static constexpr bool kNativeUpper = std::is_same_v<Baseline, CusparseSolver<Real>>;

  explicit BaselineSolver(const LowerSystem& s) : inner_(make_inner(s)), n_(s.lower.rows), reversed_(s.reversed) {}

  void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) override {
    if (rhs < 1) throw std::invalid_argument("sptrsv: rhs must be at least 1");
    if (!reversed_ || kNativeUpper) {
      inner_.solve(d_b, d_x, rhs, stream);
      return;
    }
    const std::size_t need = static_cast<std::size_t>(n_) * rhs;
    if (b_.size() < need) {
      b_ = DeviceBuffer<Real>(need);
      x_ = DeviceBuffer<Real>(need);
    }
    reverse(d_b, b_.data(), n_, rhs, stream);
    inner_.solve(b_.data(), x_.data(), rhs, stream);
    reverse(x_.data(), d_x, n_, rhs, stream);
  }
  double setup_ms() const override { return inner_.analysis_ms(); }

 private:
  static Baseline make_inner(const LowerSystem& s) {
    if constexpr (kNativeUpper) {
      return Baseline(s.lower, s.reversed);
    } else {
      return Baseline(s.lower);
    }
  }

  Baseline inner_;
  index_t n_;
  bool reversed_;
  DeviceBuffer<Real> b_, x_;
};

}  // namespace

template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_solver(Variant v, const LowerSystem& system, const Analysis* analysis,
                                                    const SolverOptions& o) {
  switch (v) {
    case Variant::tassl_deps:
    case Variant::tassl_phases:
    case Variant::tassl_kernels:
      if (analysis == nullptr)
        throw std::invalid_argument("sptrsv: variant " + std::string(to_string(v)) + " needs the TASSL analysis");
      return make_tassl_solver<Real>(v, analysis->plan, o);
    case Variant::levelset: return make_levelset_solver<Real>(system, o);
    case Variant::syncfree: return std::make_unique<BaselineSolver<Real, SyncFreeSolver<Real>>>(system);
    case Variant::cusparse: return std::make_unique<BaselineSolver<Real, CusparseSolver<Real>>>(system);
  }
  throw std::invalid_argument("sptrsv: unknown variant");
}

template std::unique_ptr<TriangularSolver<float>> make_solver<float>(Variant, const LowerSystem&, const Analysis*,
                                                                     const SolverOptions&);
template std::unique_ptr<TriangularSolver<double>> make_solver<double>(Variant, const LowerSystem&, const Analysis*,
                                                                       const SolverOptions&);

}  // namespace apiary::sptrsv
