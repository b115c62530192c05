/* leukocyte: the detection stage of leukocyte tracking on one generated
 * frame (bright cell rims on a noisy background). The host takes the image
 * gradient, uploads it column-major with the circle-sampling tables and the
 * disc structuring element, runs `gicovScore` (one block per interior row)
 * and `dilateMax` (one thread per pixel), and counts the cells: pixels whose
 * score is the local maximum and above a threshold. */
#include "host_util.h"

extern const char ws_bench_rodinia_leukocyte_ptx[], ws_bench_rodinia_leukocyte_ptxinfo[];

#define NPOINTS 150
#define NCIRCLES 7
#define MIN_RAD 8
#define RAD_STEP 2
#define MAX_RAD (MIN_RAD + RAD_STEP * (NCIRCLES - 1))
#define MARGIN (MAX_RAD + 2)
#define STREL_RAD 12
#define STREL_DIM (2 * STREL_RAD + 1)
#define DILATE_THREADS 176
#define THRESHOLD 8.0f
#define PI 3.14159265358979323846

static void to_constant(wl_ctx *c, const char *name, const void *src, size_t n) {
    ws_devptr p;
    size_t sz;
    if (c->failed) return;
    if (ws_module_get_global(c->m, name, &p, &sz) != WS_OK || sz != n) {
        fprintf(c->log, "%s: constant %s missing\n", c->name, name);
        c->failed = 1;
        return;
    }
    wl_check(c, ws_memcpy_htod(c->d, p, src, n), "memcpy to constant");
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: one 219 x 640 frame (the cropped frame size of the original's
       video; no size in the specs), 40 cells. small: 56 x 88, 3 cells */
    const int paper = in == WS_INPUT_PAPER;
    const int rows = paper ? 219 : 56, cols = paper ? 640 : 88, ncells = paper ? 40 : 3;
    const size_t px = (size_t)rows * cols, bytes = px * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "leukocyte");
    float *img = wl_host_alloc(&c, bytes), *gx = wl_host_alloc(&c, bytes), *gy = wl_host_alloc(&c, bytes);
    float *gicov = wl_host_alloc(&c, bytes), *dil = wl_host_alloc(&c, bytes);
    float sinv[NPOINTS], cosv[NPOINTS], strel[STREL_DIM * STREL_DIM];
    int offr[NCIRCLES * NPOINTS], offc[NCIRCLES * NPOINTS];
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0114);
        for (size_t i = 0; i < px; i++) img[i] = 0.3f + 0.1f * ws_rng_float(&r);
        for (int k = 0; k < ncells; k++) {
            double cy = MARGIN + ws_rng_below(&r, (unsigned)(rows - 2 * MARGIN));
            double cx = MARGIN + ws_rng_below(&r, (unsigned)(cols - 2 * MARGIN));
            double rad = MIN_RAD + ws_rng_float(&r) * (MAX_RAD - MIN_RAD);
            for (int y = 0; y < rows; y++)
                for (int x = 0; x < cols; x++) {
                    double dist = sqrt((y - cy) * (y - cy) + (x - cx) * (x - cx)) - rad;
                    if (fabs(dist) < 6.0) img[(size_t)y * cols + x] += (float)(0.6 * exp(-dist * dist / 4.5));
                }
        }
        /* central differences (one-sided at the edges), stored column-major */
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int x0 = x > 0 ? x - 1 : x, x1 = x < cols - 1 ? x + 1 : x;
                int y0 = y > 0 ? y - 1 : y, y1 = y < rows - 1 ? y + 1 : y;
                gx[(size_t)x * rows + y] = (img[(size_t)y * cols + x1] - img[(size_t)y * cols + x0]) / (float)(x1 - x0);
                gy[(size_t)x * rows + y] = (img[(size_t)y1 * cols + x] - img[(size_t)y0 * cols + x]) / (float)(y1 - y0);
            }
        for (int n = 0; n < NPOINTS; n++) {
            double a = 2.0 * PI * n / NPOINTS;
            sinv[n] = (float)sin(a);
            cosv[n] = (float)cos(a);
            for (int k = 0; k < NCIRCLES; k++) {
                double rad = MIN_RAD + RAD_STEP * k;
                offr[k * NPOINTS + n] = (int)lround(rad * sin(a));
                offc[k * NPOINTS + n] = (int)lround(rad * cos(a));
            }
        }
        for (int ec = 0; ec < STREL_DIM; ec++)
            for (int er = 0; er < STREL_DIM; er++) {
                int dr = er - STREL_RAD, dc = ec - STREL_RAD;
                strel[ec * STREL_DIM + er] = dr * dr + dc * dc <= STREL_RAD * STREL_RAD ? 1.0f : 0.0f;
            }
    }
    to_constant(&c, "cSin", sinv, sizeof sinv);
    to_constant(&c, "cCos", cosv, sizeof cosv);
    to_constant(&c, "cOffRow", offr, sizeof offr);
    to_constant(&c, "cOffCol", offc, sizeof offc);
    to_constant(&c, "cStrel", strel, sizeof strel);
    ws_devptr dgx = wl_upload(&c, gx, bytes), dgy = wl_upload(&c, gy, bytes);
    ws_devptr dgicov = wl_alloc(&c, bytes), ddil = wl_alloc(&c, bytes);
    wl_set(&c, dgicov, 0, bytes);
    ws_kernel *kg = wl_kernel(&c, "_Z10gicovScorePKfS0_Pfii");
    ws_kernel *kd = wl_kernel(&c, "_Z9dilateMaxPKfPfii");
    int R = rows, C = cols, mg = MARGIN;
    void *a1[] = {&dgx, &dgy, &dgicov, &R, &mg};
    wl_launch(&c, kg, wl_dim((unsigned)(rows - 2 * MARGIN), 1), wl_dim((unsigned)(cols - 2 * MARGIN), 1), a1);
    void *a2[] = {&dgicov, &ddil, &R, &C};
    wl_launch(&c, kd, wl_dim((unsigned)((px + DILATE_THREADS - 1) / DILATE_THREADS), 1), wl_dim(DILATE_THREADS, 1), a2);
    wl_download(&c, gicov, dgicov, bytes);
    wl_download(&c, dil, ddil, bytes);

    /* Scores: double reference (two-pass variance), tolerance 1e-3 relative
       (the device runs a float running variance). Dilation: exact, of the
       device's own scores. */
    long found = 0;
    if (!c.failed) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                size_t at = (size_t)x * rows + y;
                double best = 0.0;
                if (y >= MARGIN && y < rows - MARGIN && x >= MARGIN && x < cols - MARGIN)
                    for (int k = 0; k < NCIRCLES; k++) {
                        double p[NPOINTS], mean = 0.0, var = 0.0;
                        for (int n = 0; n < NPOINTS; n++) {
                            size_t s = (size_t)(x + offc[k * NPOINTS + n]) * rows + (size_t)(y + offr[k * NPOINTS + n]);
                            p[n] = (double)gx[s] * cosv[n] + (double)gy[s] * sinv[n];
                            mean += p[n];
                        }
                        mean /= NPOINTS;
                        for (int n = 0; n < NPOINTS; n++) var += (p[n] - mean) * (p[n] - mean);
                        var /= NPOINTS - 1;
                        double g = mean * mean / var;
                        if (g > best) best = g;
                    }
                wl_expect_near(&c, "gicov", (long)at, gicov[at], best, 1e-3, 1e-6);
            }
        for (int x = 0; x < cols; x++)
            for (int y = 0; y < rows; y++) {
                float best = 0.0f;
                for (int ec = 0; ec < STREL_DIM; ec++)
                    for (int er = 0; er < STREL_DIM; er++) {
                        int yy = y - STREL_RAD + er, xx = x - STREL_RAD + ec;
                        if (strel[ec * STREL_DIM + er] != 0.0f && yy >= 0 && yy < rows && xx >= 0 && xx < cols) {
                            float v = gicov[(size_t)xx * rows + yy];
                            if (v > best) best = v;
                        }
                    }
                size_t at = (size_t)x * rows + y;
                if (dil[at] != best) wl_mismatch(&c, "dilated", (long)at, "%.9g, expected %.9g", dil[at], best);
                if (gicov[at] > THRESHOLD && gicov[at] == dil[at]) found++;
            }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "frame=%dx%d cells=%d (maxima found %ld)", rows, cols, ncells, found);
    free(img);
    free(gx);
    free(gy);
    free(gicov);
    free(dil);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_leukocyte = {
    .name = "leukocyte",
    .suite = "rodinia",
    .description = "cell detection: GICOV circle scores (block per row) and disc dilation over one frame",
    .ptx = ws_bench_rodinia_leukocyte_ptx,
    .ptxinfo = ws_bench_rodinia_leukocyte_ptxinfo,
    .run = run,
};
