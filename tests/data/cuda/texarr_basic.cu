// Texture gather, layered textures, cube maps and 3-D arrays through the runtime:
// tex2Dgather on float and normalized uchar4 textures (clamp and border),
// tex1DLayered / tex2DLayered (point and linear) on cudaMalloc3DArray
// layered arrays filled with cudaMemcpy3D, and surf3Dread / surf3Dwrite
// plus tex3D on a 3-D array read back with cudaMemcpy3D. Each result is
// checked against the same computation on the host. A one-level mipmapped
// array read with tex2DLod / tex2DGrad returns level 0; a three-level one
// has its levels' extents halved (mip_basic.cu reads levels). texCubemap on a cudaArrayCubemap array picks the face and the
// place on it as the CUDA programming guide's cube-map table says.
// Prints PASS or FAIL.
#include <cmath>
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

enum { W = 13, H = 7, L = 3, D = 4 };

__global__ void gather(cudaTextureObject_t tf, cudaTextureObject_t tc, float4 *of, float4 *oc) {
  int i = threadIdx.x, j = blockIdx.x;
  float x = i - 1 + 0.3f, y = j - 1 + 0.7f; /* a ring outside the edges too */
  int k = j * blockDim.x + i;
  of[k] = tex2Dgather<float4>(tf, x, y, 0);
  oc[k] = tex2Dgather<float4>(tc, x, y, 2);
}

__global__ void layered(cudaTextureObject_t t1, cudaTextureObject_t t2, int *o1, float *o2, float *o3) {
  int i = threadIdx.x, j = blockIdx.x % H, l = blockIdx.x / H;
  int k = blockIdx.x * blockDim.x + i;
  o1[k] = tex1DLayered<int>(t1, i + 0.5f, l);
  o2[k] = tex2DLayered<float>(t2, i + 0.5f, j + 0.5f, l);
}

__global__ void layered_linear(cudaTextureObject_t t2, float *o3) {
  int i = threadIdx.x, j = blockIdx.x % H, l = blockIdx.x / H;
  o3[blockIdx.x * blockDim.x + i] = tex2DLayered<float>(t2, i + 1.0f, j + 0.5f, l);
}

__global__ void vol(cudaSurfaceObject_t s, cudaTextureObject_t t, int *o) {
  int x = threadIdx.x, y = blockIdx.x % H, z = blockIdx.x / H;
  int v;
  surf3Dread(&v, s, x * 4, y, z);
  o[blockIdx.x * blockDim.x + x] = v + tex3D<int>(t, x + 0.5f, y + 0.5f, z + 0.5f);
  surf3Dwrite(v * 5 - 2, s, x * 4, y, z);
}

__global__ void lod(cudaTextureObject_t t, float *o) {
  int i = threadIdx.x, j = blockIdx.x;
  o[j * blockDim.x + i] = tex2DLod<float>(t, i + 0.5f, j + 0.5f, 1.5f) +
                          2.0f * tex2DGrad<float>(t, i + 0.5f, j + 0.5f, make_float2(2.0f, 0.0f), make_float2(0.0f, 3.0f));
}

__global__ void cube(cudaTextureObject_t t, const float3 *dir, float *o) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float3 v = dir[k];
  o[k] = texCubemap<float>(t, v.x, v.y, v.z);
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static cudaTextureObject_t make_tex(cudaArray_t a, int filter, int read_norm, int addr) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (cudaTextureAddressMode)addr;
  td.filterMode = (cudaTextureFilterMode)filter;
  td.readMode = read_norm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &rd, &td, NULL) != cudaSuccess) printf("FAIL texture object\n");
  return t;
}

static cudaError_t to_array(cudaArray_t a, const void *h, size_t row, size_t w, size_t hh, size_t d) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void *)h, row, row, hh ? hh : 1);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, hh ? hh : 1, d ? d : 1);
  p.kind = cudaMemcpyHostToDevice;
  return cudaMemcpy3D(&p);
}

int main() {
  /* gather */
  float hf[H][W];
  unsigned char hc[H][W][4];
  for (int j = 0; j < H; j++)
    for (int i = 0; i < W; i++) {
      hf[j][i] = (float)(j * 100 + i);
      for (int c = 0; c < 4; c++) hc[j][i][c] = (unsigned char)(j * 37 + i * 11 + c * 50);
    }
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), cd = cudaCreateChannelDesc<uchar4>(),
                        id = cudaCreateChannelDesc<int>();
  cudaArray_t af, ac;
  CK(cudaMallocArray(&af, &fd, W, H, cudaArrayTextureGather));
  CK(cudaMallocArray(&ac, &cd, W, H, cudaArrayTextureGather));
  CK(cudaMemcpy2DToArray(af, 0, 0, hf, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  CK(cudaMemcpy2DToArray(ac, 0, 0, hc, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaTextureObject_t tf = make_tex(af, cudaFilterModePoint, 0, cudaAddressModeClamp);
  cudaTextureObject_t tc = make_tex(ac, cudaFilterModePoint, 1, cudaAddressModeBorder);
  int n = (W + 2) * (H + 2);
  float4 *of, *oc;
  CK(cudaMallocManaged(&of, n * sizeof(float4)));
  CK(cudaMallocManaged(&oc, n * sizeof(float4)));
  gather<<<H + 2, W + 2>>>(tf, tc, of, oc);
  CK(cudaDeviceSynchronize());
  for (int j = 0; j < H + 2; j++)
    for (int i = 0; i < W + 2; i++) {
      float x = i - 1 + 0.3f, y = j - 1 + 0.7f;
      int i0 = (int)floorf(x - 0.5f), j0 = (int)floorf(y - 0.5f);
      int xs[4] = {i0, i0 + 1, i0 + 1, i0}, ys[4] = {j0 + 1, j0 + 1, j0, j0};
      const float *gf = &of[j * (W + 2) + i].x, *gc = &oc[j * (W + 2) + i].x;
      for (int q = 0; q < 4; q++) {
        float wf = hf[clampi(ys[q], H)][clampi(xs[q], W)];
        bool in = xs[q] >= 0 && xs[q] < W && ys[q] >= 0 && ys[q] < H;
        float wc = in ? hc[ys[q]][xs[q]][2] / 255.0f : 0.0f;
        if (gf[q] != wf || gc[q] != wc) {
          printf("FAIL gather at (%d,%d)[%d]: %g %g, want %g %g\n", i, j, q, gf[q], gc[q], wf, wc);
          return 1;
        }
      }
    }
  /* layered */
  static int h1[L][W];
  static float h2[L][H][W];
  for (int l = 0; l < L; l++)
    for (int i = 0; i < W; i++) {
      h1[l][i] = l * 1000 - i * 7;
      for (int j = 0; j < H; j++) h2[l][j][i] = (float)(l * 10000 + j * 100 + i) * 0.125f;
    }
  cudaArray_t l1, l2;
  CK(cudaMalloc3DArray(&l1, &id, make_cudaExtent(W, 0, L), cudaArrayLayered));
  CK(cudaMalloc3DArray(&l2, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
  CK(to_array(l1, h1, W * 4, W, 1, L)); /* a 1-D layered array: one row per layer */
  CK(to_array(l2, h2, W * 4, W, H, L));
  cudaExtent ex;
  unsigned fl;
  CK(cudaArrayGetInfo(NULL, &ex, &fl, l2));
  if (ex.width != W || ex.height != H || ex.depth != L || fl != cudaArrayLayered) { printf("FAIL array info\n"); return 1; }
  cudaTextureObject_t t1 = make_tex(l1, cudaFilterModePoint, 0, cudaAddressModeClamp);
  cudaTextureObject_t t2 = make_tex(l2, cudaFilterModePoint, 0, cudaAddressModeClamp);
  cudaTextureObject_t t2l = make_tex(l2, cudaFilterModeLinear, 0, cudaAddressModeClamp);
  int *o1;
  float *o2, *o3;
  CK(cudaMallocManaged(&o1, L * H * W * 4));
  CK(cudaMallocManaged(&o2, L * H * W * 4));
  CK(cudaMallocManaged(&o3, L * H * W * 4));
  layered<<<L * H, W>>>(t1, t2, o1, o2, o3);
  layered_linear<<<L * H, W>>>(t2l, o3);
  CK(cudaDeviceSynchronize());
  for (int l = 0; l < L; l++)
    for (int j = 0; j < H; j++)
      for (int i = 0; i < W; i++) {
        int k = (l * H + j) * W + i;
        float lin = (float)(0.5 * h2[l][j][i] + 0.5 * h2[l][j][clampi(i + 1, W)]);
        if (o1[k] != h1[l][i] || o2[k] != h2[l][j][i] || o3[k] != lin) {
          printf("FAIL layered at (%d,%d,%d): %d %g %g\n", i, j, l, o1[k], o2[k], o3[k]);
          return 1;
        }
      }
  /* a 3-D array as a surface and a texture */
  static int h3[D][H][W], b3[D][H][W];
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) h3[z][y][x] = z * 10000 + y * 100 + x;
  cudaArray_t a3;
  CK(cudaMalloc3DArray(&a3, &id, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  CK(to_array(a3, h3, W * 4, W, H, D));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a3;
  cudaSurfaceObject_t s3;
  CK(cudaCreateSurfaceObject(&s3, &rd));
  cudaTextureObject_t t3 = make_tex(a3, cudaFilterModePoint, 0, cudaAddressModeClamp);
  int *o4;
  CK(cudaMallocManaged(&o4, D * H * W * 4));
  vol<<<D * H, W>>>(s3, t3, o4);
  CK(cudaDeviceSynchronize());
  cudaMemcpy3DParms p = {};
  p.srcArray = a3;
  p.dstPtr = make_cudaPitchedPtr(b3, W * 4, W * 4, H);
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        if (o4[(z * H + y) * W + x] != 2 * h3[z][y][x] || b3[z][y][x] != h3[z][y][x] * 5 - 2) {
          printf("FAIL 3-D at (%d,%d,%d)\n", x, y, z);
          return 1;
        }
  /* a one-level mipmapped array */
  cudaMipmappedArray_t mm, mm2;
  cudaArray_t lev;
  CK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(W, H, 0), 1, 0));
  CK(cudaGetMipmappedArrayLevel(&lev, mm, 0));
  CK(cudaMemcpy2DToArray(lev, 0, 0, hf, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  {
    CK(cudaMallocMipmappedArray(&mm2, &fd, make_cudaExtent(W, H, 0), 3, 0));
    cudaArray_t l2;
    cudaChannelFormatDesc cf;
    cudaExtent ex;
    unsigned fl;
    CK(cudaGetMipmappedArrayLevel(&l2, mm2, 2));
    CK(cudaArrayGetInfo(&cf, &ex, &fl, l2));
    if (ex.width != (W >> 2 ? W >> 2 : 1) || ex.height != (H >> 2 ? H >> 2 : 1)) {
      printf("FAIL level 2 is %zux%zu\n", ex.width, ex.height);
      return 1;
    }
    CK(cudaFreeMipmappedArray(mm2));
  }
  cudaResourceDesc mr = {};
  mr.resType = cudaResourceTypeMipmappedArray;
  mr.res.mipmap.mipmap = mm;
  cudaTextureDesc mt = {};
  mt.filterMode = cudaFilterModePoint;
  mt.mipmapFilterMode = cudaFilterModeLinear;
  mt.maxMipmapLevelClamp = 0.0f;
  cudaTextureObject_t tm;
  CK(cudaCreateTextureObject(&tm, &mr, &mt, NULL));
  float *o5;
  CK(cudaMallocManaged(&o5, W * H * 4));
  lod<<<H, W>>>(tm, o5);
  CK(cudaDeviceSynchronize());
  for (int j = 0; j < H; j++)
    for (int i = 0; i < W; i++)
      if (o5[j * W + i] != 3.0f * hf[j][i]) { printf("FAIL lod at (%d,%d): %g\n", i, j, o5[j * W + i]); return 1; }
  CK(cudaDestroyTextureObject(tm));
  CK(cudaFreeMipmappedArray(mm));
  /* a cube map: face f texel (x, y) = 1000 f + 10 y + x */
  enum { CW = 8, ND = 64 };
  static float hcube[6][CW][CW];
  for (int f = 0; f < 6; f++)
    for (int y = 0; y < CW; y++)
      for (int x = 0; x < CW; x++) hcube[f][y][x] = (float)(1000 * f + 10 * y + x);
  cudaArray_t ca;
  CK(cudaMalloc3DArray(&ca, &fd, make_cudaExtent(CW, CW, 6), cudaArrayCubemap));
  CK(to_array(ca, hcube, CW * 4, CW, CW, 6));
  cudaTextureObject_t tcube = make_tex(ca, cudaFilterModePoint, 0, cudaAddressModeClamp);
  float3 *dir;
  float *o6;
  CK(cudaMallocManaged(&dir, ND * sizeof(float3)));
  CK(cudaMallocManaged(&o6, ND * 4));
  for (int k = 0; k < ND; k++)
    dir[k] = make_float3((k % 7 - 3) + 0.37f, ((k * 3) % 5 - 2) + 0.21f, ((k * 5) % 9 - 4) + 0.13f);
  cube<<<ND / 32, 32>>>(tcube, dir, o6);
  CK(cudaDeviceSynchronize());
  for (int k = 0; k < ND; k++) {
    float x = dir[k].x, y = dir[k].y, z = dir[k].z, ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
    int f;
    if (ax >= ay && ax >= az) f = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    else if (ay >= az) f = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    else f = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
    float u = (sc / m + 1.0f) * 0.5f, w = (tc / m + 1.0f) * 0.5f;
    int i = clampi((int)floorf(u * CW), CW), j = clampi((int)floorf(w * CW), CW);
    if (o6[k] != hcube[f][j][i]) {
      printf("FAIL cube %d (%g,%g,%g): %g, want %g\n", k, x, y, z, o6[k], hcube[f][j][i]);
      return 1;
    }
  }
  printf("PASS gather, layered and 3-D arrays\n");
  return 0;
}
