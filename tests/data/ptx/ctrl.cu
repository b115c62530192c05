// Function pointers: nvcc turns them into indirect calls
// (tests/func/test_ctrl.c). Regenerate ctrl.ptx with:
//   nvcc -arch=sm_80 -O3 -ptx ctrl.cu -o ctrl.ptx
typedef int (*op_fn)(int, int);

__device__ __noinline__ int op_add(int a, int b) { return a + b * 3; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b - 7; }
__device__ __noinline__ int op_xor(int a, int b) { return (a ^ b) + (a >> 2); }

__device__ op_fn table[3] = {op_add, op_mul, op_xor};

// Each lane calls one of three functions through a per-lane pointer; the
// lane's choice comes from data, so targets diverge within a warp.
extern "C" __global__ void fptr(const int *sel, const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    op_fn f = table[sel[i] % 3];
    int v = f(in[i], i);
    // a second call whose result feeds the first: nested divergence
    out[i] = table[(sel[i] + 1) % 3](v, 5) + 1;
}
