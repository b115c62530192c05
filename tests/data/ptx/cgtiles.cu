// Cooperative-groups tiles, coalesced and labeled partitions: warp-level
// operations whose membermask names only the lane's own group (a per-lane
// register). Used by tests/unit/test_exec_warp.c (which carries a CPU model
// of every output). Regenerate (whenever nvcc is present):
//   nvcc -O2 -arch=sm_80 -ptx cgtiles.cu -o cgtiles.ptx
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define NOUT 8

// Per thread: any, all, ballot, match_any, sum, max, shfl_down(1), shfl(last).
template <unsigned W> __device__ void tile_ops(const unsigned *in, unsigned *out) {
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<W> t = cg::tiled_partition<W>(blk);
  unsigned tid = blk.thread_rank(), v = in[tid];
  unsigned *o = out + tid * NOUT;
  o[0] = t.any(v & 1);
  o[1] = t.all(v & 1);
  o[2] = t.ballot(v & 1);
  o[3] = t.match_any(v % 3);
  o[4] = cg::reduce(t, v, cg::plus<unsigned>());
  o[5] = cg::reduce(t, (int)v, cg::greater<int>());
  o[6] = t.shfl_down(v, 1);
  o[7] = t.shfl(v, W - 1);
}
extern "C" __global__ void tiles2(const unsigned *in, unsigned *out) { tile_ops<2>(in, out); }
extern "C" __global__ void tiles4(const unsigned *in, unsigned *out) { tile_ops<4>(in, out); }
extern "C" __global__ void tiles8(const unsigned *in, unsigned *out) { tile_ops<8>(in, out); }
extern "C" __global__ void tiles16(const unsigned *in, unsigned *out) { tile_ops<16>(in, out); }

// Threads with bit 1 of their input set form a coalesced group, split by
// bits 2..3 of the input (labeled_partition): sum, ballot, size, rank.
extern "C" __global__ void labeled(const unsigned *in, unsigned *out) {
  unsigned tid = threadIdx.x, v = in[tid];
  unsigned *o = out + tid * NOUT;
  if (v & 2) {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = g.size();
    o[1] = g.thread_rank();
    o[2] = cg::reduce(g, v, cg::plus<unsigned>());
    cg::coalesced_group p = cg::labeled_partition(g, (int)((v >> 2) & 3));
    o[3] = p.size();
    o[4] = p.thread_rank();
    o[5] = cg::reduce(p, v, cg::plus<unsigned>());
    o[6] = p.ballot(v & 1);
    o[7] = p.any(v & 1) | p.all(v & 1) << 1;
  }
}
