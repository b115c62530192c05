/* pageviewcount: the Mars PageViewCount application. The input is a
 * generated web log, one line per view: "http://www.siteNNN.com/pageNNNN.html
 * <TAB> client IP <TAB> timestamp", pages drawn with a skewed popularity.
 * One map record per line; map (count + emit) -> bitonic sort by URL ->
 * group -> reduce (count + emit); 256 threads per block, RECORDS_PER_TASK
 * lines per thread. The (URL, views) output must equal a CPU count exactly.
 * paper: 13 MB of log (the input size the CIAO paper gives for PVC).
 * small: 96 KB of log. */
#include "../mars_text.h"

extern const char ws_bench_mars_pageviewcount_ptx[], ws_bench_mars_pageviewcount_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int target = in == WS_INPUT_PAPER ? 13 * 1024 * 1024 : 96 * 1024;
    const int recordsPerTask = in == WS_INPUT_PAPER ? 4 : 1;
    wl_ctx c;
    wl_init(&c, d, m, out, "pageviewcount");
    mars_rt rt;
    mars_init(&rt, &c, 1, 1);

    ws_rng r;
    ws_rng_seed(&r, 0x5eed0302);
    char *text = wl_host_alloc(&c, (size_t)target + 256);
    int len = 0;
    while (!c.failed && len < target - 128) {
        float u = ws_rng_float(&r), v = ws_rng_float(&r);
        int site = (int)(64.0f * u * u), page = (int)(256.0f * v * v * v);
        len += snprintf(text + len, 128, "http://www.site%03d.com/page%04d.html\t%u.%u.%u.%u\t2008-%02u-%02u %02u:%02u:%02u\n",
                        site, page, 10 + ws_rng_below(&r, 200), ws_rng_below(&r, 256), ws_rng_below(&r, 256),
                        1 + ws_rng_below(&r, 254), 1 + ws_rng_below(&r, 12), 1 + ws_rng_below(&r, 28),
                        ws_rng_below(&r, 24), ws_rng_below(&r, 60), ws_rng_below(&r, 60));
    }
    int nlines = 0;
    mars_int4 *lines = c.failed ? NULL : mars_line_records(&c, text, len, &nlines);

    mars_records input = {0}, inter, output;
    input.keys = mars_upload(&rt, text, (size_t)len);
    input.vals = input.keys;
    input.index = mars_upload(&rt, lines, (size_t)nlines * sizeof(mars_int4));
    input.count = nlines;
    input.keyBytes = len;
    mars_map(&rt, &input, recordsPerTask, 256, 0, &inter);
    mars_sort(&rt, &inter);
    ws_devptr ranges;
    int groups = mars_group(&rt, &inter, &ranges);
    mars_reduce(&rt, &inter, ranges, groups, 1, 256, 0, &output);

    mars_host_records hi, ho;
    mars_fetch(&rt, &inter, &hi);
    mars_fetch(&rt, &output, &ho);

    /* CPU: URL of every line, sorted, counted */
    mars_kv *urls = wl_host_alloc(&c, (size_t)(nlines + 1) * sizeof *urls);
    mars_kv *got = c.failed ? NULL : mars_kvs(&c, &ho, 1);
    int pages = 0;
    if (!c.failed) {
        for (int i = 0; i < nlines; i++) {
            const char *p = text + lines[i].x;
            int l = 0;
            while (l < lines[i].y && p[l] != '\t') l++;
            urls[i].key = p;
            urls[i].klen = l;
        }
        wl_expect_i64(&c, "intermediate count", 0, inter.count, nlines);
        for (int i = 1; i < hi.count; i++)
            if (mars_key_cmp(hi.keys + hi.index[i - 1].x, hi.index[i - 1].y, hi.keys + hi.index[i].x,
                             hi.index[i].y) > 0)
                wl_mismatch(&c, "sorted order", i, "%g, %g", i - 1, i);
        qsort(urls, (size_t)nlines, sizeof *urls, mars_kv_cmp);
        for (int i = 0; i < nlines; pages++) {
            int j = i;
            while (j < nlines && mars_kv_cmp(&urls[i], &urls[j]) == 0) j++;
            if (pages < ho.count) {
                if (mars_kv_cmp(&got[pages], &urls[i]) != 0)
                    wl_mismatch(&c, "url", pages, "length %g, expected length %g (keys differ)",
                                got[pages].klen, urls[i].klen);
                wl_expect_i64(&c, "views", pages, mars_kv_int(&got[pages]), j - i);
            }
            i = j;
        }
        wl_expect_i64(&c, "distinct pages", 0, ho.count, pages);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "log=%d B views=%d pages=%d launches=%d", len, nlines, pages,
             rt.launches);
    mars_host_free(&hi);
    mars_host_free(&ho);
    free(urls);
    free(got);
    free(text);
    free(lines);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_pageviewcount = {
    .name = "pageviewcount",
    .suite = "mars",
    .description = "Mars PageViewCount: map (URL,1) over log lines -> sort -> group -> reduce",
    .ptx = ws_bench_mars_pageviewcount_ptx,
    .ptxinfo = ws_bench_mars_pageviewcount_ptxinfo,
    .run = run,
};
