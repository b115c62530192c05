// stringmatch (Mars): find the lines of a text that contain a keyword. An
// input record is one line; map emits (line offset, position of the first
// occurrence) for every line that contains the keyword. Map only: no sort,
// no reduce. The keyword (length, then bytes) comes in as user data.
#include "../mars_lib.cuh"

struct Keyword {
    int len;
    char text[60];
};

// position of the first occurrence of the keyword in line[0..len), or -1
__device__ inline int findKeyword(const char *line, int len, const Keyword *kw)
{
    const int n = kw->len;
    for (int i = 0; i + n <= len; i++) {
        int k = 0;
        while (k < n && line[i + k] == kw->text[k])
            k++;
        if (k == n)
            return i;
    }
    return -1;
}

__device__ void marsMapCount(const char *line, const char *val, int len, int valSize,
                             const void *user, MarsCount &out)
{
    if (findKeyword(line, len, (const Keyword *)user) >= 0)
        marsEmitCount(out, sizeof(int), sizeof(int));
}

__device__ void marsMap(const char *line, const char *val, int len, int valSize,
                        const void *user, MarsEmit &out)
{
    const int pos = findKeyword(line, len, (const Keyword *)user);
    if (pos >= 0) {
        const int offset = *(const int *)val;
        marsEmit(out, &offset, sizeof(int), &pos, sizeof(int));
    }
}
