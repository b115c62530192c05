/* texture: the texture path through texture objects.
 *  - gather1d: out[i] = tex1Dfetch(table, idx[i]) over linear memory; three
 *    quarters of the indices fall in a 256-entry hot window (texture-cache
 *    hits), the rest anywhere in the table. Checked exactly.
 *  - resample2d: tex2D with bilinear filtering, normalized coordinates and
 *    clamp addressing on a pitch-2D image (rows padded to a multiple of 32
 *    bytes, as cudaMallocPitch would), resampled to a larger size over
 *    [-1/8, 9/8] in both directions so the clamped edges are read too. The
 *    CPU reference applies the CUDA programming guide's filtering: taps
 *    floor(x - 0.5) and +1, weight frac(x - 0.5) held with 8 fraction bits
 *    (1/256 steps, rounded to nearest), computed in double. */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_micro_texture_ptx[], ws_bench_micro_texture_ptxinfo[];

/* Texel index along one dimension of n texels, clamped. */
static int clampi(long i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : (int)i; }

/* One bilinear sample of img (w x h, pitch p floats) at normalized (u, v);
 * *spread = the largest minus the smallest of the four texels. */
static double bilinear_ref(const float *img, int w, int h, int p, float u, float v, double *spread) {
    double x = (double)u * w - 0.5, y = (double)v * h - 0.5;
    double fx = floor(x), fy = floor(y);
    double a = floor((x - fx) * 256.0 + 0.5) / 256.0, b = floor((y - fy) * 256.0 + 0.5) / 256.0;
    int x0 = clampi((long)fx, w), x1 = clampi((long)fx + 1, w);
    int y0 = clampi((long)fy, h), y1 = clampi((long)fy + 1, h);
    double t00 = img[y0 * p + x0], t01 = img[y0 * p + x1], t10 = img[y1 * p + x0],
           t11 = img[y1 * p + x1];
    *spread = fmax(fmax(t00, t01), fmax(t10, t11)) - fmin(fmin(t00, t01), fmin(t10, t11));
    return (1 - b) * ((1 - a) * t00 + a * t01) + b * ((1 - a) * t10 + a * t11);
}

static ws_texobj make_texture(wl_ctx *c, const ws_tex_desc *td) {
    ws_texobj t = 0;
    if (!c->failed) wl_check(c, ws_texture_create(c->d, td, &t), "cudaCreateTextureObject");
    return t;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int paper = in == WS_INPUT_PAPER;
    const int tn = paper ? 65536 : 4096, gn = paper ? (1 << 18) : 8192;
    const int iw = paper ? 500 : 90, ih = paper ? 380 : 60, ow = 2 * iw, oh = 2 * ih;
    const int pitch = (iw + 7) / 8 * 8; /* floats: rows padded to 32 bytes */
    wl_ctx c;
    wl_init(&c, d, m, log, "texture");

    float *table = wl_host_alloc(&c, (size_t)tn * sizeof *table);
    int *idx = wl_host_alloc(&c, (size_t)gn * sizeof *idx);
    float *gout = wl_host_alloc(&c, (size_t)gn * sizeof *gout);
    float *img = wl_host_alloc(&c, (size_t)pitch * ih * sizeof *img);
    float *rout = wl_host_alloc(&c, (size_t)ow * oh * sizeof *rout);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0010);
        for (int i = 0; i < tn; i++) table[i] = (float)i + ws_rng_float(&r);
        for (int i = 0; i < gn; i++)
            idx[i] = ws_rng_below(&r, 4) ? (int)ws_rng_below(&r, 256) + tn / 3
                                          : (int)ws_rng_below(&r, (unsigned)tn);
        for (int y = 0; y < ih; y++)
            for (int x = 0; x < pitch; x++) /* a smooth field plus noise; padding is -1 */
                img[y * pitch + x] = x < iw ? (float)(sin(x * 0.11) * cos(y * 0.07)) +
                                                  0.25f * ws_rng_float(&r)
                                            : -1.0f;
    }

    /* gather1d */
    ws_devptr dt = wl_upload(&c, table, (size_t)tn * sizeof *table);
    ws_devptr di = wl_upload(&c, idx, (size_t)gn * sizeof *idx);
    ws_devptr dg = wl_alloc(&c, (size_t)gn * sizeof *gout);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_LINEAR;
    td.addr = dt;
    td.channels = 1;
    td.bits = 32;
    td.kind = WS_TEX_FLOAT;
    td.width = (size_t)tn;
    td.address[0] = td.address[1] = td.address[2] = WS_TEX_CLAMP;
    ws_texobj ttab = make_texture(&c, &td);
    int n = gn;
    void *ga[] = {&ttab, &di, &dg, &n};
    wl_launch(&c, wl_kernel(&c, "_Z8gather1dyPKiPfi"), wl_dim((unsigned)(gn + 255) / 256, 1),
              wl_dim(256, 1), ga);
    wl_download(&c, gout, dg, (size_t)gn * sizeof *gout);

    /* resample2d */
    ws_devptr dimg = wl_upload(&c, img, (size_t)pitch * ih * sizeof *img);
    ws_devptr dr = wl_alloc(&c, (size_t)ow * oh * sizeof *rout);
    td.res = WS_TEX_RES_PITCH2D;
    td.addr = dimg;
    td.width = (size_t)iw;
    td.height = (size_t)ih;
    td.pitch = (size_t)pitch * sizeof *img;
    td.filter = WS_TEX_LINEAR;
    td.normalized_coords = 1;
    ws_texobj timg = make_texture(&c, &td);
    float sx = 1.25f / (float)ow, sy = 1.25f / (float)oh, ox = -0.125f, oy = -0.125f;
    void *ra[] = {&timg, &dr, (void *)&ow, (void *)&oh, &sx, &sy, &ox, &oy};
    wl_launch(&c, wl_kernel(&c, "_Z10resample2dyPfiiffff"),
              wl_dim((unsigned)(ow + 15) / 16, (unsigned)(oh + 7) / 8), wl_dim(16, 8), ra);
    wl_download(&c, rout, dr, (size_t)ow * oh * sizeof *rout);
    if (ttab) ws_texture_destroy(d, ttab);
    if (timg) ws_texture_destroy(d, timg);

    if (!c.failed) {
        for (int i = 0; i < gn; i++)
            if (gout[i] != table[idx[i]]) wl_mismatch(&c, "gather", i, "%.9g, expected %.9g", gout[i], table[idx[i]]);
        /* Tolerance: the simulator computes exactly this reference (u, v
           as the kernel's fma), but the guide does not say how hardware
           rounds the fraction to 1/256: another rounding moves each weight
           by at most 1/256, which moves the result by at most 1/256 of the
           spread of the four texels per dimension; 1e-5 covers the f32
           rounding of the filtered sum. */
        for (int y = 0; y < oh; y++)
            for (int x = 0; x < ow; x++) {
                float u = fmaf((float)x + 0.5f, sx, ox), v = fmaf((float)y + 0.5f, sy, oy);
                double spread = 0, want = bilinear_ref(img, iw, ih, pitch, u, v, &spread);
                wl_expect_near(&c, "resample", (long)y * ow + x, rout[y * ow + x], want, 0,
                               2.0 * spread / 256 + 1e-5);
            }
    }

    char summary[128];
    snprintf(summary, sizeof summary, "gather=%d of %d resample=%dx%d->%dx%d", gn, tn, iw, ih, ow, oh);
    free(table);
    free(idx);
    free(gout);
    free(img);
    free(rout);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_texture = {
    .name = "texture",
    .suite = "micro",
    .description = "texture objects: tex1Dfetch gather, tex2D bilinear resampling (normalized, clamp)",
    .ptx = ws_bench_micro_texture_ptx,
    .ptxinfo = ws_bench_micro_texture_ptxinfo,
    .run = run,
};
