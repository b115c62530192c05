// pageviewcount (Mars): count the views of every page in a web server log.
// An input record is one log line "URL<TAB>client<TAB>time"; map emits
// (URL, 1); the runtime sorts by URL and groups; reduce emits (URL, views).
#define MARS_SORT
#define MARS_REDUCE

#include "../mars_lib.cuh"

__device__ inline int urlLength(const char *line, int len)
{
    int n = 0;
    while (n < len && line[n] != '\t')
        n++;
    return n;
}

__device__ void marsMapCount(const char *line, const char *val, int len, int valSize,
                             const void *user, MarsCount &out)
{
    marsEmitCount(out, urlLength(line, len), sizeof(int));
}

__device__ void marsMap(const char *line, const char *val, int len, int valSize,
                        const void *user, MarsEmit &out)
{
    const int one = 1;
    marsEmit(out, line, urlLength(line, len), &one, sizeof(int));
}

__device__ int marsCompare(const char *k1, int s1, const char *k2, int s2)
{
    const int n = s1 < s2 ? s1 : s2;
    for (int i = 0; i < n; i++) {
        if (k1[i] != k2[i])
            return (unsigned char)k1[i] < (unsigned char)k2[i] ? -1 : 1;
    }
    return s1 - s2;
}

__device__ void marsReduceCount(const char *keys, const char *vals, const int4 *index, int begin,
                                int end, const void *user, MarsCount &out)
{
    marsEmitCount(out, index[begin].y, sizeof(int));
}

__device__ void marsReduce(const char *keys, const char *vals, const int4 *index, int begin,
                           int end, const void *user, MarsEmit &out)
{
    int views = 0;
    for (int r = begin; r < end; r++)
        views += *(const int *)(vals + index[r].z);
    marsEmit(out, keys + index[begin].x, index[begin].y, &views, sizeof(int));
}
