// What CUDA C++ code makes nvcc 13 emit, as widely as one file can: atomics of
// every type, integer/float/half/bfloat16 intrinsics, SIMD video and DPX
// functions, warp and cooperative-groups operations, cache-operator loads and
// stores, fences, clock, malloc/free and alloca, printf/assert, textures and
// surfaces, thread-block clusters and programmatic dependent launch (sm_90).
// tests/unit/test_ptx_parse.c checks that what warpsim refuses in it is
// exactly the list in docs/ptx-support.md ("What warpsim does not run").
// Regenerate (whenever nvcc is present):
//   nvcc -arch=sm_75 -rdc=true -ptx coverage.cu -o coverage_sm75.ptx   (also sm_80, sm_90)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/std/atomic>
namespace cg = cooperative_groups;
__device__ int g_i; __device__ float g_f; __device__ double g_d; __device__ unsigned long long g_u;
__global__ void k_atomics(float *f, double *d, __half2 *h, __nv_bfloat162 *b, unsigned short *us, int n) {
  atomicAdd(f, 1.0f); atomicAdd(d, 2.0); atomicAdd(h, __floats2half2_rn(1.f, 2.f));
#if __CUDA_ARCH__ >= 800
  atomicAdd(b, __floats2bfloat162_rn(1.f, 2.f));
#endif
  atomicCAS(us, (unsigned short)1, (unsigned short)2);
  atomicMax(&g_i, n); atomicMin(&g_u, 5ull); atomicExch(&g_f, 3.f); atomicInc((unsigned*)&g_i, 7u);
  atomicAnd(&g_i, 3); atomicOr_block(&g_i, 4); atomicXor_system(&g_i, 1);
  cuda::atomic_ref<int, cuda::thread_scope_device> r(g_i); r.fetch_add(1, cuda::memory_order_relaxed);
  r.store(3, cuda::memory_order_release); (void)r.load(cuda::memory_order_acquire);
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
#if __CUDA_ARCH__ >= 900
  atomicAdd((float2*)f, make_float2(1.f, 2.f)); atomicAdd((float4*)f, make_float4(1.f,2.f,3.f,4.f));
#endif
}
__global__ void k_intrin(unsigned *o, const unsigned *in, float *fo, double *dout, int n) {
  unsigned a = in[threadIdx.x], b = in[threadIdx.x + 1];
  o[0] = __byte_perm(a, b, 0x5410) + __funnelshift_l(a, b, 3) + __funnelshift_rc(a, b, 40) + __brev(a) + __ffs(a)
    + __popc(a) + __clz(a) + __sad(a, b, 1u) + __mul24(a, b) + __umulhi(a, b) + __dp4a(a, b, 1u) + __dp2a_lo(a, b, 2u)
    + __vadd4(a, b) + __vsub2(a, b) + __vabsdiffu4(a, b) + __vmaxs2(a, b) + __vcmpgeu4(a, b) + __vavgu2(a,b)
    + __fns(a, 3, 2) + __usad(a,b,3) + __hadd(a, b) + __rhadd(a,b) + __brevll(a) + __ffsll(b) + __popcll(a) + __clzll(b);
  fo[0] = __fdividef(fo[1], fo[2]) + __saturatef(fo[3]) + rintf(fo[4]) + __sinf(fo[5]) + __expf(fo[6]) + __logf(fo[7])
    + __frsqrt_rn(fo[8]) + __fsqrt_rd(fo[9]) + __fmaf_rz(fo[1], fo[2], fo[3]) + __int_as_float(a) + copysignf(fo[1], fo[2])
    + erff(fo[1]) + lgammaf(fo[2]) + tanhf(fo[3]) + __float2int_rn(fo[4]) + __float2uint_rz(fo[5]) + __float2ll_rd(fo[6])
    + fmaxf(fo[1], fo[2]) + nanf("") + frexpf(fo[1], (int*)o) + ldexpf(fo[2], 3) + (isnan(fo[3]) ? 1 : 0) + fabsf(fo[1]);
  dout[0] = __dsqrt_rn(dout[1]) + __drcp_rd(dout[2]) + __ddiv_rz(dout[3], dout[4]) + __fma_rn(dout[1], dout[2], dout[3])
    + __double2int_rz(dout[5]) + __longlong_as_double(a) + __hiloint2double(a, b) + __double2hiint(dout[1]) + rint(dout[2])
    + erfc(dout[3]) + pow(dout[1], dout[2]) + cbrt(dout[3]);
  __half h = __float2half(fo[1]), h2 = __float2half_rz(fo[2]);
  __half2 hh = __halves2half2(h, h2);
  hh = __hfma2(hh, hh, hh); hh = __hmax2(hh, hh); hh = h2sqrt(hh); hh = h2exp(hh); hh = __habs2(hh); hh = __hneg2(hh);
  h = __hdiv(h, h2); h = hsin(h); h = hrcp(h); h = __hmin_nan(h, h2);
  fo[1] = __half2float(h) + __low2float(hh) + __high2float(hh) + (__hisnan(h) ? 1 : 0) + (__hbgt2(hh, hh) ? 1 : 0);
  unsigned short us = __half_as_ushort(h); o[2] = us + __half2int_rn(h) + __half2uint_rd(h2) + __hge(h, h2);
  o[3] = __float2half_rn(fo[5]) == h ? 1 : 0;
#if __CUDA_ARCH__ >= 800
  __nv_bfloat16 bf = __float2bfloat16(fo[1]); __nv_bfloat162 b2 = __halves2bfloat162(bf, bf);
  b2 = __hfma2(b2, b2, b2); b2 = __hmax2(b2, b2); bf = __hdiv(bf, bf); bf = hsqrt(bf); bf = __hmul_rn(bf, bf);
  fo[2] = __bfloat162float(bf) + __low2float(b2) + __bfloat162float(__float2bfloat16_rz(fo[3]));
  o[4] = __reduce_add_sync(0xffffffff, a) + __reduce_min_sync(0xffffffff, (int)b) + __reduce_or_sync(0xffffffff, a);
  o[5] = __vimax3_s32(a, b, 3) + __viaddmax_s32(a, b, 7) + __vibmax_s32(a, b, (bool*)o);
  o[6] = __float_as_uint(__fmaf_ieee_rn(fo[1], fo[2], fo[3]));
  half2 x2 = __hmax2_nan(hh, hh); fo[4] = __low2float(x2);
#endif
  o[7] = __match_any_sync(0xffffffff, a) + __match_all_sync(0xffffffff, a, (int*)o) + __activemask() + __ballot_sync(0xffffffffu, a > 3)
    + __all_sync(0xffffffffu, a) + __shfl_xor_sync(0xffffffffu, a, 3, 16) + __shfl_up_sync(0xffffu, a, 1, 8);
  __syncwarp(0xffff);
  o[8] = __ldg(in + 5) + __ldcs(in + 6) + __ldlu(in + 7) + __ldcv(in + 8) + __ldca(in + 9);
  __stcs(o + 9, a); __stwt(o + 10, b); __stcg(o + 11, a); __stwb(o + 12, b);
  o[13] = __isGlobal(in) + __isShared(in) + __isLocal(in) + __isConstant(in) + (unsigned)__cvta_generic_to_shared(o);
  o[14] = (unsigned)clock64() + clock(); __nanosleep(100);
  __threadfence(); __threadfence_block(); __threadfence_system();
  o[15] = __syncthreads_count(a > 2) + __syncthreads_and(a) + __syncthreads_or(b);
  
  o[17] = __funnelshift_lc(a, b, 5) + __umul24(a, b) + __mulhi(a, b) + __mul64hi(a, b) + __umul64hi(a, b);
  __prof_trigger(3);
  if (a == 77) __trap();
  if (a == 78) __brkpt();
}
__global__ void k_cg(int *o) {
  auto blk = cg::this_thread_block();
  auto t4 = cg::tiled_partition<4>(blk);
  auto t8 = cg::tiled_partition<8>(blk);
  auto act = cg::coalesced_threads();
  int v = o[blk.thread_rank()];
  int r = cg::reduce(t4, v, cg::plus<int>()) + cg::exclusive_scan(t4, v) + cg::reduce(act, v, cg::greater<int>());
  r += t8.shfl(v, 2) + t4.any(v > 3) + t4.ballot(v) + t8.match_any(v) + act.num_threads() + t4.meta_group_rank();
  blk.sync(); t4.sync(); act.sync();
  auto g = cg::this_grid(); r += g.thread_rank();
  o[blk.thread_rank()] = r;
}
__global__ void k_grid(int *o) { auto g = cg::this_grid(); o[g.thread_rank()] = 1; g.sync(); o[0] += o[1]; }
#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
__global__ void __cluster_dims__(2, 1, 1) k_cluster(int *o) {
  __shared__ int s[32];
  auto cl = cg::this_cluster();
  s[threadIdx.x] = threadIdx.x;
  cl.sync();
  int *peer = cl.map_shared_rank(s, (cl.block_rank() + 1) % 2);
  o[blockIdx.x * 32 + threadIdx.x] = peer[threadIdx.x] + cl.block_rank() + cl.num_blocks() + cl.dim_blocks().x;
  cl.sync();
}
#endif
__global__ void k_alloca(int *o, int n) {
  int *p = (int *)alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) p[i] = o[i];
  int *q = (int *)malloc(n * sizeof(int)); q[0] = p[n - 1]; o[0] = q[0]; free(q);
}
__global__ void k_printf(int n) { printf("%d\n", n); assert(n != 3); }
__global__ void k_tex(cudaTextureObject_t t, cudaSurfaceObject_t s, float *o) {
  float v = tex2D<float>(t, 0.5f, 0.5f) + tex1Dfetch<float>(t, 3) + tex2DLod<float>(t, 0.5f, 0.5f, 1.f)
    + tex2Dgather<float4>(t, 0.5f, 0.5f, 0).x + tex2DLayered<float>(t, .5f, .5f, 1) + texCubemap<float>(t, 1.f, 0.f, 0.f);
  surf2Dwrite(v, s, 4, 1); float w; surf2Dread(&w, s, 0, 0); o[0] = v + w;
}
#if __CUDA_ARCH__ >= 900
__global__ void k_pdl(int *o) { cudaGridDependencySynchronize(); o[0] = 1; cudaTriggerProgrammaticLaunchCompletion(); }
#endif
