/* sto: sliding-window MD5 over a random buffer (StoreGPU, ISPASS-2009 STO).
 * One launch of 128-thread blocks, 8 windows per thread. The CPU reference
 * is a plain MD5 of each 32-byte window, itself checked on "abc" first. */
#include "host_util.h"

extern const char ws_bench_ispass_sto_ptx[], ws_bench_ispass_sto_ptxinfo[];

#define THREADS 128
#define PER_THREAD 8
#define WINDOW 32

static unsigned K[64], R[64];

static void md5_init_tables(void) {
    static const unsigned sh[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    for (int i = 0; i < 64; i++) {
        K[i] = (unsigned)(unsigned long long)floor(fabs(sin((double)(i + 1))) * 4294967296.0);
        R[i] = sh[i / 16][i % 4];
    }
}

static unsigned rotl(unsigned x, unsigned s) { return (x << s) | (x >> (32 - s)); }

/* first digest word of MD5(msg[0..len)), len < 56 */
static unsigned md5_first_word(const unsigned char *msg, int len) {
    unsigned char blk[64] = {0};
    memcpy(blk, msg, (size_t)len);
    blk[len] = 0x80;
    unsigned long long bits = (unsigned long long)len * 8;
    for (int i = 0; i < 8; i++) blk[56 + i] = (unsigned char)(bits >> (8 * i));
    unsigned M[16];
    for (int j = 0; j < 16; j++)
        M[j] = (unsigned)blk[4 * j] | ((unsigned)blk[4 * j + 1] << 8) | ((unsigned)blk[4 * j + 2] << 16) |
               ((unsigned)blk[4 * j + 3] << 24);
    unsigned a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
    for (int i = 0; i < 64; i++) {
        unsigned f;
        int g;
        switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
        }
        unsigned t = d;
        d = c;
        c = b;
        b = b + rotl(f + a + K[i] + M[g], R[i]);
        a = t;
    }
    return a + 0x67452301u;
}

static int put_const(wl_ctx *c, const char *name, const void *src, size_t n) {
    ws_devptr p = 0;
    size_t sz = 0;
    if (c->failed) return 1;
    if (ws_module_get_global(c->m, name, &p, &sz) != WS_OK || sz != n) {
        fprintf(c->log, "sto: constant '%s' not found\n", name);
        c->failed = 1;
        return 1;
    }
    return wl_check(c, ws_memcpy_htod(c->d, p, src, n), name);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 384 blocks of 128 threads (the ISPASS-2009 STO launch) x 8
       windows = 393216 windows over a 384 KiB buffer (no size in the specs).
       small: 8 blocks, the last one partly used */
    const unsigned blocks = in == WS_INPUT_PAPER ? 384 : 8;
    const int nwin = (int)blocks * THREADS * PER_THREAD - (in == WS_INPUT_PAPER ? 0 : 300);
    const int nbytes = nwin + WINDOW - 1, nwords = (nbytes + 3) / 4;
    wl_ctx c;
    wl_init(&c, d, m, log, "sto");
    md5_init_tables();
    if (md5_first_word((const unsigned char *)"abc", 3) != 0x98500190u) {
        fprintf(log, "sto: CPU MD5 fails on \"abc\"\n");
        c.mismatches++;
    }
    unsigned char *buf = wl_host_alloc(&c, (size_t)nwords * 4);
    unsigned *out = wl_host_alloc(&c, (size_t)nwin * 4);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0570);
        for (int i = 0; i < nbytes; i++) buf[i] = (unsigned char)ws_rng_below(&r, 256);
    }
    put_const(&c, "md5K", K, sizeof K);
    put_const(&c, "md5R", R, sizeof R);
    ws_devptr dbuf = wl_upload(&c, buf, (size_t)nwords * 4), dout = wl_alloc(&c, (size_t)nwin * 4);
    ws_kernel *k = wl_kernel(&c, "_Z16slidingWindowMD5PKjiPji");
    int anw = nwords, anwin = nwin;
    void *args[] = {&dbuf, &anw, &dout, &anwin};
    wl_launch(&c, k, wl_dim(blocks, 1), wl_dim(THREADS, 1), args);
    wl_download(&c, out, dout, (size_t)nwin * 4);

    int boundaries = 0;
    if (!c.failed)
        for (int i = 0; i < nwin; i++) {
            unsigned want = md5_first_word(buf + i, WINDOW);
            wl_expect_i64(&c, "hash", i, out[i], want);
            if ((want & 0x3ff) == 0) boundaries++;
        }

    char summary[96];
    snprintf(summary, sizeof summary, "windows=%d window=%d boundaries=%d", nwin, WINDOW, boundaries);
    free(buf);
    free(out);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_sto = {
    .name = "sto",
    .suite = "ispass",
    .description = "StoreGPU sliding-window MD5, buffer span staged in shared memory",
    .ptx = ws_bench_ispass_sto_ptx,
    .ptxinfo = ws_bench_ispass_sto_ptxinfo,
    .run = run,
};
