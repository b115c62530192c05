// similarityscore (Mars): cosine similarity of every pair of documents,
// each a vector of dim float features (row-major matrix passed as user
// data). An input record is one pair (a, b); map computes
// dot(a, b) / (|a| |b|) and emits (score, pair); the runtime then sorts the
// records by score, highest first. No reduce stage.
#define MARS_SORT

#include "../mars_lib.cuh"

struct SimParams {
    const float *features;
    int dim;
};

__device__ void marsMapCount(const char *key, const char *val, int keySize, int valSize,
                             const void *user, MarsCount &out)
{
    marsEmitCount(out, sizeof(float), sizeof(int2));
}

__device__ void marsMap(const char *key, const char *val, int keySize, int valSize,
                        const void *user, MarsEmit &out)
{
    const SimParams *p = (const SimParams *)user;
    const int2 pair = *(const int2 *)key;
    const float *a = p->features + (size_t)pair.x * p->dim;
    const float *b = p->features + (size_t)pair.y * p->dim;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int i = 0; i < p->dim; i++) {
        dot += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    float score = dot / sqrtf(na * nb);
    marsEmit(out, &score, sizeof(float), &pair, sizeof(int2));
}

// descending score
__device__ int marsCompare(const char *k1, int s1, const char *k2, int s2)
{
    const float a = *(const float *)k1, b = *(const float *)k2;
    return a > b ? -1 : a < b ? 1 : 0;
}
