/* stringmatch: the Mars StringMatch application. The input is a generated
 * text of words, one map record per line (value: the line's offset); a
 * keyword is planted in about one line in twenty. Map only, in the Mars
 * two-pass form (count, scan, emit); 256 threads per block. The (offset,
 * position) output must equal the CPU's matches exactly.
 * paper: 1 MB of text (the input size the CIAO paper gives for SM).
 * small: 64 KB. */
#include "../mars_text.h"

extern const char ws_bench_mars_stringmatch_ptx[], ws_bench_mars_stringmatch_ptxinfo[];

typedef struct { int32_t len; char text[60]; } keyword;

static int cmp_pair(const void *a, const void *b) {
    const int *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int target = in == WS_INPUT_PAPER ? 1024 * 1024 : 64 * 1024;
    wl_ctx c;
    wl_init(&c, d, m, out, "stringmatch");
    mars_rt rt;
    mars_init(&rt, &c, 0, 0);

    ws_rng r;
    ws_rng_seed(&r, 0x5eed0304);
    mars_vocab voc = {0};
    mars_vocab_make(&c, &voc, 1000, &r);
    keyword kw = {0};
    snprintf(kw.text, sizeof kw.text, "warpsimulator");
    kw.len = (int)strlen(kw.text);
    char *text = wl_host_alloc(&c, (size_t)target + 256);
    int len = 0;
    while (!c.failed && len < target - 160) {
        int words = 6 + (int)ws_rng_below(&r, 9), plant = ws_rng_below(&r, 20) == 0 ? (int)ws_rng_below(&r, (unsigned)words) : -1;
        for (int w = 0; w < words; w++) {
            /* the keyword, or now and then a near miss (its prefix) */
            const char *s = w == plant ? kw.text : ws_rng_below(&r, 50) == 0 ? "warpsim" : mars_vocab_pick(&voc, &r);
            len += snprintf(text + len, 32, "%s%c", s, w == words - 1 ? '.' : ' ');
        }
        text[len++] = '\n';
    }
    int nlines = 0;
    mars_int4 *lines = c.failed ? NULL : mars_line_records(&c, text, len, &nlines);
    int *offsets = wl_host_alloc(&c, (size_t)(nlines + 1) * sizeof(int));
    if (!c.failed)
        for (int i = 0; i < nlines; i++) {
            offsets[i] = lines[i].x;
            lines[i].z = i * (int)sizeof(int);
            lines[i].w = sizeof(int);
        }

    mars_records input = {0}, output;
    input.keys = mars_upload(&rt, text, (size_t)len);
    input.vals = mars_upload(&rt, offsets, (size_t)nlines * sizeof(int));
    input.index = mars_upload(&rt, lines, (size_t)nlines * sizeof(mars_int4));
    input.count = nlines;
    input.keyBytes = len;
    input.valBytes = nlines * (int)sizeof(int);
    ws_devptr dkw = mars_upload(&rt, &kw, sizeof kw);
    mars_map(&rt, &input, 1, 256, dkw, &output);
    mars_host_records ho;
    mars_fetch(&rt, &output, &ho);

    int *got = wl_host_alloc(&c, (size_t)(ho.count + 1) * 2 * sizeof(int));
    int matches = 0;
    if (!c.failed) {
        for (int i = 0; i < ho.count; i++) {
            memcpy(&got[2 * i], ho.keys + ho.index[i].x, sizeof(int));
            memcpy(&got[2 * i + 1], ho.vals + ho.index[i].z, sizeof(int));
        }
        qsort(got, (size_t)ho.count, 2 * sizeof(int), cmp_pair);
        for (int i = 0; i < nlines; i++) {
            const char *p = text + lines[i].x;
            int pos = -1;
            for (int k = 0; k + kw.len <= lines[i].y; k++)
                if (memcmp(p + k, kw.text, (size_t)kw.len) == 0) {
                    pos = k;
                    break;
                }
            if (pos < 0) continue;
            if (matches < ho.count) {
                wl_expect_i64(&c, "line offset", matches, got[2 * matches], lines[i].x);
                wl_expect_i64(&c, "position", matches, got[2 * matches + 1], pos);
            }
            matches++;
        }
        wl_expect_i64(&c, "matching lines", 0, ho.count, matches);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "text=%d B lines=%d matches=%d", len, nlines, matches);
    mars_host_free(&ho);
    free(got);
    free(offsets);
    free(text);
    free(lines);
    free(voc.w);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_stringmatch = {
    .name = "stringmatch",
    .suite = "mars",
    .description = "Mars StringMatch: map-only keyword search over text lines, two-pass emit",
    .ptx = ws_bench_mars_stringmatch_ptx,
    .ptxinfo = ws_bench_mars_stringmatch_ptxinfo,
    .run = run,
};
