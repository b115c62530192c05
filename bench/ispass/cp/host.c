/* cp: Coulombic potential of random charged atoms on one z-slice of a lattice
 * (ISPASS-2009 CP). The host copies the atoms to constant memory a chunk of at
 * most MAXATOMS at a time, with z replaced by (slice z - atom z)^2, and
 * launches cenergy once per chunk, accumulating into the energy grid. */
#include "host_util.h"

extern const char ws_bench_ispass_cp_ptx[], ws_bench_ispass_cp_ptxinfo[];

#define MAXATOMS 4000
#define BX 16
#define BY 8
#define UNROLLX 8

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: grid (8,32) of 16x8 blocks = a 1024 x 256 slice, the ISPASS-2009
       CP launch shape; 5000 atoms (2 constant-memory chunks; the specs give
       no size and the original's 40000 atoms would take minutes).
       small: 128 x 32 slice, 300 atoms in chunks of 100 (3 launches) */
    const int paper = in == WS_INPUT_PAPER;
    const unsigned gx = paper ? 8 : 1, gy = paper ? 32 : 4;
    const int natoms = paper ? 5000 : 300, chunk = paper ? MAXATOMS : 100;
    const int nx = (int)(gx * BX * UNROLLX), ny = (int)(gy * BY);
    const float spacing = 0.1f, zplane = 2.0f;
    const size_t cells = (size_t)nx * ny, bytes = cells * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "cp");
    float *atoms = wl_host_alloc(&c, (size_t)natoms * 4 * sizeof(float));
    float *grid = wl_host_alloc(&c, bytes);
    float *chunkbuf = wl_host_alloc(&c, (size_t)MAXATOMS * 4 * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0c90);
        float lx = nx * spacing, ly = ny * spacing;
        for (int a = 0; a < natoms; a++) {
            atoms[4 * a + 0] = lx * ws_rng_float(&r);
            atoms[4 * a + 1] = ly * ws_rng_float(&r);
            atoms[4 * a + 2] = 4.0f * ws_rng_float(&r);
            atoms[4 * a + 3] = 2.0f * ws_rng_float(&r) - 1.0f;
        }
    }
    ws_devptr datoms = 0;
    size_t asize = 0;
    if (!c.failed && ws_module_get_global(m, "atominfo", &datoms, &asize) != WS_OK) {
        fprintf(log, "cp: constant 'atominfo' not found\n");
        c.failed = 1;
    }
    ws_devptr dgrid = wl_alloc(&c, bytes);
    wl_set(&c, dgrid, 0, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z7cenergyifPf");
    int launches = 0;
    for (int a0 = 0; a0 < natoms && !c.failed; a0 += chunk) {
        int n = natoms - a0 < chunk ? natoms - a0 : chunk;
        for (int a = 0; a < n; a++) {
            const float *p = atoms + 4 * (a0 + a);
            float dz = zplane - p[2];
            chunkbuf[4 * a + 0] = p[0];
            chunkbuf[4 * a + 1] = p[1];
            chunkbuf[4 * a + 2] = dz * dz;
            chunkbuf[4 * a + 3] = p[3];
        }
        wl_check(&c, ws_memcpy_htod(d, datoms, chunkbuf, (size_t)n * 4 * sizeof(float)), "copy to atominfo");
        float sp = spacing;
        void *args[] = {&n, &sp, &dgrid};
        wl_launch(&c, k, wl_dim(gx, gy), wl_dim(BX, BY), args);
        launches++;
    }
    wl_download(&c, grid, dgrid, bytes);

    /* reference in double; the GPU sums in float (per chunk, then adds), with
       rsqrtf: allow 1e-5 of the sum of |q|/r plus 1e-4 relative */
    if (!c.failed)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                double e = 0.0, mag = 0.0;
                double px = (double)(spacing * (float)x), py = (double)(spacing * (float)y);
                for (int a = 0; a < natoms; a++) {
                    double dx = px - atoms[4 * a], dy = py - atoms[4 * a + 1];
                    double dz = (double)(zplane - atoms[4 * a + 2]);
                    double t = atoms[4 * a + 3] / sqrt(dx * dx + dy * dy + dz * dz);
                    e += t;
                    mag += fabs(t);
                }
                wl_expect_near(&c, "energy", (long)y * nx + x, grid[(size_t)y * nx + x], e, 1e-4, 1e-5 * mag);
            }

    char summary[96];
    snprintf(summary, sizeof summary, "slice=%dx%d atoms=%d launches=%d", nx, ny, natoms, launches);
    free(atoms);
    free(grid);
    free(chunkbuf);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_cp = {
    .name = "cp",
    .suite = "ispass",
    .description = "Coulombic potential slice, atoms in constant memory, 8 points per thread",
    .ptx = ws_bench_ispass_cp_ptx,
    .ptxinfo = ws_bench_ispass_cp_ptxinfo,
    .run = run,
};
