/* The fat binary reader on hostile input: the crash inputs fuzzing found
 * (tests/data/fatbin/crash-*.bin, minimized; each crashed or read out of
 * bounds before the bounds arithmetic was rewritten), every truncation of
 * nvcc 13's fat binaries, and every single-byte corruption of them. Each
 * must give PTX or an error message, never a crash or an out-of-bounds read
 * (the input is an exact-size heap copy, so `make asan` catches any). */
#include <stdint.h>
#include <stdlib.h>

#include "runtime/fatbin.h"
#include "test.h"

/* The file under tests/data/fatbin, malloc'd, exactly its size. */
static uint8_t *load(const char *name, size_t *n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/fatbin/%s", ws_test_root(), name);
    FILE *f = fopen(path, "rb");
    uint8_t *d = NULL;
    long sz = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (d = malloc((size_t)sz)) && fread(d, 1, (size_t)sz, f) != (size_t)sz) {
        free(d);
        d = NULL;
    }
    if (f) fclose(f);
    CHECK_MSG(d != NULL, "cannot read %s", path);
    *n = d ? (size_t)sz : 0;
    return d;
}

/* Reads n bytes of data from an exact-size copy. Returns 1 for PTX, 0 for
   an error (which must come with a message). */
static int read_copy(const uint8_t *data, size_t n, char *err, size_t errlen) {
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) return 0;
    memcpy(copy, data, n);
    unsigned arch = 0;
    err[0] = '\0';
    char *ptx = ws_fatbin_ptx_from_data(copy, n, &arch, err, errlen);
    free(copy);
    if (!ptx) CHECK_MSG(err[0] != '\0', "no message for a failed read of %zu bytes", n);
    free(ptx);
    return ptx != NULL;
}

/* Runs fn on each nvcc 13 fat binary (a .nv_fatbin section without its
   leading empty header), loaded into an exact-size buffer fn may modify. */
static void each_valid(void (*fn)(const char *name, uint8_t *d, size_t n)) {
    static const char *const valid[] = {"vectoradd_z.fatbin", "vectoradd_nc.fatbin",
                                        "matmul_z.fatbin"};
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        size_t n;
        uint8_t *d = load(valid[i], &n);
        if (d) fn(valid[i], d, n);
        free(d);
    }
}

TEST(fatbin_fuzz_crashes_are_errors) {
    static const char *const crashes[] = {
        "crash-payload-past-end.bin", "crash-pointer-overflow.bin",
        "crash-zstd-out-of-bounds.bin", "crash-huge-decompressed-size.bin",
        "crash-wild-payload-pointer.bin",
    };
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) {
        size_t n;
        uint8_t *d = load(crashes[i], &n);
        if (!d) continue;
        char err[512];
        CHECK_MSG(!read_copy(d, n, err, sizeof err), "%s decoded", crashes[i]);
        /* and every prefix of it */
        for (size_t k = 1; k < n; k++) read_copy(d, k, err, sizeof err);
        free(d);
    }
}

static void decodes(const char *name, uint8_t *d, size_t n) {
    unsigned arch = 0;
    char err[512] = "";
    char *ptx = ws_fatbin_ptx_from_data(d, n, &arch, err, sizeof err);
    CHECK_MSG(ptx && strstr(ptx, ".entry") && arch == 75, "%s: %s", name, ptx ? "" : err);
    free(ptx);
    /* length unknown (a bare pointer, as cuModuleLoadData passes): same */
    ptx = ws_fatbin_ptx_from_data(d, 0, &arch, err, sizeof err);
    CHECK_MSG(ptx != NULL, "%s without length: %s", name, err);
    free(ptx);
}

TEST(fatbin_nvcc13_images_decode) { each_valid(decodes); }

static void truncations_fail(const char *name, uint8_t *d, size_t n) {
    char err[512];
    for (size_t k = 1; k < n; k++)
        CHECK_MSG(!read_copy(d, k, err, sizeof err), "%s cut to %zu bytes decoded", name, k);
    read_copy(d, 10, err, sizeof err);
    CHECK_STR_CONTAINS(err, "truncated");
}

TEST(fatbin_every_truncation_is_an_error) { each_valid(truncations_fail); }

/* Every byte set to values that break sizes in different ways (0, all ones,
   top bit flipped, off by one): no crash, and an error or PTX. */
static void corruptions_survive(const char *name, uint8_t *d, size_t n) {
    char err[512];
    (void)name;
    for (size_t at = 0; at < n; at++) {
        const uint8_t keep = d[at], vals[] = {0, 0xff, keep ^ 0x80, (uint8_t)(keep + 1)};
        for (size_t v = 0; v < sizeof vals; v++) {
            d[at] = vals[v];
            if (d[at] != keep) read_copy(d, n, err, sizeof err);
        }
        d[at] = keep;
    }
}

TEST(fatbin_single_byte_corruptions) { each_valid(corruptions_survive); }

/* Size fields set to the values that wrapped the old bounds checks, and a
   decompressed size over the cap. */
TEST(fatbin_hostile_sizes) {
    size_t n;
    uint8_t *d = load("vectoradd_z.fatbin", &n);
    if (!d) return;
    char err[512];
    const uint64_t big[] = {UINT64_MAX, UINT64_MAX - 15, UINT64_MAX - 63, 1ull << 63,
                            (uint64_t)WS_FATBIN_MAX_IMAGE + 1, n};
    struct { size_t off, width; } fields[] = {
        {6, 2},        /* header size */
        {8, 8},        /* entries' size */
        {16 + 4, 4},   /* entry header size */
        {16 + 8, 8},   /* payload size */
        {16 + 16, 4},  /* compressed size */
        {16 + 56, 8},  /* decompressed size */
    };
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) {
            uint8_t *c = malloc(n);
            if (!c) break;
            memcpy(c, d, n);
            memcpy(c + fields[f].off, &big[b], fields[f].width);  /* little-endian */
            CHECK_MSG(!read_copy(c, n, err, sizeof err), "field at %zu = 0x%llx decoded",
                      fields[f].off, (unsigned long long)big[b]);
            /* without a length the header is trusted, but only so far */
            if (fields[f].off == 8 && big[b] > WS_FATBIN_MAX_IMAGE) {
                unsigned arch;
                CHECK(ws_fatbin_ptx_from_data(c, 0, &arch, err, sizeof err) == NULL);
                CHECK_STR_CONTAINS(err, "at most");
            }
            free(c);
        }
    /* a decompressed size just over the cap is refused before allocating */
    uint64_t over = (uint64_t)WS_FATBIN_MAX_PTX + 1;
    memcpy(d + 16 + 56, &over, 8);
    CHECK(!read_copy(d, n, err, sizeof err));
    CHECK_STR_CONTAINS(err, "limit of 256 MiB");
    free(d);
}
