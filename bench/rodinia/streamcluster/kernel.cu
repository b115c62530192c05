// streamcluster: the GPU part of the online k-median "pgain" step. For a
// candidate facility x, every point (one thread each, 1-D blocks of 512 on a
// grid folded into 2-D) computes its weighted distance to x from
// feature-major coordinates, and records in its own row of the work matrix
// either the saving of switching to x (column K) or, if it stays, how much
// it would cost its current facility's closing (that facility's column).
// The host reduces the rows and decides whether to open x.

struct Point {
    float weight;
    float *coord;  // host pointer, not used on the device
    long assign;   // index of the point's facility
    float cost;
};

__device__ __forceinline__ float sqDist(int a, int b, int num, int dim, const float *coord)
{
    float s = 0.0f;
    for (int i = 0; i < dim; i++) {
        float t = coord[i * num + a] - coord[i * num + b];
        s += t * t;
    }
    return s;
}

__global__ void pgainCost(int num, int dim, long x, const Point *p, int K, int stride,
                          const float *coord, float *work, const int *centerTable,
                          bool *switchMembership)
{
    int block = blockIdx.x + gridDim.x * blockIdx.y;
    int tid = blockDim.x * block + threadIdx.x;
    if (tid < num) {
        float *row = &work[tid * stride];
        float xCost = sqDist(tid, x, num, dim, coord) * p[tid].weight;
        if (xCost < p[tid].cost) {
            switchMembership[tid] = true;
            row[K] += xCost - p[tid].cost;
        } else {
            row[centerTable[p[tid].assign]] += p[tid].cost - xCost;
        }
    }
}
