// lavamd: pairwise particle forces in a 3-D grid of boxes (Rodinia lavaMD,
// double precision). One thread block per home box, 128 threads, 100
// particles per box. The block stages its own particles in shared memory,
// then for the home box and each of its (up to 26) neighbour boxes stages
// that box's positions and charges and lets each thread accumulate, for its
// particle(s), the potential and force from all 100 of them straight into
// the global force array.

#define PAR_PER_BOX 100
#define THREADS 128

struct Vec4 {  // v = |r|^2 (or potential), x, y, z
    double v, x, y, z;
};

struct NeighbourRef {
    int x, y, z;
    int number;
    long long offset;
};

struct Box {
    int x, y, z;
    int number;
    long long offset;
    int nn;
    NeighbourRef nei[26];
};

__global__ void lavaKernel(double alpha, long long numBoxes, const Box *boxes, const Vec4 *rv,
                           const double *qv, Vec4 *fv)
{
    __shared__ Vec4 rHome[PAR_PER_BOX];
    __shared__ Vec4 rNb[PAR_PER_BOX];
    __shared__ double qNb[PAR_PER_BOX];

    int bx = blockIdx.x;
    int tx = threadIdx.x;
    if (bx >= numBoxes)
        return;

    double a2 = 2.0 * alpha * alpha;
    long long home = boxes[bx].offset;
    const Vec4 *rA = &rv[home];
    Vec4 *fA = &fv[home];

    for (int p = tx; p < PAR_PER_BOX; p += THREADS)
        rHome[p] = rA[p];
    __syncthreads();

    for (int k = 0; k < 1 + boxes[bx].nn; k++) {
        int other = k == 0 ? bx : boxes[bx].nei[k - 1].number;
        long long first = boxes[other].offset;
        const Vec4 *rB = &rv[first];
        const double *qB = &qv[first];
        for (int p = tx; p < PAR_PER_BOX; p += THREADS) {
            rNb[p] = rB[p];
            qNb[p] = qB[p];
        }
        __syncthreads();

        for (int p = tx; p < PAR_PER_BOX; p += THREADS) {
            for (int j = 0; j < PAR_PER_BOX; j++) {
                double r2 = rHome[p].v + rNb[j].v -
                            (rHome[p].x * rNb[j].x + rHome[p].y * rNb[j].y + rHome[p].z * rNb[j].z);
                double u2 = a2 * r2;
                double vij = exp(-u2);
                double fs = 2.0 * vij;
                double dx = rHome[p].x - rNb[j].x;
                double dy = rHome[p].y - rNb[j].y;
                double dz = rHome[p].z - rNb[j].z;
                fA[p].v += qNb[j] * vij;
                fA[p].x += qNb[j] * fs * dx;
                fA[p].y += qNb[j] * fs * dy;
                fA[p].z += qNb[j] * fs * dz;
            }
        }
        __syncthreads();
    }
}
