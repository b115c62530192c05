// Thread-block clusters (sm_90): special registers, cluster barriers,
// distributed shared memory through cooperative groups and inline PTX.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL " __VA_ARGS__); printf("\n"); fails++; } } while (0)

// Each CTA writes its rank into shared memory; after a cluster sync every
// thread reads its neighbour CTA's value and the sum over all ranks.
__global__ void __cluster_dims__(4, 1, 1) ring(int *out, int *ids) {
    __shared__ int v[128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    v[threadIdx.x] = (int)(r * 1000 + threadIdx.x);
    cl.sync();
    unsigned nb = (r + 1) % cl.num_blocks();
    int *remote = cl.map_shared_rank(v, nb);
    int x = remote[threadIdx.x];
    int s = 0;
    for (unsigned k = 0; k < cl.num_blocks(); k++) s += cl.map_shared_rank(v, k)[threadIdx.x];
    cl.sync(); // nobody exits while another CTA may still read its shared memory
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * gid] = x;
    out[2 * gid + 1] = s;
    if (threadIdx.x == 0) {
        dim3 ci = cl.block_index();
        dim3 cd = cl.dim_blocks();
        ids[blockIdx.x * 8 + 0] = (int)r;
        ids[blockIdx.x * 8 + 1] = (int)ci.x;
        ids[blockIdx.x * 8 + 2] = (int)cd.x;
        ids[blockIdx.x * 8 + 3] = (int)cl.num_blocks();
        unsigned cid, ncid, expl;
        asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
        asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid));
        asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
        ids[blockIdx.x * 8 + 4] = (int)cid;
        ids[blockIdx.x * 8 + 5] = (int)ncid;
        ids[blockIdx.x * 8 + 6] = (int)expl;
        ids[blockIdx.x * 8 + 7] = (int)cl.block_index().y;
    }
}

// A histogram spread over the cluster: bin b lives in CTA b % n's shared
// memory; every thread adds to remote bins with atomics.
__global__ void hist(const int *in, int n, int *bins, int nbins) {
    extern __shared__ int part[];
    cg::cluster_group cl = cg::this_cluster();
    unsigned nb = cl.num_blocks(), r = cl.block_rank();
    int per = (nbins + nb - 1) / nb;
    for (int i = threadIdx.x; i < per; i += blockDim.x) part[i] = 0;
    cl.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = in[i] % nbins;
        int *dst = cl.map_shared_rank(part, b / per);
        atomicAdd(dst + b % per, 1);
    }
    cl.sync();
    for (int i = threadIdx.x; i < per; i += blockDim.x) {
        int b = (int)r * per + i;
        if (b < nbins) atomicAdd(&bins[b], part[i]);
    }
}

// Split arrive/wait, 2-D clusters, shared::cluster loads/stores and red in inline PTX.
__global__ void __cluster_dims__(2, 2, 1) grid2d(int *out) {
    __shared__ int cell;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) cell = 0;
    cl.sync();
    unsigned r = cl.block_rank();
    unsigned target = (r + 1) % 4;
    unsigned local = (unsigned)__cvta_generic_to_shared(&cell), remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(target));
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(remote), "r"(threadIdx.x + 1) : "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    int mine = cell, theirs;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(theirs) : "r"(remote) : "memory");
    unsigned crank, cnrank, cctx, ccty;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(cnrank));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cctx));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(ccty));
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 0) {
        int b = blockIdx.y * gridDim.x + blockIdx.x;
        out[b * 6 + 0] = mine;
        out[b * 6 + 1] = theirs;
        out[b * 6 + 2] = (int)crank;
        out[b * 6 + 3] = (int)cnrank;
        out[b * 6 + 4] = (int)cctx;
        out[b * 6 + 5] = (int)ccty;
    }
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
}

// Without a cluster launch each CTA is an implicit cluster of one.
__global__ void implicit(int *out) {
    __shared__ int v;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) v = (int)blockIdx.x + 1;
    cl.sync();
    int *me = cl.map_shared_rank(&v, 0);
    unsigned expl;
    asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
    if (threadIdx.x == 5) {
        out[blockIdx.x * 4 + 0] = *me;
        out[blockIdx.x * 4 + 1] = (int)cl.num_blocks();
        out[blockIdx.x * 4 + 2] = (int)cl.block_rank();
        out[blockIdx.x * 4 + 3] = (int)expl;
    }
}

int main(int argc, char **argv) {
    int nclusters = argc > 1 ? atoi(argv[1]) : 3;
    // ring: 4 CTAs per cluster, 64 threads
    int nb = 4 * nclusters, nt = 64;
    int *d_out, *d_ids;
    cudaMalloc(&d_out, sizeof(int) * 2 * nb * nt);
    cudaMalloc(&d_ids, sizeof(int) * 8 * nb);
    ring<<<nb, nt>>>(d_out, d_ids);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "ring launch: %s", cudaGetErrorString(e));
    std::vector<int> out(2 * nb * nt), ids(8 * nb);
    cudaMemcpy(out.data(), d_out, sizeof(int) * out.size(), cudaMemcpyDeviceToHost);
    cudaMemcpy(ids.data(), d_ids, sizeof(int) * ids.size(), cudaMemcpyDeviceToHost);
    int checks = 0;
    for (int b = 0; b < nb && !fails; b++) {
        int r = b % 4;
        for (int t = 0; t < nt; t++) {
            int x = ((r + 1) % 4) * 1000 + t, s = (0 + 1 + 2 + 3) * 1000 + 4 * t;
            CHECK(out[2 * (b * nt + t)] == x && out[2 * (b * nt + t) + 1] == s, "ring b%d t%d: %d %d", b, t,
                  out[2 * (b * nt + t)], out[2 * (b * nt + t) + 1]);
        }
        int want[8] = {r, r, 4, 4, b / 4, nclusters, 1, 0};
        for (int k = 0; k < 8; k++) CHECK(ids[b * 8 + k] == want[k], "ring ids b%d [%d] = %d, want %d", b, k, ids[b * 8 + k], want[k]);
    }
    checks++;

    // hist with cudaLaunchKernelEx and a cluster attribute of 2 CTAs
    {
        int n = 5000, nbins = 37, csize = 2, blocks = 6, threads = 128;
        std::vector<int> in(n), ref(nbins, 0);
        for (int i = 0; i < n; i++) { in[i] = (i * 7919 + 13) % 1001; ref[in[i] % nbins]++; }
        int *d_in, *d_bins;
        cudaMalloc(&d_in, sizeof(int) * n);
        cudaMalloc(&d_bins, sizeof(int) * nbins);
        cudaMemcpy(d_in, in.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
        cudaMemset(d_bins, 0, sizeof(int) * nbins);
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(threads);
        int per = (nbins + csize - 1) / csize;
        cfg.dynamicSmemBytes = per * sizeof(int);
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = csize;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        int maxc = -1;
        e = cudaOccupancyMaxActiveClusters(&maxc, hist, &cfg);
        CHECK(e == cudaSuccess && maxc >= 1, "cudaOccupancyMaxActiveClusters: %s, %d", cudaGetErrorString(e), maxc);
        e = cudaLaunchKernelEx(&cfg, hist, (const int *)d_in, n, d_bins, nbins);
        CHECK(e == cudaSuccess, "cudaLaunchKernelEx: %s", cudaGetErrorString(e));
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "hist: %s", cudaGetErrorString(e));
        std::vector<int> bins(nbins);
        cudaMemcpy(bins.data(), d_bins, sizeof(int) * nbins, cudaMemcpyDeviceToHost);
        for (int b = 0; b < nbins; b++) CHECK(bins[b] == ref[b], "hist bin %d: %d, want %d", b, bins[b], ref[b]);
        checks++;
        // a grid that is not a multiple of the cluster is refused, and so is a cluster of 16
        cfg.gridDim = dim3(5);
        e = cudaLaunchKernelEx(&cfg, hist, (const int *)d_in, n, d_bins, nbins);
        CHECK(e != cudaSuccess, "grid 5 with clusters of 2 accepted");
        cudaGetLastError();
        cfg.gridDim = dim3(16);
        attr[0].val.clusterDim.x = 16;
        e = cudaLaunchKernelEx(&cfg, hist, (const int *)d_in, n, d_bins, nbins);
        CHECK(e != cudaSuccess, "a cluster of 16 accepted");
        cudaGetLastError();
        checks++;
    }

    // 2x2 clusters on a 4x2 grid
    {
        int *d2;
        cudaMalloc(&d2, sizeof(int) * 6 * 8);
        grid2d<<<dim3(4, 2), 32>>>(d2);
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "grid2d: %s", cudaGetErrorString(e));
        std::vector<int> o(48);
        cudaMemcpy(o.data(), d2, sizeof(int) * 48, cudaMemcpyDeviceToHost);
        for (int by = 0; by < 2; by++)
            for (int bx = 0; bx < 4; bx++) {
                int b = by * 4 + bx, cx = bx % 2, cy = by % 2, rank = cx + 2 * cy;
                int want[6] = {32 * 33 / 2, 32 * 33 / 2, rank, 4, cx, cy};
                for (int k = 0; k < 6; k++) CHECK(o[b * 6 + k] == want[k], "grid2d (%d,%d)[%d] = %d, want %d", bx, by, k, o[b * 6 + k], want[k]);
            }
        checks++;
    }
    // implicit clusters of one CTA
    {
        int *d3;
        cudaMalloc(&d3, sizeof(int) * 4 * 3);
        implicit<<<3, 64>>>(d3);
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "implicit: %s", cudaGetErrorString(e));
        std::vector<int> o(12);
        cudaMemcpy(o.data(), d3, sizeof(int) * 12, cudaMemcpyDeviceToHost);
        for (int b = 0; b < 3; b++) {
            int want[4] = {b + 1, 1, 0, 0};
            for (int k = 0; k < 4; k++) CHECK(o[b * 4 + k] == want[k], "implicit b%d [%d] = %d, want %d", b, k, o[b * 4 + k], want[k]);
        }
        checks++;
    }
    if (fails) return 1;
    printf("PASS cluster_basic: %d checks\n", checks);
    return 0;
}
