/* Embedding API tests: module load, memory, launches, launch-config and
 * kernel-fault errors, stats JSON, fat binary extraction. No nvcc needed. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "runtime/fatbin.h"
#include "stats/report.h"
#include "test.h"
#include "warpsim/warpsim.h"
#include "tmpdir.h"

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

static ws_device *open_dev(const char *stats_dir) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.stats_dir = stats_dir;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) return NULL;
    return d;
}

static ws_module_handle *load_vecadd(ws_device *d) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/driver/vecadd.ptx", ws_test_root());
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load_file(d, path, &m);
    CHECK_MSG(s == WS_OK, "load %s: %s: %s", path, ws_status_name(s), ws_device_last_error(d));
    return m;
}

TEST(runtime_status_names) {
    CHECK(strcmp(ws_status_name(WS_OK), "WS_OK") == 0);
    CHECK(strcmp(ws_status_name(WS_ERR_ILLEGAL_ADDRESS), "WS_ERR_ILLEGAL_ADDRESS") == 0);
    CHECK(strcmp(ws_status_name(WS_ERR_IO), "WS_ERR_IO") == 0);
    CHECK(strcmp(ws_status_name((ws_status)999), "WS_ERR_UNKNOWN") == 0);
}

TEST(runtime_props_gtx480) {
    ws_device *d = open_dev(NULL);
    CHECK(d != NULL);
    if (!d) return;
    ws_device_props p;
    ws_device_get_props(d, &p);
    CHECK_EQ_I64(p.num_sms, 15);
    CHECK_EQ_U64(p.total_global_mem, 1536ull << 20);
    CHECK_EQ_I64(p.cc_major, 7);
    CHECK_EQ_I64(p.cc_minor, 5);
    CHECK_EQ_U64(p.shared_per_block, 49152);
    ws_device_destroy(d);
}

TEST(runtime_vecadd_launch) {
    ws_device *d = open_dev(NULL);
    if (!d) { CHECK(d != NULL); return; }
    ws_module_handle *m = load_vecadd(d);
    if (!m) { ws_device_destroy(d); return; }
    ws_kernel *k = NULL;
    CHECK(ws_module_get_kernel(m, "vecadd", &k) == WS_OK);
    CHECK(ws_module_get_kernel(m, "nosuch", &k) == WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "nosuch");
    CHECK(ws_module_get_kernel(m, "vecadd", &k) == WS_OK);
    CHECK_EQ_I64(ws_kernel_num_params(k), 4);
    size_t off, sz;
    ws_kernel_param_layout(k, 3, &off, &sz);
    CHECK_EQ_U64(off, 24);
    CHECK_EQ_U64(sz, 4);
    enum { N = 1000 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 2.0f * (float)i; }
    ws_devptr da, db, dc;
    CHECK(ws_malloc(d, sizeof a, &da) == WS_OK);
    CHECK(ws_malloc(d, sizeof b, &db) == WS_OK);
    CHECK(ws_malloc(d, sizeof c, &dc) == WS_OK);
    CHECK(ws_is_device_ptr(d, da, sizeof a));
    CHECK(!ws_is_device_ptr(d, da, sizeof a + 4096));
    CHECK(ws_memcpy_htod(d, da, a, sizeof a) == WS_OK);
    CHECK(ws_memcpy_htod(d, db, b, sizeof b) == WS_OK);
    CHECK(ws_memset(d, dc, 0, sizeof c) == WS_OK);
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    ws_status s = ws_launch(d, k, (ws_dim3){(N + 127) / 128, 1, 1}, (ws_dim3){128, 1, 1}, 0, args);
    CHECK_MSG(s == WS_OK, "launch: %s: %s", ws_status_name(s), ws_device_last_error(d));
    CHECK(ws_memcpy_dtoh(d, c, dc, sizeof c) == WS_OK);
    int errs = 0;
    for (int i = 0; i < N; i++) errs += c[i] != a[i] + b[i];
    CHECK_EQ_I64(errs, 0);
    ws_run_totals t;
    ws_device_totals(d, &t);
    CHECK_EQ_U64(t.kernels, 1);
    CHECK(t.warp_insts > 0 && t.thread_insts > t.warp_insts);
    CHECK_EQ_U64(ws_device_cycles(d), 0);  /* functional mode */

    /* a module-scope .global, read and written through ws_module_get_global */
    ws_devptr g;
    size_t gsz;
    CHECK(ws_module_get_global(m, "counter", &g, &gsz) == WS_OK);
    CHECK_EQ_U64(gsz, 4);
    uint32_t v = 0, out[32];
    CHECK(ws_memcpy_dtoh(d, &v, g, 4) == WS_OK);
    CHECK_EQ_U64(v, 7);
    v = 40;
    CHECK(ws_memcpy_htod(d, g, &v, 4) == WS_OK);
    CHECK(ws_module_get_kernel(m, "readglobal", &k) == WS_OK);
    void *args2[] = {&dc};
    CHECK(ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, args2) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, out, dc, sizeof out) == WS_OK);
    CHECK_EQ_U64(out[0], 40);
    CHECK_EQ_U64(out[31], 71);
    CHECK(ws_module_get_global(m, "nosuch", &g, &gsz) == WS_ERR_NOT_FOUND);
    ws_device_destroy(d);
}

TEST(runtime_launch_config_errors) {
    ws_device *d = open_dev(NULL);
    if (!d) { CHECK(d != NULL); return; }
    ws_module_handle *m = load_vecadd(d);
    ws_kernel *k = NULL;
    if (!m || ws_module_get_kernel(m, "vecadd", &k) != WS_OK) { ws_device_destroy(d); return; }
    ws_devptr p;
    CHECK(ws_malloc(d, 4096, &p) == WS_OK);
    int n = 1;
    void *args[] = {&p, &p, &p, &n};
    ws_status s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){512, 4, 1}, 0, args);
    CHECK(s == WS_ERR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "2048 threads");
    CHECK_STR_CONTAINS(ws_device_last_error(d), "vecadd");
    s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){1, 1, 65}, 0, args);
    CHECK(s == WS_ERR_INVALID_CONFIG);
    s = ws_launch(d, k, (ws_dim3){0, 1, 1}, (ws_dim3){32, 1, 1}, 0, args);
    CHECK(s == WS_ERR_INVALID_CONFIG);
    s = ws_launch(d, k, (ws_dim3){1, 70000, 1}, (ws_dim3){32, 1, 1}, 0, args);
    CHECK(s == WS_ERR_INVALID_CONFIG);
    s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 49153, args);
    CHECK(s == WS_ERR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "shared memory");
    uint8_t buf[8] = {0};
    s = ws_launch_packed(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, buf, sizeof buf);
    CHECK(s == WS_ERR_INVALID_VALUE);
    ws_run_totals t;
    ws_device_totals(d, &t);
    CHECK_EQ_U64(t.kernels, 0);  /* nothing ran */
    ws_device_destroy(d);
}

static void illegal_address(int functional) {
    /* exact checking: the freed buffer below shares its 2 MiB region with
       live ones, which would keep it mapped (test_memcheck.c tests that) */
    static const char *const sets[] = {"-warpsim_map_granularity 1", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    o.config_overrides = sets;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) d = NULL;
    if (!d) { CHECK(d != NULL); return; }
    ws_module_handle *m = load_vecadd(d);
    ws_kernel *k = NULL;
    if (!m || ws_module_get_kernel(m, "vecadd", &k) != WS_OK) { ws_device_destroy(d); return; }
    ws_devptr a, c;
    CHECK(ws_malloc(d, 256, &a) == WS_OK);
    CHECK(ws_malloc(d, 4096, &c) == WS_OK);
    ws_devptr bad = 0x10;  /* never allocated */
    int n = 64;
    void *args[] = {&a, &bad, &c, &n};
    ws_status s = ws_launch(d, k, (ws_dim3){2, 1, 1}, (ws_dim3){32, 1, 1}, 0, args);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    const char *e = ws_device_last_error(d);
    CHECK_STR_CONTAINS(e, "vecadd");
    CHECK_STR_CONTAINS(e, "CTA");
    CHECK_STR_CONTAINS(e, "thread");
    CHECK_STR_CONTAINS(e, "pc");
    CHECK_STR_CONTAINS(e, "0x10");

    /* use after free: the freed buffer is no longer valid for kernels */
    ws_devptr b;
    CHECK(ws_malloc(d, 256, &b) == WS_OK);
    CHECK(ws_free(d, b) == WS_OK);
    CHECK(ws_free(d, b) == WS_ERR_INVALID_VALUE);  /* double free */
    uint32_t x = 0;
    CHECK(ws_memcpy_dtoh(d, &x, b, 4) == WS_ERR_ILLEGAL_ADDRESS);
    void *args2[] = {&a, &b, &c, &n};
    s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, args2);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    ws_device_destroy(d);
}

TEST(runtime_illegal_address_message) { illegal_address(1); }
/* The timing model executes the same engine at issue: same fault, same message. */
TEST(runtime_illegal_address_message_timing) { illegal_address(0); }

TEST(runtime_bad_inputs) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.config_file = "/nonexistent/warpsim.config";
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_ERR_IO);
    CHECK(d == NULL);
    d = open_dev(NULL);
    if (!d) return;
    ws_module_handle *m = NULL;
    const char *bad = ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k() {\n  bogus.op %r1;\n}\n";
    /* an unsupported instruction: the module loads, its kernel is refused */
    ws_status s = ws_module_load(d, bad, 0, "bad.ptx", NULL, &m);
    CHECK(s == WS_OK);
    ws_kernel *k = NULL;
    CHECK(m && ws_module_get_kernel(m, "k", &k) == WS_OK);
    CHECK(k && ws_launch_packed(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, NULL, 0) ==
                   WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "bad.ptx:5:3: error: unsupported instruction 'bogus.op'");
    const char *worse = ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k() {\n  ret\n}\n";
    m = NULL;
    s = ws_module_load(d, worse, 0, "bad.ptx", NULL, &m);
    CHECK(s == WS_ERR_INVALID_PTX);
    CHECK(m == NULL);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "bad.ptx");
    CHECK(ws_module_load_file(d, "/nonexistent.ptx", &m) == WS_ERR_IO);
    ws_device_destroy(d);
}

TEST(runtime_stats_json) {
    char dir[] = "/tmp/warpsim_stats_XXXXXX";
    if (!mkdtemp(dir)) { CHECK(0); return; }
    ws_device *d = open_dev(dir);
    if (!d) { CHECK(d != NULL); return; }
    ws_module_handle *m = load_vecadd(d);
    ws_kernel *k = NULL;
    if (m && ws_module_get_kernel(m, "readglobal", &k) == WS_OK) {
        ws_devptr p;
        CHECK(ws_malloc(d, 4096, &p) == WS_OK);
        void *args[] = {&p};
        CHECK(ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, args) == WS_OK);
        CHECK(ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, args) == WS_OK);
    }
    ws_device_destroy(d);
    char path[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    char *j = slurp(path);
    CHECK(j != NULL);
    if (j) {
        CHECK(j[0] == '[');
        CHECK_STR_CONTAINS(j, "\"kernel_name\": \"readglobal\"");
        CHECK_STR_CONTAINS(j, "\"kernel_launch_uid\": 2");
        CHECK_STR_CONTAINS(j, "\"gpu_tot_issued_cta\": 2");
        CHECK_STR_CONTAINS(j, "},{");
    }
    free(j);
    ws_test_rmtree(dir);
}

TEST(runtime_report_text) {
    ws_kernel_stats s;
    ws_kstats_init(&s);
    snprintf(s.kernel_name, sizeof s.kernel_name, "_Z6vecAddPKfS0_Pfi");
    s.launch_uid = 1;
    s.functional_only = 1;
    s.sim_insn = s.tot_sim_insn = 1376256;
    s.tot_issued_cta = 256;
    s.wall_s = s.tot_wall_s = 0.5;
    CHECK(ws_kstats_add_u64(&s, "L1D_total_cache_accesses", 6144) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_report_text(f, &s);
    fclose(f);
    CHECK_STR_CONTAINS(buf, "kernel_name = _Z6vecAddPKfS0_Pfi \n");
    CHECK_STR_CONTAINS(buf, "kernel_launch_uid = 1 \n");
    CHECK_STR_CONTAINS(buf, "gpu_sim_insn = 1376256\n");
    CHECK_STR_CONTAINS(buf, "gpu_tot_issued_cta = 256\n");
    CHECK_STR_CONTAINS(buf, "L1D_total_cache_accesses = 6144\n");
    CHECK_STR_CONTAINS(buf, "gpu_total_sim_rate=2752512\n");
    CHECK(!strstr(buf, "gpu_sim_cycle"));  /* functional: no fake cycles */
    free(buf);
    ws_kstats_free(&s);
}

/* ---- fat binaries ---- */
static size_t put_entry(uint8_t *p, uint16_t kind, unsigned arch, const void *payload, size_t n,
                        uint64_t flags, size_t dsize) {
    size_t padded = (n + 7) & ~(size_t)7;
    memset(p, 0, 80 + padded);
    memcpy(p, &kind, 2);
    uint32_t hs = 80;
    memcpy(p + 4, &hs, 4);
    uint64_t ps = padded;
    memcpy(p + 8, &ps, 8);
    uint32_t cs = (flags & 0x8000) ? (uint32_t)n : 0;
    memcpy(p + 16, &cs, 4);
    uint32_t a = arch;
    memcpy(p + 28, &a, 4);
    memcpy(p + 40, &flags, 8);
    uint64_t ds = dsize;
    memcpy(p + 56, &ds, 8);
    memcpy(p + 80, payload, n);
    return 80 + padded;
}

static size_t put_header(uint8_t *p, size_t body) {
    uint32_t magic = WS_FATBIN_MAGIC;
    uint16_t ver = 1, hs = 16;
    uint64_t fs = body;
    memcpy(p, &magic, 4);
    memcpy(p + 4, &ver, 2);
    memcpy(p + 6, &hs, 2);
    memcpy(p + 8, &fs, 8);
    return 16;
}

TEST(runtime_fatbin_extract) {
    static uint8_t fb[8192];
    const char *ptx52 = ".version 7.0\n.target sm_52\n// old\n";
    const char *ptx75 = ".version 7.5\n.target sm_75\n// new\n";
    uint8_t z[1024];
    size_t zn = ZSTD_compress(z, sizeof z, ptx75, strlen(ptx75), 3);
    CHECK(!ZSTD_isError(zn));
    size_t body = 0;
    uint8_t *e = fb + 16;
    body += put_entry(e + body, 2, 75, "\177ELF....", 8, 0x11, 0);
    body += put_entry(e + body, 1, 52, ptx52, strlen(ptx52) + 1, 0x11, 0);
    body += put_entry(e + body, 1, 75, z, zn, 0x8011, strlen(ptx75));
    put_header(fb, body);
    struct { uint32_t magic, version; const void *data; void *unused; } wrapper = {
        WS_FATBIN_WRAPPER_MAGIC, 1, fb, NULL};
    char err[512] = "";
    unsigned arch = 0;
    char *ptx = ws_fatbin_extract_ptx(&wrapper, &arch, err, sizeof err);
    CHECK_MSG(ptx != NULL, "%s", err);
    if (ptx) {
        CHECK_EQ_U64(arch, 75);
        CHECK(strcmp(ptx, ptx75) == 0);  /* highest arch, decompressed */
    }
    free(ptx);

    /* cubin only: a clear message that says how to embed PTX */
    body = put_entry(fb + 16, 2, 75, "\177ELF....", 8, 0x11, 0);
    put_header(fb, body);
    ptx = ws_fatbin_extract_ptx(&wrapper, &arch, err, sizeof err);
    CHECK(ptx == NULL);
    CHECK_STR_CONTAINS(err, "-gencode arch=compute_XX,code=compute_XX");
    free(ptx);

    wrapper.magic = 0x1234;
    CHECK(ws_fatbin_extract_ptx(&wrapper, &arch, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "magic");
}

/* A run the instruction cap stops must not look finished: the stopped
 * kernel is marked in the text report and the JSON, later launches are
 * counted as skipped, and the device says so on stderr. */
static void capped_run(int functional) {
    char dir[] = "/tmp/warpsim_capped_XXXXXX";
    if (!mkdtemp(dir)) { CHECK(0); return; }
    char *text = NULL;
    size_t tlen = 0;
    FILE *tf = open_memstream(&text, &tlen);
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = functional;
    o.stats_dir = dir;
    o.report = tf;
    o.max_insn = 1000;
    ws_device *d = NULL;
    ws_test_stderr cap; /* the notices go to stderr */
    ws_test_stderr_begin(&cap);
    if (ws_device_create(&o, &d) == WS_OK) {
        ws_module_handle *m = load_vecadd(d);
        ws_kernel *k = NULL;
        if (m && ws_module_get_kernel(m, "vecadd", &k) == WS_OK) {
            ws_devptr a, c;
            CHECK(ws_malloc(d, 1 << 16, &a) == WS_OK);
            CHECK(ws_malloc(d, 1 << 16, &c) == WS_OK);
            int n = 8192;
            void *args[] = {&a, &a, &c, &n};
            for (int i = 0; i < 3; i++)
                CHECK(ws_launch(d, k, (ws_dim3){32, 1, 1}, (ws_dim3){256, 1, 1}, 0, args) == WS_OK);
            ws_run_totals t;
            ws_device_totals(d, &t);
            CHECK(t.capped);
            CHECK_EQ_U64(t.kernels, 1);
            CHECK_EQ_U64(t.skipped_launches, 2);
        }
        ws_device_destroy(d);
    } else {
        CHECK(0);
    }
    char *errs = ws_test_stderr_end(&cap);
    fclose(tf);
    CHECK_STR_CONTAINS(text, "warpsim_capped = 1");
    char path[300];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    char *j = slurp(path);
    CHECK_STR_CONTAINS(j ? j : "", "\"warpsim_capped\": 1");
    CHECK_STR_CONTAINS(errs, "stopped kernel vecadd (launch 1) before its end");
    CHECK_STR_CONTAINS(errs, "2 launches skipped after the instruction cap (kernels vecadd)");
    free(j);
    free(errs);
    free(text);
    ws_test_rmtree(dir);
}

TEST(runtime_capped_run_is_marked_functional) { capped_run(1); }
TEST(runtime_capped_run_is_marked_timing) { capped_run(0); }

/* A module with unsupported instructions loads: kernels that do not reach
   them run; one that does (directly or through a call) is refused at launch,
   naming the instruction and its PTX line, and the device goes on. */
TEST(runtime_unsupported_refuses_only_its_kernels) {
    ws_device *d = open_dev(NULL);
    if (!d) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/ptx/unsupported.ptx", ws_test_root());
    ws_module_handle *m = NULL;
    CHECK(ws_module_load_file(d, path, &m) == WS_OK);
    ws_kernel *good = NULL, *bad = NULL, *bad2 = NULL;
    CHECK(m && ws_module_get_kernel(m, "good", &good) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "bad", &bad) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "bad2", &bad2) == WS_OK);
    if (!good || !bad || !bad2) { ws_device_destroy(d); return; }
    CHECK(ws_kernel_unsupported(good) == NULL);
    ws_devptr out = 0;
    CHECK(ws_malloc(d, 64 * 4, &out) == WS_OK);
    void *args[] = {&out};
    CHECK(ws_launch(d, bad, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, 0, args) == WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "launch of bad refused: it calls helper, which has an "
                                                "unsupported instruction: ");
    CHECK_STR_CONTAINS(ws_device_last_error(d), "unsupported.ptx:12:2: error: unsupported instruction "
                                                "'frobnicate.b32' (line 12)");
    CHECK(ws_launch(d, bad2, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, 0, args) == WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "launch of bad2 refused: it has an unsupported instruction: ");
    CHECK_STR_CONTAINS(ws_device_last_error(d), "'add.bogus.u32' (line 39): unknown modifier '.bogus'");
    CHECK(ws_launch(d, good, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, 0, args) == WS_OK);
    uint32_t h[64];
    CHECK(ws_memcpy_dtoh(d, h, out, sizeof h) == WS_OK);
    int wrong = 0;
    for (uint32_t i = 0; i < 64; i++) wrong += h[i] != 3 * i;
    CHECK_EQ_I64(wrong, 0);
    ws_device_destroy(d);
}

/* `warpsim ptx-check` lists every problem of a file in line order (unsupported
   instructions, undefined names, syntax errors), not just the first. */
TEST(runtime_ptx_check_lists_all_problems) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/warpsim ptx-check %s/tests/data/ptx/problems.ptx 2>&1",
             getenv("WARPSIM_BUILD") ? getenv("WARPSIM_BUILD") : "build", ws_test_root());
    FILE *p = popen(cmd, "r");
    if (!p) { CHECK(0); return; }
    char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    const char *want[] = {
        "problems.ptx:10:2: error: unsupported instruction 'frobnicate.u32' (line 10)\n",
        "problems.ptx:11:20: error: undefined register '%r9'\n",
        "problems.ptx:12:6: error: undefined label 'NOWHERE'\n",
        "problems.ptx:13:14: error: expected ';', found '%r2'\n",
        "problems.ptx:14:2: error: unsupported instruction 'add.bogus.s32' (line 14)",
        "problems.ptx:15:22: error: undefined identifier 'nosuch'\n",
        "problems.ptx:22:2: error: unsupported instruction 'wgmma.fence.sync.aligned' (line 22)\n",
        /* skipping goes over braces inside a statement, and stops at the block's end */
        "problems.ptx:30:26: error: address initialiser needs a 8-byte element type\n",
        "problems.ptx:31:2: error: unsupported instruction 'tex.2dms.v4.f32.s32' (line 31)",
        "problems.ptx:33:1: error: expected ';', found '}'\n",
        "problems.ptx: 10 problems\n",
    };
    const char *at = out;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *f = strstr(at, want[i]);
        CHECK_MSG(f != NULL, "missing or out of order: %s in:\n%s", want[i], out);
        if (f) at = f + strlen(want[i]);
    }
}

/* vprintf's format handling on a hand-built argument buffer: '*' width,
   a negative '*' precision (none), %s with precision, %%, an unknown
   conversion printed as written; the return value is the argument count. */
TEST(runtime_vprintf_formats) {
    const char *fmt = "[%*d] [%.*f] [%5.2s] 100%% %y|\n";
    char bytes[512] = "";
    size_t n = 0;
    for (const char *c = fmt;; c++) {
        n += (size_t)snprintf(bytes + n, sizeof bytes - n, "%s%d", c == fmt ? "" : ", ", *c);
        if (!*c) break;
    }
    char ptx[4096];
    snprintf(ptx, sizeof ptx,
             ".version 7.5\n.target sm_75\n.address_size 64\n"
             ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
             ".global .align 1 .b8 fmt[%zu] = {%s};\n"
             ".global .align 1 .b8 str[6] = {104, 101, 108, 108, 111, 0};\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".local .align 8 .b8 buf[32];\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<10>;\n.reg .f64 %%fd<2>;\n"
             "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r3, 6;\nst.local.u32 [buf], %%r3;\n"
             "st.local.u32 [buf+4], %%r1;\nmov.u32 %%r4, -1;\nst.local.u32 [buf+8], %%r4;\n"
             "mov.f64 %%fd1, 0d3FF8000000000000;\nst.local.f64 [buf+16], %%fd1;\n"
             "mov.u64 %%rd3, str;\ncvta.global.u64 %%rd4, %%rd3;\nst.local.u64 [buf+24], %%rd4;\n"
             "mov.u64 %%rd1, buf;\ncvta.local.u64 %%rd2, %%rd1;\n"
             "mov.u64 %%rd5, fmt;\ncvta.global.u64 %%rd6, %%rd5;\n"
             "{\n.param .b64 a;\n.param .b64 b;\n.param .b32 r;\nst.param.b64 [a], %%rd6;\n"
             "st.param.b64 [b], %%rd2;\ncall.uni (r), vprintf, (a, b);\nld.param.b32 %%r2, [r];\n}\n"
             "ld.param.u64 %%rd7, [out];\nmul.wide.u32 %%rd8, %%r1, 4;\nadd.u64 %%rd9, %%rd7, %%rd8;\n"
             "st.global.u32 [%%rd9], %%r2;\nret;\n}\n",
             strlen(fmt) + 1, bytes);
    ws_device *d = open_dev(NULL);
    if (!d) return;
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr out = 0;
    CHECK(ws_module_load(d, ptx, 0, "fmt.ptx", NULL, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "k", &k) == WS_OK);
    CHECK(ws_malloc(d, 2 * 4, &out) == WS_OK);
    void *args[] = {&out};
    if (k) CHECK(ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){2, 1, 1}, 0, args) == WS_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_device_print_output(d, f);
    fclose(f);
    CHECK_MSG(text && !strcmp(text, "[     0] [1.500000] [   he] 100% %y|\n[     1] [1.500000] [   he] 100% %y|\n"),
              "got: %s", text ? text : "");
    uint32_t ret[2] = {0, 0};
    CHECK(ws_memcpy_dtoh(d, ret, out, sizeof ret) == WS_OK);
    CHECK_EQ_I64(ret[0], 5);
    CHECK_EQ_I64(ret[1], 5);
    free(text);
    ws_device_destroy(d);
}

/* Cluster launches through the public API, on the timing model: a kernel's
   __cluster_dims__ is its shape unless the launch names the same one; a
   cluster that does not fit on one SM (where the timing model places a
   cluster) and shapes CUDA refuses fail with messages; a fitting one runs
   and reports its cycles. */
TEST(runtime_cluster_launches_timing) {
    static const char *ptx =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.shared .align 4 .b32 v[32];\n"
        "ld.param.u64 %rd1, [p];\nmov.u32 %r0, %tid.x;\nmov.u32 %r1, %cluster_ctarank;\n"
        "shl.b32 %r2, %r0, 2;\nmov.u32 %r3, v;\nadd.u32 %r3, %r3, %r2;\nst.shared.u32 [%r3], %r1;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nxor.b32 %r4, %r1, 1;\n"
        "mapa.shared::cluster.u32 %r5, %r3, %r4;\nld.shared::cluster.u32 %r6, [%r5];\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
        "mov.u32 %r7, %ctaid.x;\nmad.lo.u32 %r7, %r7, 32, %r0;\nmul.wide.u32 %rd2, %r7, 4;\n"
        "add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n"
        ".visible .entry big(.param .u64 p)\n{\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = 0;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) { CHECK(d != NULL); return; }
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL, *big = NULL;
    CHECK(ws_module_load(d, ptx, 0, "cl.ptx", NULL, &m) == WS_OK);
    if (!m || ws_module_get_kernel(m, "k", &k) != WS_OK || ws_module_get_kernel(m, "big", &big) != WS_OK) {
        ws_device_destroy(d);
        return;
    }
    ws_devptr out;
    CHECK(ws_malloc(d, 8 * 32 * 4, &out) == WS_OK);
    void *args[] = {&out};
    uint64_t c0 = ws_device_cycles(d);
    CHECK_EQ_I64(ws_launch(d, k, (ws_dim3){8, 1, 1}, (ws_dim3){32, 1, 1}, 0, args), WS_OK);
    CHECK(ws_device_cycles(d) > c0);
    uint32_t got[8 * 32];
    CHECK(ws_memcpy_dtoh(d, got, out, sizeof got) == WS_OK);
    unsigned bad = 0;
    for (int i = 0; i < 8 * 32; i++) bad += got[i] != (uint32_t)((i / 32) % 2 ^ 1);
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_I64(ws_launch_cluster(d, k, (ws_dim3){8, 1, 1}, (ws_dim3){32, 1, 1}, (ws_dim3){4, 1, 1}, 0, args),
                 WS_ERR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "differs from the kernel's __cluster_dims__ (2,1,1)");
    CHECK_EQ_I64(ws_launch(d, k, (ws_dim3){7, 1, 1}, (ws_dim3){32, 1, 1}, 0, args), WS_ERR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "not a whole number of (2,1,1) clusters");
    /* 8 CTAs of 1024 threads: one fits on a GTX480 SM */
    CHECK_EQ_I64(ws_launch_cluster(d, big, (ws_dim3){8, 1, 1}, (ws_dim3){1024, 1, 1}, (ws_dim3){8, 1, 1}, 0, args),
                 WS_ERR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "a cluster of 8 CTAs does not fit on one SM");
    CHECK_EQ_I64(ws_launch_cluster(d, big, (ws_dim3){2, 1, 1}, (ws_dim3){32, 1, 1}, (ws_dim3){2, 1, 1}, 0, args),
                 WS_OK);
    ws_device_destroy(d);
}
