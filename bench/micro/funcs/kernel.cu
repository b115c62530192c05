// funcs: kernels that make real calls. nvcc keeps __noinline__ functions
// as .func with call/ret and parameter passing, and a recursive function
// stays a call. The per-thread sort indexes its array with loop-carried
// (dynamic) indices, so the array lives in local memory.
#define ROW 16

// Several parameters and a return value, kept out of line.
__device__ __noinline__ int spreadScore(int lo, int mid, int hi, int weight, int salt)
{
    int spread = hi - lo;
    int skew = (mid - lo) - (hi - mid);
    return spread * weight + skew + ((lo ^ hi ^ salt) & 63);
}

// Floating-point helper with a float return value.
__device__ __noinline__ float blend(float a, float b, float t, int steps)
{
    float acc = a;
    for (int s = 0; s < steps; ++s)
        acc = acc + t * (b - acc);
    return acc;
}

// Non-tail recursion: one of the two calls cannot be turned into a loop.
__device__ __noinline__ int fibRec(int n)
{
    if (n < 2)
        return n;
    return fibRec(n - 1) + fibRec(n - 2);
}

// Sort each ROW-element row of `in` with an insertion sort in a per-thread
// array, write it out, and score the row with an out-of-line call.
__global__ void sortRows(const int *in, int *out, int *score, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;

    int v[ROW];
    for (int i = 0; i < ROW; ++i)
        v[i] = in[r * ROW + i];

    for (int i = 1; i < ROW; ++i) {
        int x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }

    for (int i = 0; i < ROW; ++i)
        out[r * ROW + i] = v[i];
    score[r] = spreadScore(v[0], v[ROW / 2], v[ROW - 1], (r & 7) + 1, r);
}

// Each thread computes a recursive Fibonacci number of a data-dependent
// order (so lanes recurse to different depths) plus a blended value.
__global__ void callMix(const int *order, const float *x, int *fib, float *mixed, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int k = order[i];
    fib[i] = fibRec(k);
    mixed[i] = blend(x[i], 1.0f - x[i], 0.25f, k);
}
