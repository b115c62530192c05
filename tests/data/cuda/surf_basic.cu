// Surface objects on cudaArrays (cudaArraySurfaceLoadStore): surf1Dread /
// surf1Dwrite on floats, surf2Dread / surf2Dwrite on ints with clamp and
// zero boundary modes (a 3 x 3 box sum whose edges clamp, reads and writes
// outside that read zero or are dropped), uchar4 and float2 (64-bit)
// elements read and written in place. Each result is checked against the
// same computation on the host. Prints PASS or FAIL <what>.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_));                      \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

__global__ void scale1d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  surf1Dread(&v, in, i * 4);
  surf1Dwrite(v * 2.0f + 1.0f, out, i * 4);
}

__global__ void box2d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int v;
      surf2Dread(&v, in, (x + dx) * 4, y + dy, cudaBoundaryModeClamp);
      s += v;
    }
  int z;
  surf2Dread(&z, in, (x + w) * 4, y, cudaBoundaryModeZero); /* outside: 0 */
  surf2Dwrite(s + z, out, x * 4, y);
  surf2Dwrite(-1, out, x * 4, y + h, cudaBoundaryModeZero); /* outside: dropped */
}

__global__ void swizzle(cudaSurfaceObject_t c, cudaSurfaceObject_t f, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 v;
  surf2Dread(&v, c, x * 4, y);
  surf2Dwrite(make_uchar4(v.w, v.z, v.y, (unsigned char)(v.x + 1)), c, x * 4, y);
  float2 p;
  surf2Dread(&p, f, x * 8, y);
  surf2Dwrite(make_float2(p.y, p.x * 0.5f), f, x * 8, y);
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 37, h = 19, n = w * h;
  /* 1-D floats */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, b1;
  CK(cudaMallocArray(&a1, &fd, n, 0, cudaArraySurfaceLoadStore));
  CK(cudaMallocArray(&b1, &fd, n, 0, cudaArraySurfaceLoadStore));
  float *hf = (float *)malloc(n * sizeof(float)), *rf = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) hf[i] = (float)(i % 97) * 0.25f - 3.0f;
  CK(cudaMemcpy2DToArray(a1, 0, 0, hf, n * 4, n * 4, 1, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a1;
  cudaSurfaceObject_t sa1, sb1;
  CK(cudaCreateSurfaceObject(&sa1, &rd));
  rd.res.array.array = b1;
  CK(cudaCreateSurfaceObject(&sb1, &rd));
  scale1d<<<(n + 127) / 128, 128>>>(sa1, sb1, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy2DFromArray(rf, n * 4, b1, 0, 0, n * 4, 1, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (rf[i] != hf[i] * 2.0f + 1.0f) { printf("FAIL scale1d at %d: %g\n", i, rf[i]); return 1; }
  /* 2-D ints: clamp and zero */
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t a2, b2;
  CK(cudaMallocArray(&a2, &id, w, h, cudaArraySurfaceLoadStore));
  CK(cudaMallocArray(&b2, &id, w, h, cudaArraySurfaceLoadStore));
  int *hi = (int *)malloc(n * 4), *ri = (int *)malloc(n * 4);
  for (int i = 0; i < n; i++) hi[i] = (i * 7919) % 1000 - 500;
  CK(cudaMemcpy2DToArray(a2, 0, 0, hi, w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t sa2, sb2;
  rd.res.array.array = a2;
  CK(cudaCreateSurfaceObject(&sa2, &rd));
  rd.res.array.array = b2;
  CK(cudaCreateSurfaceObject(&sb2, &rd));
  dim3 blk(8, 8), grd((w + 7) / 8, (h + 7) / 8);
  box2d<<<grd, blk>>>(sa2, sb2, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy2DFromArray(ri, w * 4, b2, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx, yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
          s += hi[yy * w + xx];
        }
      if (ri[y * w + x] != s) { printf("FAIL box2d at (%d,%d): %d, want %d\n", x, y, ri[y * w + x], s); return 1; }
    }
  /* uchar4 and float2 in place */
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>(), f2 = cudaCreateChannelDesc<float2>();
  cudaArray_t ac, af;
  CK(cudaMallocArray(&ac, &cd, w, h, cudaArraySurfaceLoadStore));
  CK(cudaMallocArray(&af, &f2, w, h, cudaArraySurfaceLoadStore));
  unsigned char *hc = (unsigned char *)malloc(n * 4), *rc = (unsigned char *)malloc(n * 4);
  float *hp = (float *)malloc(n * 8), *rp = (float *)malloc(n * 8);
  for (int i = 0; i < n * 4; i++) hc[i] = (unsigned char)(i * 31 + 7);
  for (int i = 0; i < n * 2; i++) hp[i] = (float)i * 1.5f - 100.0f;
  CK(cudaMemcpy2DToArray(ac, 0, 0, hc, w * 4, w * 4, h, cudaMemcpyHostToDevice));
  CK(cudaMemcpy2DToArray(af, 0, 0, hp, w * 8, w * 8, h, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t sc, sf;
  rd.res.array.array = ac;
  CK(cudaCreateSurfaceObject(&sc, &rd));
  rd.res.array.array = af;
  CK(cudaCreateSurfaceObject(&sf, &rd));
  swizzle<<<grd, blk>>>(sc, sf, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy2DFromArray(rc, w * 4, ac, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy2DFromArray(rp, w * 8, af, 0, 0, w * 8, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    const unsigned char *v = hc + 4 * i, *r = rc + 4 * i;
    if (r[0] != v[3] || r[1] != v[2] || r[2] != v[1] || r[3] != (unsigned char)(v[0] + 1)) {
      printf("FAIL swizzle uchar4 at %d\n", i);
      return 1;
    }
    if (rp[2 * i] != hp[2 * i + 1] || rp[2 * i + 1] != hp[2 * i] * 0.5f) { printf("FAIL swizzle float2 at %d\n", i); return 1; }
  }
  cudaResourceDesc back = {};
  CK(cudaGetSurfaceObjectResourceDesc(&back, sc));
  if (back.resType != cudaResourceTypeArray || back.res.array.array != ac) { printf("FAIL resource desc\n"); return 1; }
  unsigned fl = 0;
  CK(cudaArrayGetInfo(NULL, NULL, &fl, ac));
  if (fl != cudaArraySurfaceLoadStore) { printf("FAIL array flags %u\n", fl); return 1; }
  /* an array without the flag cannot be a surface */
  cudaArray_t plain;
  CK(cudaMallocArray(&plain, &id, 4, 4, 0));
  rd.res.array.array = plain;
  cudaSurfaceObject_t bad;
  if (cudaCreateSurfaceObject(&bad, &rd) == cudaSuccess) { printf("FAIL surface on a plain array\n"); return 1; }
  cudaGetLastError();
  CK(cudaDestroySurfaceObject(sa1));
  CK(cudaDestroySurfaceObject(sb1));
  CK(cudaDestroySurfaceObject(sa2));
  CK(cudaDestroySurfaceObject(sb2));
  CK(cudaDestroySurfaceObject(sc));
  CK(cudaDestroySurfaceObject(sf));
  printf("PASS surfaces %dx%d\n", w, h);
  return 0;
}
