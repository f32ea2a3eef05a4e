// Probe: the PCG task loop's spmv and update bodies as plain kernels, one chunk per block
// as in the task loop (264 blocks = 2/SM on an H100), to find what limits them.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
constexpr int T = 256;

// current scheme: rounds loop, Passes rows per group
template <int P>
__global__ void __launch_bounds__(256) spmv_cur(int n, int per, int lanes, const int* rp, const int* col, const double* val,
    const double* pold, const double* z, double beta, double* pnew, double* q, double* part) {
  int begin = blockIdx.x * per, end_ = min(n, begin + per);
  int rank = threadIdx.x, groups = T / lanes, group = rank / lanes, lane = rank % lanes;
  double mine = 0;
  for (int base = begin; base < end_; base += P * groups) {
    double acc[P]; int k[P], e[P];
#pragma unroll
    for (int u = 0; u < P; ++u) { int pos = base + u * groups + group; bool a = pos < end_; acc[u] = 0;
      k[u] = a ? __ldg(rp + pos) + lane : 0; e[u] = a ? __ldg(rp + pos + 1) : 0; }
    for (bool more = true; more;) { more = false;
#pragma unroll
      for (int u = 0; u < P; ++u) if (k[u] < e[u]) { int j = __ldg(col + k[u]); acc[u] += __ldg(val + k[u]) * fma(beta, pold[j], z[j]); k[u] += lanes; more = true; } }
#pragma unroll
    for (int u = 0; u < P; ++u) { if (base + u * groups >= end_) break; double s = acc[u];
      for (int off = lanes >> 1; off > 0; off >>= 1) s += __shfl_xor_sync(~0u, s, off);
      int pos = base + u * groups + group;
      if (pos < end_ && lane == 0) { double pi = fma(beta, pold[pos], z[pos]); pnew[pos] = pi; q[pos] = s; mine += pi * s; } }
  }
  if (mine == 12345.0) part[blockIdx.x] = mine;
}

// batched: R entries per lane loaded at once before the gathers
template <int P, int R>
__global__ void __launch_bounds__(256) spmv_bat(int n, int per, int lanes, const int* rp, const int* col, const double* val,
    const double* pold, const double* z, double beta, double* pnew, double* q, double* part) {
  int begin = blockIdx.x * per, end_ = min(n, begin + per);
  int rank = threadIdx.x, groups = T / lanes, group = rank / lanes, lane = rank % lanes;
  double mine = 0;
  for (int base = begin; base < end_; base += P * groups) {
    double acc[P]; int k[P], e[P];
#pragma unroll
    for (int u = 0; u < P; ++u) { int pos = base + u * groups + group; bool a = pos < end_; acc[u] = 0;
      k[u] = a ? __ldg(rp + pos) + lane : 0; e[u] = a ? __ldg(rp + pos + 1) : 0; }
    for (bool more = true; more;) {
      int j[P][R]; double v[P][R], g[P][R];
#pragma unroll
      for (int u = 0; u < P; ++u)
#pragma unroll
        for (int r = 0; r < R; ++r) { int kk = k[u] + r * lanes; bool ok = kk < e[u]; j[u][r] = ok ? __ldg(col + kk) : -1; v[u][r] = ok ? __ldg(val + kk) : 0.0; }
#pragma unroll
      for (int u = 0; u < P; ++u)
#pragma unroll
        for (int r = 0; r < R; ++r) g[u][r] = j[u][r] >= 0 ? fma(beta, pold[j[u][r]], z[j[u][r]]) : 0.0;
      more = false;
#pragma unroll
      for (int u = 0; u < P; ++u) {
#pragma unroll
        for (int r = 0; r < R; ++r) if (j[u][r] >= 0) acc[u] += v[u][r] * g[u][r];
        k[u] += R * lanes; more |= k[u] < e[u]; }
    }
#pragma unroll
    for (int u = 0; u < P; ++u) { if (base + u * groups >= end_) break; double s = acc[u];
      for (int off = lanes >> 1; off > 0; off >>= 1) s += __shfl_xor_sync(~0u, s, off);
      int pos = base + u * groups + group;
      if (pos < end_ && lane == 0) { double pi = fma(beta, pold[pos], z[pos]); pnew[pos] = pi; q[pos] = s; mine += pi * s; } }
  }
  if (mine == 12345.0) part[blockIdx.x] = mine;
}

template <int U>
__global__ void __launch_bounds__(256) update(int n, int per, double alpha, double* x, const double* p, double* r, const double* q, double* z, const double* d, double* part) {
  int begin = blockIdx.x * per, end_ = min(n, begin + per);
  double mine = 0;
  for (int base = begin + threadIdx.x; base < end_; base += U * T) {
    double a[U], b[U], c[U], e[U];
#pragma unroll
    for (int u = 0; u < U; ++u) { int i = base + u * T; if (i < end_) { a[u] = x[i]; b[u] = p[i]; c[u] = r[i]; e[u] = q[i]; } }
#pragma unroll
    for (int u = 0; u < U; ++u) { int i = base + u * T; if (i < end_) { x[i] = a[u] + alpha * b[u]; double ri = c[u] - alpha * e[u]; r[i] = ri; double zi = ri / __ldg(d + i); z[i] = zi; mine += ri * zi; } }
  }
  if (mine == 12345.0) part[blockIdx.x] = mine;
}

int main() {
  const int m = 100, n = m * m * m;
  std::vector<int> rp{0}, col; std::vector<double> val;
  for (int i = 0; i < m; ++i) for (int j = 0; j < m; ++j) for (int k = 0; k < m; ++k) {
    int row = (i * m + j) * m + k;
    auto add = [&](int c, double v) { col.push_back(c); val.push_back(v); };
    if (i > 0) add(row - m * m, -1); if (j > 0) add(row - m, -1); if (k > 0) add(row - 1, -1); add(row, 6);
    if (k < m - 1) add(row + 1, -1); if (j < m - 1) add(row + m, -1); if (i < m - 1) add(row + m * m, -1);
    rp.push_back((int)col.size()); }
  int nnz = (int)col.size();
  int *drp, *dcol; double *dval, *v[8], *part;
  CK(cudaMalloc(&drp, rp.size() * 4)); CK(cudaMalloc(&dcol, nnz * 4)); CK(cudaMalloc(&dval, nnz * 8)); CK(cudaMalloc(&part, 1 << 20));
  CK(cudaMemcpy(drp, rp.data(), rp.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dcol, col.data(), nnz * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dval, val.data(), nnz * 8, cudaMemcpyHostToDevice));
  std::vector<double> ones(n, 1.0);
  for (auto& p : v) { CK(cudaMalloc(&p, n * 8)); CK(cudaMemcpy(p, ones.data(), n * 8, cudaMemcpyHostToDevice)); }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  auto time = [&](const char* name, double mb, auto launch) {
    for (int w = 0; w < 3; ++w) launch();
    CK(cudaEventRecord(a)); const int reps = 50; for (int w = 0; w < reps; ++w) launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); double us = ms * 1e3 / reps;
    printf("%-44s %8.1f us  %6.0f GB/s\n", name, us, mb / us * 1e-3 * 1e6 / 1e6 * 1e3); CK(cudaGetLastError()); };
  double spmv_mb = (nnz * 12.0 + n * (4 + 8 * 4)) / 1e6, upd_mb = n * 8.0 * 8 / 1e6;
  printf("n %d nnz %d; spmv %.0f MB, update %.0f MB\n", n, nnz, spmv_mb, upd_mb);
  for (int blocks : {264, 528}) {
    int per = (n + blocks - 1) / blocks;
    char s[128];
#define CUR(P, L) snprintf(s, sizeof s, "spmv cur P%d lanes %d blocks %d", P, L, blocks); \
    time(s, spmv_mb, [&] { spmv_cur<P><<<blocks, T>>>(n, per, L, drp, dcol, dval, v[0], v[1], 0.5, v[2], v[3], part); });
#define BAT(P, R, L) snprintf(s, sizeof s, "spmv bat P%d R%d lanes %d blocks %d", P, R, L, blocks); \
    time(s, spmv_mb, [&] { spmv_bat<P, R><<<blocks, T>>>(n, per, L, drp, dcol, dval, v[0], v[1], 0.5, v[2], v[3], part); });
    CUR(4, 1) CUR(4, 2) CUR(8, 1) CUR(8, 2) CUR(2, 4) CUR(4, 4)
    BAT(1, 8, 1) BAT(2, 8, 1) BAT(4, 8, 1) BAT(2, 4, 1) BAT(4, 4, 1) BAT(4, 2, 2) BAT(2, 4, 2) BAT(4, 4, 2) BAT(8, 2, 2) BAT(4, 2, 4) BAT(8, 2, 4) BAT(2, 2, 4)
  }
  // cuSPARSE SpMV for calibration (y = A x)
  cusparseHandle_t h; cusparseCreate(&h); cusparseSpMatDescr_t A; cusparseDnVecDescr_t X, Y;
  cusparseCreateCsr(&A, n, n, nnz, drp, dcol, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&X, n, v[0], CUDA_R_64F); cusparseCreateDnVec(&Y, n, v[6], CUDA_R_64F);
  double one = 1, zero = 0; size_t bs; cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  void* buf; cudaMalloc(&buf, bs + 8);
  time("cusparse spmv (plain y = Ax)", (nnz * 12.0 + n * 20) / 1e6, [&] { cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, buf); });
  time("cudaMemcpy d2d 64 MB", 2 * 64.0, [&] { cudaMemcpyAsync(v[6], v[7], n * 8, cudaMemcpyDeviceToDevice); });
  return 0;
}
