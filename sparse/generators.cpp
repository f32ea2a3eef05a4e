#include "sparse/generators.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/union_find.hpp"

namespace apiary::sparse {
namespace {

constexpr std::int64_t index_limit = std::numeric_limits<index_t>::max();

// Everything random goes through here, with exact integer arithmetic or a fixed
// bits-to-double mapping, so that the stream of values depends on the seed only.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n), n > 0. A plain modulo: the bias is below n / 2^64, far too small
  // to matter for test matrices, and unlike rejection it costs exactly one draw.
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  index_t below(index_t n) { return static_cast<index_t>(below(static_cast<std::uint64_t>(n))); }

  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // +-[0.1, 1): bounded away from zero so that no stored entry is an explicit zero
  // and the diagonal dominance margin stays meaningful. Sign from the lowest bit,
  // magnitude from the top 53 bits of the same draw.
  double signed_value() {
    const std::uint64_t x = engine_();
    const double magnitude = 0.1 + 0.9 * (static_cast<double>(x >> 11) * 0x1.0p-53);
    return (x & 1U) ? -magnitude : magnitude;
  }

 private:
  std::mt19937_64 engine_;
};

// Draws k distinct values of [0, n) and returns them sorted. Floyd's algorithm takes
// exactly k draws whatever k / n is; membership is a linear scan for short samples and
// a marker array (allocated on first need, always left cleared) for long ones.
class Sampler {
 public:
  void sample(Rng& rng, index_t n, index_t k, std::vector<index_t>& out) {
    out.clear();
    if (k <= short_sample) {
      for (index_t j = n - k; j < n; ++j) {
        index_t t = rng.below(j + 1);
        if (std::find(out.begin(), out.end(), t) != out.end()) t = j;
        out.push_back(t);
      }
    } else {
      if (mark_.size() < static_cast<std::size_t>(n)) mark_.resize(static_cast<std::size_t>(n), 0);
      for (index_t j = n - k; j < n; ++j) {
        index_t t = rng.below(j + 1);
        if (mark_[t]) t = j;
        mark_[t] = 1;
        out.push_back(t);
      }
      for (index_t t : out) mark_[t] = 0;
    }
    std::sort(out.begin(), out.end());
  }

 private:
  static constexpr index_t short_sample = 48;
  std::vector<char> mark_;
};

void require(bool ok, const char* function, const std::string& why) {
  if (!ok) throw std::invalid_argument(std::string(function) + ": " + why);
}

// Converts an entry-count estimate computed in floating point (it may be astronomically
// large) into something check_fits_index can judge without overflowing int64.
std::int64_t clamp_count(double estimate) {
  if (!(estimate < 9.0e18)) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(std::ceil(estimate));
}

template <class T>
Csr<T> square_shell(index_t n, std::size_t nnz_reserve) {
  Csr<T> a;
  a.rows = n;
  a.cols = n;
  a.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  a.col.reserve(nnz_reserve);
  a.val.reserve(nnz_reserve);
  return a;
}

// Appends the off-diagonal columns `cols` (sorted, none equal to row) with fresh random
// values and the diagonal at its sorted place; the diagonal is
// dominance * (absolute off-diagonal sum) + 1.
template <class T>
void push_dominant_row(Csr<T>& a, index_t row, const std::vector<index_t>& cols, Rng& rng,
                       double dominance) {
  double sum = 0.0;
  bool diag_done = false;
  std::size_t diag_pos = 0;
  for (index_t c : cols) {
    if (!diag_done && c > row) {
      diag_pos = a.col.size();
      a.col.push_back(row);
      a.val.push_back(T(0));
      diag_done = true;
    }
    const T v = static_cast<T>(rng.signed_value());
    sum += std::abs(static_cast<double>(v));
    a.col.push_back(c);
    a.val.push_back(v);
  }
  if (!diag_done) {
    diag_pos = a.col.size();
    a.col.push_back(row);
    a.val.push_back(T(0));
  }
  a.val[diag_pos] = static_cast<T>(dominance * sum + 1.0);
  a.row_ptr[row + 1] = static_cast<index_t>(a.col.size());
}

// The 5-point (nz == 1) or 7-point Laplacian on an nx x ny x nz grid in natural order,
// written straight into CSR: `diag` on the diagonal, -1 for each grid neighbour.
template <class T>
Csr<T> grid_laplacian(index_t nx, index_t ny, index_t nz, T diag, const char* what) {
  const std::int64_t n = std::int64_t{nx} * ny * nz;
  const std::int64_t nnz = n + 2 * (std::int64_t{nx} - 1) * ny * nz + 2 * std::int64_t{nx} * (ny - 1) * nz +
                           2 * std::int64_t{nx} * ny * (nz - 1);
  check_fits_index(n, n, nnz, what);
  Csr<T> a;
  a.rows = static_cast<index_t>(n);
  a.cols = a.rows;
  a.row_ptr.resize(static_cast<std::size_t>(n) + 1);
  a.col.resize(static_cast<std::size_t>(nnz));
  a.val.resize(static_cast<std::size_t>(nnz));
  // Raw pointers: the 10^7-row case should run at memory speed.
  index_t* ptr = a.row_ptr.data();
  index_t* col = a.col.data();
  T* val = a.val.data();
  const index_t plane = nx * ny;  // fits: n does
  index_t k = 0;
  index_t row = 0;
  ptr[0] = 0;
  auto put = [&](index_t c, T v) {
    col[k] = c;
    val[k++] = v;
  };
  for (index_t z = 0; z < nz; ++z) {
    for (index_t y = 0; y < ny; ++y) {
      for (index_t x = 0; x < nx; ++x, ++row) {
        if (z > 0) put(row - plane, T(-1));
        if (y > 0) put(row - nx, T(-1));
        if (x > 0) put(row - 1, T(-1));
        put(row, diag);
        if (x + 1 < nx) put(row + 1, T(-1));
        if (y + 1 < ny) put(row + nx, T(-1));
        if (z + 1 < nz) put(row + plane, T(-1));
        ptr[row + 1] = k;
      }
    }
  }
  return a;
}

}  // namespace

template <class T>
Csr<T> poisson2d(index_t nx, index_t ny) {
  require(
      nx > 0 && ny > 0, "poisson2d",
      "grid dimensions must be positive, got " + std::to_string(nx) + " x " + std::to_string(ny));
  return grid_laplacian<T>(nx, ny, 1, T(4), "poisson2d");
}

template <class T>
Csr<T> poisson3d(index_t nx, index_t ny, index_t nz) {
  require(nx > 0 && ny > 0 && nz > 0, "poisson3d",
          "grid dimensions must be positive, got " + std::to_string(nx) + " x " +
              std::to_string(ny) + " x " + std::to_string(nz));
  return grid_laplacian<T>(nx, ny, nz, T(6), "poisson3d");
}

template <class T>
Csr<T> random_spd(index_t n, index_t nnz_per_row, std::uint64_t seed) {
  require(n > 0, "random_spd", "n must be positive, got " + std::to_string(n));
  require(nnz_per_row >= 1 && nnz_per_row <= n, "random_spd",
          "nnz_per_row must be in [1, n = " + std::to_string(n) + "], got " +
              std::to_string(nnz_per_row));
  // Each row draws (nnz_per_row - 1) / 2 lower entries on average, rounded at random, so
  // that even counts come out right on average too.
  const double half = (nnz_per_row - 1) / 2.0;
  const std::int64_t lower_nnz = std::int64_t{n} * static_cast<std::int64_t>(std::ceil(half));
  check_fits_index(n, n, n + 2 * lower_nnz, "random_spd");

  // Strict lower part first; its transpose is the strict upper part with the same
  // values, and the two are merged around a diagonal computed from both.
  Rng rng(seed);
  Sampler sampler;
  Csr<T> lower = square_shell<T>(n, static_cast<std::size_t>(lower_nnz));
  std::vector<index_t> cols;
  for (index_t i = 0; i < n; ++i) {
    const auto want = static_cast<index_t>(std::floor(half + rng.unit()));
    sampler.sample(rng, i, std::min(want, i), cols);
    for (index_t c : cols) {
      lower.col.push_back(c);
      lower.val.push_back(static_cast<T>(rng.signed_value()));
    }
    lower.row_ptr[i + 1] = static_cast<index_t>(lower.col.size());
  }
  const Csr<T> upper = transpose(lower);

  Csr<T> a = square_shell<T>(n, lower.nnz() + upper.nnz() + static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (index_t k = lower.row_ptr[i]; k < lower.row_ptr[i + 1]; ++k) {
      a.col.push_back(lower.col[k]);
      a.val.push_back(lower.val[k]);
      sum += std::abs(static_cast<double>(lower.val[k]));
    }
    const std::size_t diag = a.col.size();
    a.col.push_back(i);
    a.val.push_back(T(0));
    for (index_t k = upper.row_ptr[i]; k < upper.row_ptr[i + 1]; ++k) {
      a.col.push_back(upper.col[k]);
      a.val.push_back(upper.val[k]);
      sum += std::abs(static_cast<double>(upper.val[k]));
    }
    a.val[diag] = static_cast<T>(sum + 1.0);
    a.row_ptr[i + 1] = static_cast<index_t>(a.col.size());
  }
  return a;
}

template <class T>
Csr<T> random_diagonally_dominant(index_t n, index_t min_per_row, index_t max_per_row,
                                  std::uint64_t seed) {
  require(n > 0, "random_diagonally_dominant", "n must be positive, got " + std::to_string(n));
  require(min_per_row >= 1 && min_per_row <= max_per_row && max_per_row <= n,
          "random_diagonally_dominant",
          "need 1 <= min_per_row <= max_per_row <= n = " + std::to_string(n) + ", got " +
              std::to_string(min_per_row) + " .. " + std::to_string(max_per_row));
  const std::int64_t max_nnz = std::int64_t{n} * max_per_row;
  check_fits_index(n, n, max_nnz, "random_diagonally_dominant");
  Rng rng(seed);
  Sampler sampler;
  const std::int64_t expected =
      std::int64_t{n} * ((std::int64_t{min_per_row} + max_per_row) / 2 + 1);
  Csr<T> a = square_shell<T>(n, static_cast<std::size_t>(std::min(expected, max_nnz)));
  std::vector<index_t> cols;
  const index_t spread = max_per_row - min_per_row + 1;
  for (index_t i = 0; i < n; ++i) {
    const index_t len = min_per_row + rng.below(spread);
    // Sample among the n - 1 off-diagonal columns, then skip over the diagonal.
    sampler.sample(rng, n - 1, len - 1, cols);
    for (index_t& c : cols)
      if (c >= i) ++c;
    push_dominant_row(a, i, cols, rng, 1.5);
  }
  return a;
}

template <class T>
Csr<T> random_lower_dag(const DagSpec& spec, std::uint64_t seed) {
  const index_t n = spec.rows;
  const index_t levels = spec.levels;
  const index_t parts = spec.components;
  const double extra = spec.extra_edges_per_row;
  const char* fn = "random_lower_dag";
  require(n > 0, fn, "rows must be positive, got " + std::to_string(n));
  require(levels > 0, fn, "levels must be positive, got " + std::to_string(levels));
  require(parts > 0, fn, "components must be positive, got " + std::to_string(parts));
  require(
      parts <= n, fn,
      "components (" + std::to_string(parts) + ") cannot exceed rows (" + std::to_string(n) + ")");
  const index_t largest = static_cast<index_t>((std::int64_t{n} + parts - 1) / parts);
  require(levels <= largest, fn,
          "levels (" + std::to_string(levels) +
              ") cannot exceed the rows of the largest component, "
              "ceil(rows / components) = " +
              std::to_string(largest));
  require(
      levels > 1 || parts == n, fn,
      "levels = 1 is a diagonal matrix, whose components are its rows: components must equal rows");
  require(std::isfinite(extra) && extra >= 0.0, fn,
          "extra_edges_per_row must be finite and >= 0, got " + std::to_string(extra));
  // Per row: diagonal, one required dependency, ceil(extra) extra ones, one connecting one.
  check_fits_index(n, n, clamp_count(static_cast<double>(n) * (3.0 + std::ceil(extra))), fn);

  Rng rng(seed);
  const auto part_size = [&](index_t c) {
    return static_cast<index_t>((std::int64_t{n} - c + parts - 1) / parts);
  };

  // 1. Levels. Within component c (local position p is global row p * parts + c) one
  // "spine" row per level guarantees every level is populated; the other rows get
  // random levels. Rows are ordered by key = level * M + jitter with jitter in [0, 2M)
  // (in [0, M) at level 0, 0 on the spine), so the spine row of level k-1 precedes every
  // row of level k, all level-0 rows precede the rest, and levels k and k+1 interleave.
  // Level-0 rows are capped at half the component so that the connecting step below
  // has enough higher-level rows to tie every level-0 row into one component.
  std::vector<index_t> level(static_cast<std::size_t>(n));
  std::vector<index_t> level_base(static_cast<std::size_t>(parts) + 1, 0);  // bucket id of (c, 0)
  {
    constexpr std::uint64_t M = std::uint64_t{1} << 32;
    struct Item {
      std::uint64_t key;
      index_t level;
    };
    std::vector<Item> items;
    items.reserve(static_cast<std::size_t>(largest));
    for (index_t c = 0; c < parts; ++c) {
      const index_t s = part_size(c);
      const index_t lc = std::min(levels, s);
      level_base[c + 1] = level_base[c] + lc;
      items.clear();
      for (index_t k = 0; k < lc; ++k) items.push_back({k * M, k});
      index_t extra_roots = 0;
      const index_t root_cap = (s + 1) / 2 - 1;
      for (index_t r = lc; r < s; ++r) {
        index_t k = rng.below(lc);
        if (k == 0 && extra_roots >= root_cap) k = 1 + rng.below(lc - 1);
        if (k == 0) {
          ++extra_roots;
          items.push_back({rng.below(M), 0});
        } else {
          items.push_back({k * M + rng.below(2 * M), k});
        }
      }
      // Stable: equal keys keep the spine first, and the order is fully specified.
      std::stable_sort(items.begin(), items.end(),
                       [](const Item& x, const Item& y) { return x.key < y.key; });
      for (index_t p = 0; p < s; ++p)
        level[static_cast<std::size_t>(std::int64_t{p} * parts + c)] = items[p].level;
    }
  }

  // 2. Buckets (component, level) -> its rows in increasing order, CSR-like.
  const index_t buckets = level_base[parts];
  std::vector<index_t> bucket_ptr(static_cast<std::size_t>(buckets) + 1, 0);
  for (index_t g = 0; g < n; ++g) ++bucket_ptr[level_base[g % parts] + level[g] + 1];
  for (index_t b = 0; b < buckets; ++b) bucket_ptr[b + 1] += bucket_ptr[b];
  std::vector<index_t> bucket_rows(static_cast<std::size_t>(n));
  {
    std::vector<index_t> next(bucket_ptr.begin(), bucket_ptr.end() - 1);
    for (index_t g = 0; g < n; ++g) bucket_rows[next[level_base[g % parts] + level[g]]++] = g;
  }

  // 3. Rows in order. done[b] counts the rows of bucket b already emitted, which are
  // exactly the earlier rows of that (component, level). The union-find tracks which
  // level-0 rows are already tied together: each row above level 0, while its component
  // is still split, adds one level-0 dependency that merges two of its pieces (see the
  // comment at that step), and there are at least as many such rows as level-0 rows.
  std::vector<index_t> done(static_cast<std::size_t>(buckets), 0);
  std::vector<index_t> next_root(static_cast<std::size_t>(parts), 1);  // scan position in (c, 0)
  MinRootForest sets(n);
  const auto whole = static_cast<std::int64_t>(std::floor(extra));
  const double fraction = extra - std::floor(extra);
  Csr<T> a = square_shell<T>(n, static_cast<std::size_t>(std::int64_t{n} * (2 + whole + 1)));
  std::vector<index_t> deps;
  const auto pick = [&](index_t b) { return bucket_rows[bucket_ptr[b] + rng.below(done[b])]; };
  for (index_t g = 0; g < n; ++g) {
    const index_t c = g % parts;
    const index_t k = level[g];
    const index_t base = level_base[c];
    deps.clear();
    if (k > 0) {
      deps.push_back(pick(base + k - 1));
      const std::int64_t count = whole + (rng.unit() < fraction ? 1 : 0);
      for (std::int64_t e = 0; e < count; ++e) deps.push_back(pick(base + rng.below(k)));

      // Connect: the component's level-0 rows are all emitted by now. Skip those already
      // joined to the first one (the spine root); if one is left, merge its piece with
      // ours, or, if it is already in ours, ours with the root's. Either way the number
      // of pieces drops by one. Once every level-0 row is joined the component is
      // connected for good (each later row hangs below a level-0 row), and the
      // union-find is no longer needed for it.
      const index_t first = bucket_ptr[base];
      const index_t count0 = bucket_ptr[base + 1] - first;
      index_t& scan = next_root[c];
      if (scan < count0) {
        const index_t root = bucket_rows[first];
        for (index_t d : deps) sets.unite(g, d);
        while (scan < count0 && sets.find(bucket_rows[first + scan]) == sets.find(root)) ++scan;
        if (scan < count0) {
          const index_t loose = bucket_rows[first + scan];
          const index_t partner = sets.find(loose) == sets.find(g) ? root : loose;
          deps.push_back(partner);
          sets.unite(g, partner);
        }
      }
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    }
    push_dominant_row(a, g, deps, rng, 1.0);
    ++done[base + k];
  }
  return a;
}

template <class T>
Csr<T> block_diagonal_lower(index_t components, index_t size, double density, std::uint64_t seed) {
  const char* fn = "block_diagonal_lower";
  require(components > 0, fn, "components must be positive, got " + std::to_string(components));
  require(size > 0, fn, "size must be positive, got " + std::to_string(size));
  require(std::isfinite(density) && density > 0.0 && density <= 1.0, fn,
          "density must be in (0, 1], got " + std::to_string(density));
  const std::int64_t n = std::int64_t{components} * size;
  // Per row: diagonal, density * i entries, and at most one more from the rounding.
  const double bound = 2.0 * static_cast<double>(n) + density * static_cast<double>(components) *
                                                          static_cast<double>(size) *
                                                          (static_cast<double>(size) - 1.0) / 2.0;
  check_fits_index(n, n, clamp_count(bound), fn);
  Rng rng(seed);
  Sampler sampler;
  Csr<T> a = square_shell<T>(static_cast<index_t>(n), static_cast<std::size_t>(clamp_count(bound)));
  std::vector<index_t> cols;
  for (index_t b = 0; b < components; ++b) {
    const index_t offset = b * size;  // fits: n does
    for (index_t i = 0; i < size; ++i) {
      // Random rounding keeps the expected count at exactly density * i.
      const auto want = static_cast<index_t>(std::floor(density * i + rng.unit()));
      sampler.sample(rng, i, std::min(want, i), cols);
      for (index_t& c : cols) c += offset;
      push_dominant_row(a, offset + i, cols, rng, 1.0);
    }
  }
  return a;
}

template <class T>
Csr<T> banded(index_t n, index_t lower_bandwidth, index_t upper_bandwidth, std::uint64_t seed) {
  require(n > 0, "banded", "n must be positive, got " + std::to_string(n));
  require(lower_bandwidth >= 0 && upper_bandwidth >= 0, "banded",
          "bandwidths must be >= 0, got " + std::to_string(lower_bandwidth) + " and " +
              std::to_string(upper_bandwidth));
  const std::int64_t lo = std::min(lower_bandwidth, n - 1);
  const std::int64_t up = std::min(upper_bandwidth, n - 1);
  const std::int64_t nnz = n + lo * n - lo * (lo + 1) / 2 + up * n - up * (up + 1) / 2;
  check_fits_index(n, n, nnz, "banded");
  Rng rng(seed);
  Csr<T> a = square_shell<T>(n, static_cast<std::size_t>(nnz));
  std::vector<index_t> cols;
  for (index_t i = 0; i < n; ++i) {
    cols.clear();
    const index_t first = static_cast<index_t>(std::max<std::int64_t>(0, i - lo));
    const index_t last = static_cast<index_t>(std::min<std::int64_t>(n - 1, i + up));
    for (index_t c = first; c <= last; ++c)
      if (c != i) cols.push_back(c);
    push_dominant_row(a, i, cols, rng, 1.0);
  }
  return a;
}

// ---- spec strings ----

namespace {

constexpr std::string_view generator_names[] = {"poisson2d", "poisson3d", "spd",   "dd",
                                                "dag",       "blockdiag", "banded"};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// A size-like field: a decimal integer in [minimum, 2^31 - 1].
index_t parse_index(std::string_view text, std::string_view what, index_t minimum) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size())
    throw std::invalid_argument(std::string(what) + " must be an integer, got " + quoted(text));
  if (ec == std::errc::result_out_of_range || v > index_limit)
    throw std::invalid_argument(std::string(what) + " " + quoted(text) +
                                " does not fit 32-bit indices");
  if (v < minimum)
    throw std::invalid_argument(std::string(what) + " must be >= " + std::to_string(minimum) +
                                ", got " + quoted(text));
  return static_cast<index_t>(v);
}

std::uint64_t parse_seed(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("seed must be an integer in [0, 2^64), got " + quoted(text));
  return v;
}

double parse_density(std::string_view text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("DENSITY must be a number, got " + quoted(text));
  if (!(v > 0.0 && v <= 1.0))
    throw std::invalid_argument("DENSITY must be in (0, 1], got " + quoted(text));
  return v;
}

// fields excludes the name; `required` of them are mandatory, the rest up to `total` optional.
void expect_fields(std::string_view name, const std::vector<std::string_view>& fields,
                   std::size_t required, std::size_t total) {
  if (fields.size() < required || fields.size() > total)
    throw std::invalid_argument(std::string(name) + " takes " +
                                (required == total
                                     ? std::to_string(required)
                                     : std::to_string(required) + " to " + std::to_string(total)) +
                                " field(s) after the name, got " + std::to_string(fields.size()));
}

// "N" or "AxBx..." with exactly `dims` factors.
std::vector<index_t> parse_grid(std::string_view text, std::size_t dims) {
  const std::vector<std::string_view> parts = split(text, 'x');
  if (parts.size() == 1) {
    const index_t side = parse_index(parts[0], "grid size", 1);
    return std::vector<index_t>(dims, side);
  }
  if (parts.size() != dims)
    throw std::invalid_argument("grid " + quoted(text) + " must be N or have " +
                                std::to_string(dims) + " dimensions separated by 'x'");
  std::vector<index_t> out;
  for (std::string_view p : parts) out.push_back(parse_index(p, "grid dimension", 1));
  return out;
}

template <class T>
Csr<T> generate_checked(std::string_view spec) {
  std::vector<std::string_view> fields = split(spec, ':');
  const std::string_view name = fields.front();
  fields.erase(fields.begin());
  const auto seed_at = [&](std::size_t i) {
    return fields.size() > i ? parse_seed(fields[i]) : std::uint64_t{1};
  };
  if (name == "poisson2d") {
    expect_fields(name, fields, 1, 1);
    const auto g = parse_grid(fields[0], 2);
    return poisson2d<T>(g[0], g[1]);
  }
  if (name == "poisson3d") {
    expect_fields(name, fields, 1, 1);
    const auto g = parse_grid(fields[0], 3);
    return poisson3d<T>(g[0], g[1], g[2]);
  }
  // Fields are parsed into named locals first so that the first bad field is the one
  // reported (argument evaluation order is unspecified).
  if (name == "spd") {
    expect_fields(name, fields, 2, 3);
    const index_t n = parse_index(fields[0], "N", 1);
    const index_t k = parse_index(fields[1], "K", 1);
    return random_spd<T>(n, k, seed_at(2));
  }
  if (name == "dd") {
    expect_fields(name, fields, 3, 4);
    const index_t n = parse_index(fields[0], "N", 1);
    const index_t lo = parse_index(fields[1], "MIN", 1);
    const index_t hi = parse_index(fields[2], "MAX", 1);
    return random_diagonally_dominant<T>(n, lo, hi, seed_at(3));
  }
  if (name == "dag") {
    expect_fields(name, fields, 2, 4);
    DagSpec d{parse_index(fields[0], "N", 1),
              parse_index(fields[1], "LEVELS", 1)};  // braced: evaluated in order
    if (fields.size() > 2) d.components = parse_index(fields[2], "COMPONENTS", 1);
    return random_lower_dag<T>(d, seed_at(3));
  }
  if (name == "blockdiag") {
    expect_fields(name, fields, 3, 4);
    const index_t k = parse_index(fields[0], "K", 1);
    const index_t size = parse_index(fields[1], "S", 1);
    const double density = parse_density(fields[2]);
    return block_diagonal_lower<T>(k, size, density, seed_at(3));
  }
  if (name == "banded") {
    expect_fields(name, fields, 3, 4);
    const index_t n = parse_index(fields[0], "N", 1);
    const index_t lower = parse_index(fields[1], "LOWER", 0);
    const index_t upper = parse_index(fields[2], "UPPER", 0);
    return banded<T>(n, lower, upper, seed_at(3));
  }
  throw std::invalid_argument("unknown generator " + quoted(name));
}

}  // namespace

bool is_generator_spec(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view name = s.substr(0, colon);
  return std::find(std::begin(generator_names), std::end(generator_names), name) !=
         std::end(generator_names);
}

std::string generator_help() {
  return "Generated matrices, NAME:FIELDS (SEED defaults to 1):\n"
         "  poisson2d:N | poisson2d:NXxNY         5-point Laplacian on an N x N (NX x NY) grid\n"
         "  poisson3d:N | poisson3d:NXxNYxNZ      7-point Laplacian on an N^3 (NX x NY x NZ) grid\n"
         "  spd:N:K[:SEED]                        random SPD, N rows, about K entries per row\n"
         "  dd:N:MIN:MAX[:SEED]                   random unsymmetric, diagonally dominant,\n"
         "                                        MIN..MAX entries per row (1 <= MIN <= MAX <= N)\n"
         "  dag:N:LEVELS[:COMPONENTS[:SEED]]      random lower-triangular DAG with exactly LEVELS\n"
         "                                        level sets and COMPONENTS (default 1) "
         "components\n"
         "  blockdiag:K:S:DENSITY[:SEED]          K lower-triangular diagonal blocks of size S,\n"
         "                                        DENSITY in (0, 1] of the strictly lower part\n"
         "  banded:N:LOWER:UPPER[:SEED]           dense band, diagonally dominant\n"
         "All sizes must be positive (bandwidths >= 0) and fit 32-bit indices.\n";
}

template <class T>
Csr<T> generate(std::string_view spec) {
  // One exception type for every way a spec can be wrong, with the forms attached, so
  // that the CLI can print the message as is.
  const auto fail = [&](const char* why) {
    throw std::invalid_argument("bad matrix spec " + quoted(spec) + ": " + why + "\n" +
                                generator_help());
  };
  try {
    return generate_checked<T>(spec);
  } catch (const SizeError& e) { fail(e.what()); } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  throw std::logic_error("unreachable");
}

#define APIARY_GENERATORS_INSTANTIATE(T)                                                   \
  template Csr<T> poisson2d<T>(index_t, index_t);                                          \
  template Csr<T> poisson3d<T>(index_t, index_t, index_t);                                 \
  template Csr<T> random_spd<T>(index_t, index_t, std::uint64_t);                          \
  template Csr<T> random_diagonally_dominant<T>(index_t, index_t, index_t, std::uint64_t); \
  template Csr<T> random_lower_dag<T>(const DagSpec&, std::uint64_t);                      \
  template Csr<T> block_diagonal_lower<T>(index_t, index_t, double, std::uint64_t);        \
  template Csr<T> banded<T>(index_t, index_t, index_t, std::uint64_t);                     \
  template Csr<T> generate<T>(std::string_view);

APIARY_GENERATORS_INSTANTIATE(float)
APIARY_GENERATORS_INSTANTIATE(double)

#undef APIARY_GENERATORS_INSTANTIATE

}  // namespace apiary::sparse
