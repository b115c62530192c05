// heartwall: tracks sample points of the heart wall through a sequence of
// frames. One launch per frame, one 512-thread block per sample point. On
// frame 0 every block cuts its point's template (TDIM x TDIM pixels) out of
// the frame. On later frames a block stages the template and the search
// area around the point's previous position (the template grown by the
// largest allowed move on each side) in shared memory, builds summed-area
// tables of the search area and of its square (one thread per row, then one
// per column), scores every candidate move by normalised cross-correlation
// with the template (one thread per move), takes the best move by a tree
// reduction, moves the point and blends the template towards the patch
// found there.

#define THREADS 512
#define TRAD 12                         // template radius
#define TDIM (2 * TRAD + 1)             // template side (25)
#define TSIZE (TDIM * TDIM)
#define MOVE 10                         // largest move per frame and axis
#define MDIM (2 * MOVE + 1)             // candidate moves per axis (21)
#define MOVES (MDIM * MDIM)             // 441
#define SRAD (TRAD + MOVE)              // search-area radius
#define SDIM (2 * SRAD + 1)             // search-area side (45)
#define SSIZE (SDIM * SDIM)
#define ADIM (SDIM + 1)                 // summed-area table side (leading zero row/column)

__device__ __forceinline__ int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

__global__ void trackPoints(int frameNo, const float *frame, int rows, int cols, float *templates,
                            int *pointRow, int *pointCol, int *trackRow, int *trackCol,
                            float *trackScore, int points, float alpha)
{
    __shared__ float tmpl[TSIZE];
    __shared__ float area[SSIZE];
    __shared__ float sat[ADIM * ADIM];
    __shared__ float sat2[ADIM * ADIM];
    __shared__ float score[MOVES];
    __shared__ float redVal[THREADS];
    __shared__ int redIdx[THREADS];
    __shared__ float tMean, tNorm;
    __shared__ int bestMove;

    const int tid = threadIdx.x;
    const int p = blockIdx.x;
    const int pr = pointRow[p], pc = pointCol[p];
    float *myTmpl = templates + p * TSIZE;

    if (frameNo == 0) {
        for (int i = tid; i < TSIZE; i += THREADS) {
            int r = clampi(pr - TRAD + i / TDIM, 0, rows - 1);
            int c = clampi(pc - TRAD + i % TDIM, 0, cols - 1);
            myTmpl[i] = frame[r * cols + c];
        }
        if (tid == 0) {
            trackRow[p] = pr;
            trackCol[p] = pc;
            trackScore[p] = 1.0f;
        }
        return;
    }

    // stage the template and the search area (edge pixels repeat)
    for (int i = tid; i < TSIZE; i += THREADS)
        tmpl[i] = myTmpl[i];
    for (int i = tid; i < SSIZE; i += THREADS) {
        int r = clampi(pr - SRAD + i / SDIM, 0, rows - 1);
        int c = clampi(pc - SRAD + i % SDIM, 0, cols - 1);
        area[i] = frame[r * cols + c];
    }
    for (int i = tid; i < ADIM; i += THREADS) {
        sat[i] = 0.0f;
        sat2[i] = 0.0f;
        sat[i * ADIM] = 0.0f;
        sat2[i * ADIM] = 0.0f;
    }
    __syncthreads();

    // template mean
    float s = 0.0f;
    for (int i = tid; i < TSIZE; i += THREADS)
        s += tmpl[i];
    redVal[tid] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
        if (tid < w)
            redVal[tid] += redVal[tid + w];
        __syncthreads();
    }
    if (tid == 0)
        tMean = redVal[0] / TSIZE;
    __syncthreads();

    // template energy about the mean
    s = 0.0f;
    for (int i = tid; i < TSIZE; i += THREADS) {
        float d = tmpl[i] - tMean;
        s += d * d;
    }
    redVal[tid] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
        if (tid < w)
            redVal[tid] += redVal[tid + w];
        __syncthreads();
    }
    if (tid == 0)
        tNorm = redVal[0];

    // summed-area tables: running sums along rows, then down columns
    if (tid < SDIM) {
        float run = 0.0f;
        for (int j = 0; j < SDIM; j++) {
            run += area[tid * SDIM + j];
            sat[(tid + 1) * ADIM + j + 1] = run;
        }
    } else if (tid >= THREADS / 2 && tid < THREADS / 2 + SDIM) {
        int r = tid - THREADS / 2;
        float run = 0.0f;
        for (int j = 0; j < SDIM; j++) {
            float v = area[r * SDIM + j];
            run += v * v;
            sat2[(r + 1) * ADIM + j + 1] = run;
        }
    }
    __syncthreads();
    if (tid < SDIM) {
        for (int i = 2; i <= SDIM; i++)
            sat[i * ADIM + tid + 1] += sat[(i - 1) * ADIM + tid + 1];
    } else if (tid >= THREADS / 2 && tid < THREADS / 2 + SDIM) {
        int c = tid - THREADS / 2;
        for (int i = 2; i <= SDIM; i++)
            sat2[i * ADIM + c + 1] += sat2[(i - 1) * ADIM + c + 1];
    }
    __syncthreads();

    // one candidate move per thread
    if (tid < MOVES) {
        const int i0 = tid / MDIM, j0 = tid % MDIM;   // window corner in the area
        float cross = 0.0f;
        for (int i = 0; i < TDIM; i++) {
            const float *a = area + (i0 + i) * SDIM + j0;
            const float *t = tmpl + i * TDIM;
            for (int j = 0; j < TDIM; j++)
                cross += a[j] * t[j];
        }
        const int i1 = i0 + TDIM, j1 = j0 + TDIM;
        float sum = sat[i1 * ADIM + j1] - sat[i0 * ADIM + j1] - sat[i1 * ADIM + j0] + sat[i0 * ADIM + j0];
        float sum2 = sat2[i1 * ADIM + j1] - sat2[i0 * ADIM + j1] - sat2[i1 * ADIM + j0] + sat2[i0 * ADIM + j0];
        float var = sum2 - sum * sum / TSIZE;
        float den = sqrtf(fmaxf(var, 0.0f) * tNorm);
        score[tid] = den > 1e-6f ? (cross - tMean * sum) / den : 0.0f;
    }
    __syncthreads();

    // best move; ties go to the lower index
    redVal[tid] = tid < MOVES ? score[tid] : -2.0f;
    redIdx[tid] = tid;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
        if (tid < w) {
            float o = redVal[tid + w];
            if (o > redVal[tid]) {
                redVal[tid] = o;
                redIdx[tid] = redIdx[tid + w];
            }
        }
        __syncthreads();
    }
    if (tid == 0) {
        int m = redIdx[0];
        int nr = clampi(pr + m / MDIM - MOVE, 0, rows - 1);
        int nc = clampi(pc + m % MDIM - MOVE, 0, cols - 1);
        pointRow[p] = nr;
        pointCol[p] = nc;
        trackRow[frameNo * points + p] = nr;
        trackCol[frameNo * points + p] = nc;
        trackScore[frameNo * points + p] = redVal[0];
        bestMove = m;
    }
    __syncthreads();

    // blend the template towards the patch at the new position
    const int bi = bestMove / MDIM, bj = bestMove % MDIM;
    for (int i = tid; i < TSIZE; i += THREADS) {
        float patch = area[(bi + i / TDIM) * SDIM + bj + i % TDIM];
        myTmpl[i] = alpha * tmpl[i] + (1.0f - alpha) * patch;
    }
}
