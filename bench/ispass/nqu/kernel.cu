// nqu: N-queens solution counting (the ISPASS-2009 "NQU" application). The
// host places queens on the first rows and hands every thread one such
// partial board as three bit masks (occupied columns, left and right
// diagonals). Each thread finishes its board by iterative backtracking; its
// stack (masks and remaining candidates per row) lives in shared memory,
// laid out [row][thread] so that a warp's accesses fall in distinct banks.
// The 96 per-thread counts of a block are summed in shared memory and
// written to results[blockIdx.x].

#define THREADS 96
#define MAX_DEPTH 12

__global__ void solveNQueens(int n, int depth, const unsigned *colMasks, const unsigned *leftMasks,
                             const unsigned *rightMasks, unsigned *results, int total)
{
    __shared__ unsigned sCol[MAX_DEPTH][THREADS];
    __shared__ unsigned sLeft[MAX_DEPTH][THREADS];
    __shared__ unsigned sRight[MAX_DEPTH][THREADS];
    __shared__ unsigned sCand[MAX_DEPTH][THREADS];
    __shared__ unsigned sSum[THREADS];

    int t = threadIdx.x;
    int idx = blockIdx.x * THREADS + t;
    const unsigned all = (1u << n) - 1u;
    unsigned count = 0;

    if (idx < total) {
        unsigned c = colMasks[idx], l = leftMasks[idx], r = rightMasks[idx];
        sCol[0][t] = c;
        sLeft[0][t] = l;
        sRight[0][t] = r;
        sCand[0][t] = all & ~(c | l | r);
        int i = 0;
        while (i >= 0) {
            unsigned cand = sCand[i][t];
            if (cand == 0) {
                i--;
                continue;
            }
            unsigned bit = cand & (0u - cand);
            sCand[i][t] = cand ^ bit;
            if (i == depth - 1) {
                count++;
                continue;
            }
            unsigned nc = sCol[i][t] | bit;
            unsigned nl = ((sLeft[i][t] | bit) << 1) & all;
            unsigned nr = (sRight[i][t] | bit) >> 1;
            i++;
            sCol[i][t] = nc;
            sLeft[i][t] = nl;
            sRight[i][t] = nr;
            sCand[i][t] = all & ~(nc | nl | nr);
        }
    }

    sSum[t] = count;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s && t + s < THREADS)
            sSum[t] += sSum[t + s];
        __syncthreads();
    }
    if (t == 0)
        results[blockIdx.x] = sSum[0];
}
