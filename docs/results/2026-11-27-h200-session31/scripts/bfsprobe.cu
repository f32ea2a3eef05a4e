// Probe: one block runs a whole BFS of a scrambled 2D grid level by level (the Narrow
// task's structure, outside the runtime). A: row bounds loaded when a level is staged
// (4 dependent global steps a level: row bounds, columns, marks, claims). B: a 16-byte
// vertex record {first, last, mark, degree}: the mark load brings the bounds, so a
// claimed vertex is staged without a load (3 steps).
#include <cub/block/block_scan.cuh>
#include <cuda/atomic>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#ifndef PT
#define PT 256
#endif
constexpr int T = PT, TILE = 2048, ITEMS = TILE / T, PASS = 4096, PI = PASS / T;
using ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

struct Sh {
  int vertex[TILE], first[TILE], off[TILE + 1], next[TILE], nfirst[TILE], nlast[TILE];
  int owner[PASS];
  int claimed;
  typename cub::BlockScan<int, T>::TempStorage scan;
};

__device__ inline void nbar() { asm volatile("barrier.sync 1, %0;" ::"r"(T) : "memory"); }
#define SYNC() (Nal ? nbar() : __syncthreads())

template <bool Rec, bool Nal>
__global__ void __launch_bounds__(T) bfs(const int* row_ptr, const int* col, unsigned* mark, int4* rec, int root,
                                         unsigned stamp, int* out_levels, int* out_last_width, long long* out_ns,
                                         unsigned* done, unsigned* hot) {
  extern __shared__ __align__(16) unsigned char raw[];
  if (blockIdx.x > 0) {  // an idle block of a megakernel: polls a hot word with back-off
    unsigned b = 32;
    while (ref(*done).load(cuda::memory_order_relaxed) != stamp) {
      (void)ref(hot[threadIdx.x == 0 ? 0 : 1]).load(cuda::memory_order_relaxed);
      __nanosleep(b);
      b = b < 512 ? b * 2 : 512;
    }
    return;
  }
  Sh& sh = *reinterpret_cast<Sh*>(raw);
  const int r = threadIdx.x;
  long long t0 = 0;
  if (r == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    sh.next[0] = root;
    if (Rec) {
      rec[root].z = stamp;
      sh.nfirst[0] = rec[root].x;
      sh.nlast[0] = rec[root].y;
    } else mark[root] = stamp;
  }
  SYNC();
  int w = 1, levels = 1;
  for (;;) {
    // stage
    if (Rec) {
      for (int i = 0; i < ITEMS; ++i) {
        const int j = r + i * T;
        if (j < w) {
          sh.vertex[j] = sh.next[j];
          sh.first[j] = sh.nfirst[j];
          sh.off[j] = sh.nlast[j] - sh.nfirst[j];
        }
      }
    } else {
      int v[ITEMS], f[ITEMS], l[ITEMS];
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) v[i] = r + i * T < w ? sh.next[r + i * T] : -1;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        f[i] = __ldg(row_ptr + (v[i] < 0 ? 0 : v[i]));
        l[i] = __ldg(row_ptr + (v[i] < 0 ? 0 : v[i]) + 1);
      }
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        if (v[i] < 0) continue;
        const int j = r + i * T;
        sh.vertex[j] = v[i];
        sh.first[j] = f[i];
        sh.off[j] = l[i] - f[i];
      }
    }
    SYNC();
    int len[ITEMS], sum = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int j = r * ITEMS + i;
      len[i] = j < w ? sh.off[j] : 0;
      sum += len[i];
    }
    int run = 0, edges = 0;
    cub::BlockScan<int, T>(sh.scan).ExclusiveSum(sum, run, edges);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int j = r * ITEMS + i;
      if (j < w) sh.off[j] = run;
      run += len[i];
    }
    if (r == 0) {
      sh.off[w] = edges;
      sh.claimed = 0;
    }
    SYNC();
    for (int pb = 0; pb < edges; pb += PASS) {
      const int pe = min(edges, pb + PASS);
      for (int i = 0; i < ITEMS; ++i) {
        const int j = r + i * T;
        if (j >= w) continue;
        const int a = max(sh.off[j], pb), b = min(sh.off[j + 1], pe);
        for (int k = a; k < b; ++k) sh.owner[k - pb] = j;
      }
      SYNC();
      int at[PI], edge[PI], v[PI];
#pragma unroll
      for (int i = 0; i < PI; ++i) {
        const int k = pb + r + i * T;
        at[i] = k < pe ? sh.owner[k - pb] : -1;
        const int j = at[i] < 0 ? 0 : at[i];
        edge[i] = sh.first[j] + (k - sh.off[j]);
      }
#pragma unroll
      for (int i = 0; i < PI; ++i) v[i] = __ldg(col + (at[i] < 0 ? 0 : edge[i]));
      unsigned seen[PI], old[PI];
      int f[PI], l[PI];
#pragma unroll
      for (int i = 0; i < PI; ++i) {
        if (Rec) {
          const int4 q = __ldcg(rec + v[i]);
          seen[i] = q.z;
          f[i] = q.x;
          l[i] = q.y;
        } else seen[i] = ref(mark[v[i]]).load(cuda::memory_order_relaxed);
      }
#pragma unroll
      for (int i = 0; i < PI; ++i) {
        old[i] = 0;
        if (at[i] < 0 || seen[i] == stamp) {
          at[i] = -1;
          continue;
        }
        old[i] = Rec ? ref(*reinterpret_cast<unsigned*>(&rec[v[i]].z)).exchange(stamp, cuda::memory_order_relaxed)
                     : ref(mark[v[i]]).exchange(stamp, cuda::memory_order_relaxed);
      }
      int taken = 0;
      bool take[PI];
#pragma unroll
      for (int i = 0; i < PI; ++i) {
        take[i] = at[i] >= 0 && old[i] != stamp;
        taken += take[i];
      }
      int incl = taken;
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const int o = __shfl_up_sync(~0u, incl, d);
        if ((r & 31) >= d) incl += o;
      }
      int base = 0;
      if ((r & 31) == 31 && incl > 0) base = atomicAdd(&sh.claimed, incl);
      base = __shfl_sync(~0u, base, 31) + incl - taken;
#pragma unroll
      for (int i = 0; i < PI; ++i) {
        if (!take[i]) continue;
        if (base < TILE) {
          sh.next[base] = v[i];
          if (Rec) {
            sh.nfirst[base] = f[i];
            sh.nlast[base] = l[i];
          }
        }
        ++base;
      }
      SYNC();
    }
    const int count = sh.claimed;
    if (count == 0 || count > TILE) {
      if (r == 0) {
        long long t1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        *out_levels = count > TILE ? -levels : levels;
        *out_last_width = w;
        *out_ns = t1 - t0;
        ref(*done).store(stamp, cuda::memory_order_relaxed);
      }
      return;
    }
    SYNC();
    w = count;
    ++levels;
  }
}

int main(int argc, char** argv) {
  const int N = argc > 1 ? atoi(argv[1]) : 1000;
  const int n = N * N;
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng(7);
  std::shuffle(p.begin(), p.end(), rng);
  std::vector<std::vector<int>> adj(n);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const int u = p[i * N + j];
      if (i > 0) adj[u].push_back(p[(i - 1) * N + j]);
      if (i + 1 < N) adj[u].push_back(p[(i + 1) * N + j]);
      if (j > 0) adj[u].push_back(p[i * N + j - 1]);
      if (j + 1 < N) adj[u].push_back(p[i * N + j + 1]);
    }
  std::vector<int> rp(n + 1, 0), cl;
  for (int u = 0; u < n; ++u) {
    std::sort(adj[u].begin(), adj[u].end());
    rp[u + 1] = rp[u] + static_cast<int>(adj[u].size());
    cl.insert(cl.end(), adj[u].begin(), adj[u].end());
  }
  std::vector<int4> hr(n);
  for (int u = 0; u < n; ++u) hr[u] = make_int4(rp[u], rp[u + 1], 0, rp[u + 1] - rp[u]);
  int *d_rp, *d_cl, *d_lv, *d_lw;
  unsigned* d_mark;
  int4* d_rec;
  long long* d_ns;
  cudaMalloc(&d_rp, (n + 1) * 4);
  cudaMalloc(&d_cl, cl.size() * 4);
  cudaMalloc(&d_mark, n * 4);
  cudaMalloc(&d_rec, n * 16);
  cudaMalloc(&d_lv, 4);
  cudaMalloc(&d_lw, 4);
  cudaMalloc(&d_ns, 8);
  cudaMemcpy(d_rp, rp.data(), (n + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_cl, cl.data(), cl.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_rec, hr.data(), n * 16, cudaMemcpyHostToDevice);
  cudaMemset(d_mark, 0, n * 4);
  const int smem = sizeof(Sh);
  unsigned *d_done, *d_hot;
  cudaMalloc(&d_done, 4);
  cudaMalloc(&d_hot, 8);
  cudaMemset(d_done, 0, 4);
  using K = decltype(&bfs<false, false>);
  K ks[4] = {bfs<false, false>, bfs<true, false>, bfs<false, true>, bfs<true, true>};
  const char* names[4] = {"A rowptr", "B record", "A rowptr nonaligned", "B record nonaligned"};
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("N %d, smem %d, regs", N, smem);
  for (auto k : ks) {
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, k);
    printf(" %d", fa.numRegs);
  }
  printf("\n");
  unsigned stamp = 1;
  for (int rep = 0; rep < 2; ++rep)
    for (int pollers : {0, 2 * sms - 1})
    for (int rec = 0; rec < 4; ++rec) {
      const int root = p[0];
      ks[rec]<<<1 + pollers, T, smem>>>(d_rp, d_cl, d_mark, d_rec, root, stamp++, d_lv, d_lw, d_ns, d_done, d_hot);
      int lv, lw;
      long long ns;
      cudaMemcpy(&lv, d_lv, 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(&lw, d_lw, 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(&ns, d_ns, 8, cudaMemcpyDeviceToHost);
      const cudaError_t err = cudaGetLastError();
      cudaDeviceSynchronize();
      printf("pollers %3d ", pollers);
      printf("rep %d %s: levels %d last width %d, %.3f ms, %.3f us/level %s\n", rep, names[rec], lv, lw,
             ns * 1e-6, ns * 1e-3 / std::abs(lv), cudaGetErrorString(err));
    }
}
