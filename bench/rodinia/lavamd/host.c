/* lavamd: Rodinia lavaMD. boxes1d^3 boxes of 100 particles; each box's
 * neighbour list holds the adjacent boxes (up to 26) inside the grid. One
 * launch computes every particle's potential and force from all particles
 * of its own and neighbouring boxes. Positions and charges are random
 * multiples of 0.1 in [0.1, 1]; the CPU reference is the same sum in
 * double. */
#include <math.h>

#include "host_util.h"

extern const char ws_bench_rodinia_lavamd_ptx[], ws_bench_rodinia_lavamd_ptxinfo[];

#define PAR_PER_BOX 100
#define THREADS 128

typedef struct { double v, x, y, z; } vec4;
typedef struct {
    int x, y, z;
    int number;
    long long offset;
} nei_ref;
typedef struct {
    int x, y, z;
    int number;
    long long offset;
    int nn;
    nei_ref nei[26];
} box_t;

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: boxes1d = 8 (512 boxes, 51200 particles). Rodinia's default is
       boxes1d = 10 (seed003 gives no size), about twice this work, which
       would take over a minute functionally. small: 2 (8 boxes) */
    const int b = in == WS_INPUT_PAPER ? 8 : 2;
    const int nbox = b * b * b;
    const long npar = (long)nbox * PAR_PER_BOX;
    const double alpha = 0.5;
    wl_ctx c;
    wl_init(&c, d, m, log, "lavamd");
    box_t *boxes = wl_host_alloc(&c, (size_t)nbox * sizeof(box_t));
    vec4 *rv = wl_host_alloc(&c, (size_t)npar * sizeof(vec4)), *fv = wl_host_alloc(&c, (size_t)npar * sizeof(vec4));
    double *qv = wl_host_alloc(&c, (size_t)npar * sizeof(double));
    if (!c.failed) {
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++)
                for (int k = 0; k < b; k++) {
                    int h = i * b * b + j * b + k;
                    box_t *bx = &boxes[h];
                    bx->x = k;
                    bx->y = j;
                    bx->z = i;
                    bx->number = h;
                    bx->offset = (long long)h * PAR_PER_BOX;
                    bx->nn = 0;
                    for (int l = -1; l <= 1; l++)
                        for (int mm = -1; mm <= 1; mm++)
                            for (int n = -1; n <= 1; n++) {
                                int zi = i + l, yj = j + mm, xk = k + n;
                                if ((l || mm || n) && zi >= 0 && zi < b && yj >= 0 && yj < b && xk >= 0 && xk < b) {
                                    nei_ref *r = &bx->nei[bx->nn++];
                                    r->x = xk;
                                    r->y = yj;
                                    r->z = zi;
                                    r->number = zi * b * b + yj * b + xk;
                                    r->offset = (long long)r->number * PAR_PER_BOX;
                                }
                            }
                }
        ws_rng r;
        ws_rng_seed(&r, 0x5eed010d);
        for (long p = 0; p < npar; p++) {
            rv[p].v = (ws_rng_below(&r, 10) + 1) / 10.0;
            rv[p].x = (ws_rng_below(&r, 10) + 1) / 10.0;
            rv[p].y = (ws_rng_below(&r, 10) + 1) / 10.0;
            rv[p].z = (ws_rng_below(&r, 10) + 1) / 10.0;
            qv[p] = (ws_rng_below(&r, 10) + 1) / 10.0;
        }
    }
    ws_devptr dbox = wl_upload(&c, boxes, (size_t)nbox * sizeof(box_t));
    ws_devptr drv = wl_upload(&c, rv, (size_t)npar * sizeof(vec4));
    ws_devptr dqv = wl_upload(&c, qv, (size_t)npar * sizeof(double));
    ws_devptr dfv = wl_upload(&c, fv, (size_t)npar * sizeof(vec4)); /* zeros */
    ws_kernel *k = wl_kernel(&c, "_Z10lavaKerneldxPK3BoxPK4Vec4PKdPS2_");
    double a = alpha;
    long long nb = nbox;
    void *args[] = {&a, &nb, &dbox, &drv, &dqv, &dfv};
    wl_launch(&c, k, wl_dim((unsigned)nbox, 1), wl_dim(THREADS, 1), args);
    wl_download(&c, fv, dfv, (size_t)npar * sizeof(vec4));

    if (!c.failed) {
        double a2 = 2.0 * alpha * alpha;
        for (int h = 0; h < nbox; h++)
            for (int p = 0; p < PAR_PER_BOX; p++) {
                const vec4 *ra = &rv[boxes[h].offset + p];
                double s[4] = {0, 0, 0, 0}, mag = 0.0;
                for (int kk = 0; kk <= boxes[h].nn; kk++) {
                    long long first = kk == 0 ? boxes[h].offset : boxes[h].nei[kk - 1].offset;
                    for (int j = 0; j < PAR_PER_BOX; j++) {
                        const vec4 *rb = &rv[first + j];
                        double q = qv[first + j];
                        double r2 = ra->v + rb->v - (ra->x * rb->x + ra->y * rb->y + ra->z * rb->z);
                        double vij = exp(-a2 * r2), fs = 2.0 * vij;
                        s[0] += q * vij;
                        s[1] += q * fs * (ra->x - rb->x);
                        s[2] += q * fs * (ra->y - rb->y);
                        s[3] += q * fs * (ra->z - rb->z);
                        mag += q * fs;
                    }
                }
                const vec4 *g = &fv[boxes[h].offset + p];
                long idx = (long)(boxes[h].offset + p);
                double tol = 1e-12 * mag + 1e-12;
                wl_expect_near(&c, "fv.v", idx, g->v, s[0], 1e-12, tol);
                wl_expect_near(&c, "fv.x", idx, g->x, s[1], 0.0, tol);
                wl_expect_near(&c, "fv.y", idx, g->y, s[2], 0.0, tol);
                wl_expect_near(&c, "fv.z", idx, g->z, s[3], 0.0, tol);
            }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "boxes=%d^3 particles=%ld", b, npar);
    free(boxes);
    free(rv);
    free(fv);
    free(qv);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_lavamd = {
    .name = "lavamd",
    .suite = "rodinia",
    .description = "lavaMD particle forces (double): home box and neighbour boxes staged in shared memory",
    .ptx = ws_bench_rodinia_lavamd_ptx,
    .ptxinfo = ws_bench_rodinia_lavamd_ptxinfo,
    .run = run,
};
