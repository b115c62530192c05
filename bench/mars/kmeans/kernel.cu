// kmeans (Mars): one k-means iteration as a MapReduce job. An input record
// is one point (key: point number; value: DIM int coordinates). Map finds
// the nearest current center (squared distance, lowest index on ties) and
// emits (cluster, point); the runtime sorts by cluster and groups; reduce
// averages each cluster's points (integer division) and emits
// (cluster, new center). The host repeats the job until no center moves.
#define MARS_SORT
#define MARS_REDUCE
#define KM_DIM 4

#include "../mars_lib.cuh"

struct KmParams {
    const int *centers;  // k x KM_DIM
    const int *points;   // n x KM_DIM
    int k;
    int pad;
};

__device__ void marsMapCount(const char *key, const char *val, int keySize, int valSize,
                             const void *user, MarsCount &out)
{
    marsEmitCount(out, sizeof(int), sizeof(int));
}

__device__ void marsMap(const char *key, const char *val, int keySize, int valSize,
                        const void *user, MarsEmit &out)
{
    const KmParams *p = (const KmParams *)user;
    const int *pt = (const int *)val;
    int best = 0, bestDist = 0x7fffffff;
    for (int c = 0; c < p->k; c++) {
        int dist = 0;
        for (int d = 0; d < KM_DIM; d++) {
            int diff = pt[d] - p->centers[c * KM_DIM + d];
            dist += diff * diff;
        }
        if (dist < bestDist) {
            bestDist = dist;
            best = c;
        }
    }
    marsEmit(out, &best, sizeof(int), key, sizeof(int));
}

__device__ int marsCompare(const char *k1, int s1, const char *k2, int s2)
{
    const int a = *(const int *)k1, b = *(const int *)k2;
    return (a > b) - (a < b);
}

__device__ void marsReduceCount(const char *keys, const char *vals, const int4 *index, int begin,
                                int end, const void *user, MarsCount &out)
{
    marsEmitCount(out, sizeof(int), KM_DIM * sizeof(int));
}

__device__ void marsReduce(const char *keys, const char *vals, const int4 *index, int begin,
                           int end, const void *user, MarsEmit &out)
{
    const KmParams *p = (const KmParams *)user;
    int sum[KM_DIM];
    for (int d = 0; d < KM_DIM; d++)
        sum[d] = 0;
    for (int r = begin; r < end; r++) {
        const int pt = *(const int *)(vals + index[r].z);
        for (int d = 0; d < KM_DIM; d++)
            sum[d] += p->points[pt * KM_DIM + d];
    }
    const int n = end - begin;
    for (int d = 0; d < KM_DIM; d++)
        sum[d] /= n;
    marsEmit(out, keys + index[begin].x, sizeof(int), sum, KM_DIM * sizeof(int));
}
