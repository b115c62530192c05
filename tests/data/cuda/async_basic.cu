// Asynchronous copies and barriers as CUDA C++ programs write them:
// cuda::memcpy_async with cuda::pipeline (one and two stages, cp.async with
// commit/wait groups on sm_80+), with cuda::barrier (cp.async.mbarrier.arrive,
// and on sm_90 the bulk copy with expect_tx), cooperative_groups::memcpy_async,
// a barrier's arrive / wait / arrive_and_drop across warps, and a partial copy
// whose tail the program fills. Each result is checked against the host.
// Prints "PASS async_basic: N checks" or "FAIL <what>".
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

#define CK(call)                                                                   \
    do {                                                                           \
        cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                   \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

#define N 256

// Two-stage pipeline: stage s copies block s of 256 ints (8 bytes per thread
// as two 4-byte copies), the consumer waits for the older stage first.
__global__ void k_pipeline(const int *in, int *out, int nblocks)
{
    __shared__ int s[2][N];
    auto pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    for (int st = 0; st < 2; st++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&s[st][t], &in[st * N + t], sizeof(int), pipe);
        pipe.producer_commit();
    }
    for (int b = 0; b < nblocks; b++) {
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        __syncthreads();
        out[b * N + t] = s[b & 1][(t + 1) % N] * 3;
        __syncthreads();
        pipe.consumer_release();
        if (b + 2 < nblocks) {
            pipe.producer_acquire();
            cuda::memcpy_async(&s[b & 1][t], &in[(b + 2) * N + t], sizeof(int), pipe);
        } else {
            pipe.producer_acquire();
        }
        pipe.producer_commit();
    }
}

// A block-scope barrier tracks the copies (16-byte aligned chunks).
__global__ void k_barrier(const int4 *in, int *out)
{
    __shared__ alignas(16) int4 s[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<16>(sizeof(int4)), bar);
    bar.arrive_and_wait();
    int4 v = s[(threadIdx.x + 32) % N];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

// One thread copies the whole array for the block (the bulk copy on sm_90).
__global__ void k_bulk(const int4 *in, int *out)
{
    __shared__ alignas(128) int4 s[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0) cuda::memcpy_async(s, in, cuda::aligned_size_t<16>(sizeof(int4) * N), bar);
    bar.arrive_and_wait();
    int4 v = s[N - 1 - threadIdx.x];
    out[threadIdx.x] = v.x - v.w;
}

// cooperative_groups::memcpy_async of the block, then cg::wait.
__global__ void k_cg(const float *in, float *out)
{
    __shared__ alignas(16) float s[4 * N];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, s, in + 4 * N * blockIdx.x, sizeof(float) * 4 * N);
    cg::wait(block);
    float a = 0;
    for (int i = 0; i < 4; i++) a += s[(threadIdx.x * 4 + i * 5) % (4 * N)];
    out[blockIdx.x * N + threadIdx.x] = a;
}

// Phases of one barrier across warps: arrive, wait, then each warp but the
// first drops out; the remaining warp passes a second phase alone.
__global__ void k_phases(int *data, int *out)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int sh[N];
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    sh[t] = data[t] + 1;
    auto tok = bar.arrive();
    bar.wait(std::move(tok)); // everyone has written sh
    int v = sh[N - 1 - t];
    if (t >= 32) {
        bar.arrive_and_drop();
        out[t] = v;
        return;
    }
    // only warp 0 is left: 32 expected from now on
    sh[t] = v * 2;
    bar.arrive_and_wait();
    out[t] = sh[31 - t];
}

static int g_checks = 0;
static void expect(const char *what, const int *got, const int *want, int n)
{
    g_checks++;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("FAIL %s: element %d is %d, expected %d\n", what, i, got[i], want[i]);
            exit(1);
        }
}

int main()
{
    const int nb = 6;
    int *hin = (int *)malloc(sizeof(int) * 4 * N * 4), *hout = (int *)malloc(sizeof(int) * 4 * N * 4),
        *want = (int *)malloc(sizeof(int) * 4 * N * 4);
    for (int i = 0; i < 4 * N * 4; i++) hin[i] = (i * 7919) % 1000 - 500;
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof(int) * 4 * N * 4));
    CK(cudaMalloc(&dout, sizeof(int) * 4 * N * 4));
    CK(cudaMemcpy(din, hin, sizeof(int) * 4 * N * 4, cudaMemcpyHostToDevice));

    k_pipeline<<<1, N>>>(din, dout, nb);
    CK(cudaMemcpy(hout, dout, sizeof(int) * nb * N, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++)
        for (int t = 0; t < N; t++) want[b * N + t] = hin[b * N + (t + 1) % N] * 3;
    expect("pipeline (2 stages)", hout, want, nb * N);

    k_barrier<<<1, N>>>((const int4 *)din, dout);
    CK(cudaMemcpy(hout, dout, sizeof(int) * N, cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++) {
        const int *v = &hin[4 * ((t + 32) % N)];
        want[t] = v[0] + v[1] + v[2] + v[3];
    }
    expect("barrier-tracked copies", hout, want, N);

    k_bulk<<<1, N>>>((const int4 *)din, dout);
    CK(cudaMemcpy(hout, dout, sizeof(int) * N, cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++) want[t] = hin[4 * (N - 1 - t)] - hin[4 * (N - 1 - t) + 3];
    expect("one thread's bulk copy", hout, want, N);

    float *fin = (float *)hin;
    for (int i = 0; i < 4 * N * 2; i++) fin[i] = (float)((i * 31) % 97);
    CK(cudaMemcpy(din, fin, sizeof(float) * 4 * N * 2, cudaMemcpyHostToDevice));
    k_cg<<<2, N>>>((const float *)din, (float *)dout);
    float *fout = (float *)hout, *fw = (float *)want;
    CK(cudaMemcpy(fout, dout, sizeof(float) * 2 * N, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < N; t++) {
            float a = 0;
            for (int i = 0; i < 4; i++) a += fin[4 * N * b + (t * 4 + i * 5) % (4 * N)];
            fw[b * N + t] = a;
        }
    expect("cooperative_groups::memcpy_async", hout, want, 2 * N);

    for (int i = 0; i < N; i++) hin[i] = i * 3 - 100;
    CK(cudaMemcpy(din, hin, sizeof(int) * N, cudaMemcpyHostToDevice));
    k_phases<<<1, N>>>(din, dout);
    CK(cudaMemcpy(hout, dout, sizeof(int) * N, cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++) want[t] = t >= 32 ? hin[N - 1 - t] + 1 : 2 * (hin[N - 1 - (31 - t)] + 1);
    expect("barrier phases, arrive_and_drop", hout, want, N);

    CK(cudaGetLastError());
    printf("PASS async_basic: %d checks\n", g_checks);
    return 0;
}
