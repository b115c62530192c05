// cudaPointerGetAttributes on every kind of memory. Built with:
//   nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 --no-compress -o ptrattr ptrattr.cu
#include <cstdio>
#include <cstdlib>

static int bad = 0;
static void show(const char *what, const void *p) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    printf("%s: err=%d type=%d device=%d dev=%s host=%s\n", what, (int)e, (int)a.type, a.device,
           a.devicePointer == p ? "p" : a.devicePointer ? "other" : "null",
           a.hostPointer == p ? "p" : a.hostPointer ? "other" : "null");
}

int main() {
    int *d, *m, *h, stackv = 0;
    cudaMalloc(&d, 1024);
    cudaMallocManaged(&m, 1024);
    cudaMallocHost(&h, 1024);
    int *reg = (int *)malloc(4096);
    show("device", d);
    show("device+100", (char *)d + 100);
    show("managed", m);
    show("pinned", h);
    show("pinned+8", h + 2);
    show("malloc", reg);
    cudaError_t e1 = cudaHostRegister(reg, 4096, cudaHostRegisterDefault);
    show("registered", reg);
    cudaError_t e2 = cudaHostRegister(reg, 4096, cudaHostRegisterDefault);
    cudaError_t e3 = cudaHostUnregister(reg);
    cudaError_t e4 = cudaHostUnregister(reg);
    cudaGetLastError();
    printf("register=%d again=%d unregister=%d again=%d\n", (int)e1, (int)e2, (int)e3, (int)e4);
    show("unregistered", reg);
    show("stack", &stackv);
    cudaFreeHost(h);
    show("freed pinned", h);
    cudaFree(d);
    cudaFree(m);
    free(reg);
    return bad;
}
