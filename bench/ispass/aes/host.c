/* aes: AES-128 ECB encryption of a buffer, 256-thread blocks with one thread
 * per 32-bit state column (Manavski's layout, the ISPASS-2009 AES). The host
 * expands the key into constant memory and builds the T-tables; the check is
 * a byte-wise AES (SubBytes / ShiftRows / MixColumns) on the CPU, itself
 * checked against the FIPS-197 example first. */
#include "host_util.h"

extern const char ws_bench_ispass_aes_ptx[], ws_bench_ispass_aes_ptxinfo[];

#define THREADS 256

static unsigned char sbox[256];

static unsigned char xtime(unsigned char x) { return (unsigned char)((x << 1) ^ ((x & 0x80) ? 0x1b : 0)); }

static unsigned char gmul(unsigned char a, unsigned char b) {
    unsigned char p = 0;
    while (b) {
        if (b & 1) p ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return p;
}

/* S-box from the multiplicative inverse in GF(2^8) and the affine map. */
static void build_sbox(void) {
    for (int x = 0; x < 256; x++) {
        unsigned char inv = 0;
        if (x)
            for (int y = 1; y < 256; y++)
                if (gmul((unsigned char)x, (unsigned char)y) == 1) {
                    inv = (unsigned char)y;
                    break;
                }
        unsigned char s = inv;
        unsigned char r = inv;
        for (int i = 0; i < 4; i++) {
            r = (unsigned char)((r << 1) | (r >> 7));
            s ^= r;
        }
        sbox[x] = (unsigned char)(s ^ 0x63);
    }
}

static void expand_key(const unsigned char key[16], unsigned char rk[176]) {
    memcpy(rk, key, 16);
    unsigned char rcon = 1;
    for (int i = 16; i < 176; i += 4) {
        unsigned char t[4] = {rk[i - 4], rk[i - 3], rk[i - 2], rk[i - 1]};
        if (i % 16 == 0) {
            unsigned char t0 = t[0];
            t[0] = (unsigned char)(sbox[t[1]] ^ rcon);
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        }
        for (int j = 0; j < 4; j++) rk[i + j] = (unsigned char)(rk[i - 16 + j] ^ t[j]);
    }
}

/* state[4*c + r] = row r of column c, as the bytes lie in memory */
static void encrypt_ref(const unsigned char rk[176], unsigned char st[16]) {
    for (int i = 0; i < 16; i++) st[i] ^= rk[i];
    for (int round = 1; round <= 10; round++) {
        unsigned char t[16];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) t[4 * c + r] = sbox[st[4 * ((c + r) & 3) + r]];
        if (round < 10)
            for (int c = 0; c < 4; c++) {
                unsigned char *p = t + 4 * c, a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3];
                p[0] = (unsigned char)(gmul(a0, 2) ^ gmul(a1, 3) ^ a2 ^ a3);
                p[1] = (unsigned char)(a0 ^ gmul(a1, 2) ^ gmul(a2, 3) ^ a3);
                p[2] = (unsigned char)(a0 ^ a1 ^ gmul(a2, 2) ^ gmul(a3, 3));
                p[3] = (unsigned char)(gmul(a0, 3) ^ a1 ^ a2 ^ gmul(a3, 2));
            }
        for (int i = 0; i < 16; i++) st[i] = (unsigned char)(t[i] ^ rk[16 * round + i]);
    }
}

static unsigned le32(const unsigned char *p) {
    return (unsigned)p[0] | ((unsigned)p[1] << 8) | ((unsigned)p[2] << 16) | ((unsigned)p[3] << 24);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 257 blocks of 1 KiB = 263168 bytes, the launch of the ISPASS-2009
       AES run (its 256 KiB bitmap plus header; no size in the specs).
       small: 24 blocks, the last one partly filled */
    const int nbytes = in == WS_INPUT_PAPER ? 257 * 1024 : 23 * 1024 + 400;
    const int nwords = nbytes / 4;
    const unsigned blocks = (unsigned)((nwords + THREADS - 1) / THREADS);
    wl_ctx c;
    wl_init(&c, d, m, log, "aes");
    build_sbox();

    /* FIPS-197 Appendix B example */
    {
        const unsigned char key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                       0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
        unsigned char pt[16] = {0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d,
                                0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34};
        const unsigned char ct[16] = {0x39, 0x25, 0x84, 0x1d, 0x02, 0xdc, 0x09, 0xfb,
                                      0xdc, 0x11, 0x85, 0x97, 0x19, 0x6a, 0x0b, 0x32};
        unsigned char rk[176];
        expand_key(key, rk);
        encrypt_ref(rk, pt);
        if (memcmp(pt, ct, 16) != 0) {
            fprintf(log, "aes: CPU reference fails the FIPS-197 example\n");
            c.mismatches++;
        }
    }

    unsigned char *plain = wl_host_alloc(&c, (size_t)nbytes);
    unsigned *out = wl_host_alloc(&c, (size_t)nbytes);
    unsigned *tables = wl_host_alloc(&c, 5 * 256 * sizeof(unsigned));
    unsigned char key[16], rk[176];
    unsigned rkw[44];
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0a35);
        for (int i = 0; i < 16; i++) key[i] = (unsigned char)ws_rng_below(&r, 256);
        for (int i = 0; i < nbytes; i++) plain[i] = (unsigned char)ws_rng_below(&r, 256);
        expand_key(key, rk);
        for (int i = 0; i < 44; i++) rkw[i] = le32(rk + 4 * i);
        for (int x = 0; x < 256; x++) {
            unsigned s = sbox[x];
            unsigned t = gmul((unsigned char)s, 2) | (s << 8) | (s << 16) | ((unsigned)gmul((unsigned char)s, 3) << 24);
            for (int k = 0; k < 4; k++) tables[k * 256 + x] = (t << (8 * k)) | (k ? t >> (32 - 8 * k) : 0);
            tables[1024 + x] = s;
        }
    }

    ws_devptr dkey = 0;
    size_t ksize = 0;
    if (!c.failed && (ws_module_get_global(m, "roundKey", &dkey, &ksize) != WS_OK || ksize != sizeof rkw)) {
        fprintf(log, "aes: constant 'roundKey' not found\n");
        c.failed = 1;
    }
    if (!c.failed) wl_check(&c, ws_memcpy_htod(d, dkey, rkw, sizeof rkw), "copy to roundKey");
    ws_devptr dtab = wl_upload(&c, tables, 5 * 256 * sizeof(unsigned));
    ws_devptr din = wl_upload(&c, plain, (size_t)nbytes);
    ws_devptr dout = wl_alloc(&c, (size_t)nbytes);
    ws_kernel *k = wl_kernel(&c, "_Z13aesEncrypt128PKjS0_Pji");
    int nw = nwords;
    void *args[] = {&dtab, &din, &dout, &nw};
    wl_launch(&c, k, wl_dim(blocks, 1), wl_dim(THREADS, 1), args);
    wl_download(&c, out, dout, (size_t)nbytes);

    if (!c.failed)
        for (int b = 0; b < nbytes / 16; b++) {
            unsigned char st[16];
            memcpy(st, plain + 16 * b, 16);
            encrypt_ref(rk, st);
            for (int w = 0; w < 4; w++) wl_expect_i64(&c, "out", 4L * b + w, out[4 * b + w], le32(st + 4 * w));
        }

    char summary[96];
    snprintf(summary, sizeof summary, "bytes=%d blocks=%u", nbytes, blocks);
    free(plain);
    free(out);
    free(tables);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_aes = {
    .name = "aes",
    .suite = "ispass",
    .description = "AES-128 ECB, one thread per state column, T-tables in shared memory",
    .ptx = ws_bench_ispass_aes_ptx,
    .ptxinfo = ws_bench_ispass_aes_ptxinfo,
    .run = run,
};
