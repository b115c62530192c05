// wordcount (Mars): count how often each word occurs in a text. An input
// record is one line of the text (the key points at the line, the key size
// is its length). Map emits (word, 1) for every maximal run of letters;
// the runtime sorts the pairs by word and groups equal words; reduce emits
// (word, number of ones).
#define MARS_SORT
#define MARS_REDUCE

__device__ inline bool isLetter(char ch)
{
    return ch >= 'a' && ch <= 'z';
}

#include "../mars_lib.cuh"

__device__ void marsMapCount(const char *line, const char *val, int len, int valSize,
                             const void *user, MarsCount &out)
{
    int i = 0;
    while (i < len) {
        while (i < len && !isLetter(line[i]))
            i++;
        int start = i;
        while (i < len && isLetter(line[i]))
            i++;
        if (i > start)
            marsEmitCount(out, i - start, sizeof(int));
    }
}

__device__ void marsMap(const char *line, const char *val, int len, int valSize,
                        const void *user, MarsEmit &out)
{
    const int one = 1;
    int i = 0;
    while (i < len) {
        while (i < len && !isLetter(line[i]))
            i++;
        int start = i;
        while (i < len && isLetter(line[i]))
            i++;
        if (i > start)
            marsEmit(out, line + start, i - start, &one, sizeof(int));
    }
}

// byte order, a prefix first
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
    int count = 0;
    for (int r = begin; r < end; r++)
        count += *(const int *)(vals + index[r].z);
    marsEmit(out, keys + index[begin].x, index[begin].y, &count, sizeof(int));
}
