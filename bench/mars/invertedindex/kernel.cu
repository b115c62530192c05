// invertedindex (Mars): for every link target in a set of HTML documents,
// the documents that link to it. An input record is one line of a
// document (key: the line's text; value: the document number). Map scans
// the line for href="..." and emits (URL, document) per link; the runtime
// sorts the pairs by URL and groups them, so each group is one URL's
// posting list. There is no reduce stage.
#define MARS_SORT

#include "../mars_lib.cuh"

// length of the URL if an href=" starts at line[i], else -1
__device__ inline int hrefAt(const char *line, int len, int i)
{
    const char pat[6] = {'h', 'r', 'e', 'f', '=', '"'};
    if (i + 6 > len)
        return -1;
    for (int k = 0; k < 6; k++)
        if (line[i + k] != pat[k])
            return -1;
    int n = 0;
    while (i + 6 + n < len && line[i + 6 + n] != '"')
        n++;
    return n;
}

__device__ void marsMapCount(const char *line, const char *val, int len, int valSize,
                             const void *user, MarsCount &out)
{
    for (int i = 0; i < len; i++) {
        if (line[i] == 'h') {
            int n = hrefAt(line, len, i);
            if (n > 0) {
                marsEmitCount(out, n, sizeof(int));
                i += 6 + n;
            }
        }
    }
}

__device__ void marsMap(const char *line, const char *val, int len, int valSize,
                        const void *user, MarsEmit &out)
{
    const int doc = *(const int *)val;
    for (int i = 0; i < len; i++) {
        if (line[i] == 'h') {
            int n = hrefAt(line, len, i);
            if (n > 0) {
                marsEmit(out, line + i + 6, n, &doc, sizeof(int));
                i += 6 + n;
            }
        }
    }
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
