/* invertedindex: the Mars InvertedIndex application. The input is a set of
 * generated HTML-like documents: lines of words with, now and then, links
 * <a href="http://www.siteNN.com/dirN/pageNNN.html">..</a> to a skewed set
 * of pages. One map record per line (value: the document number); map
 * (count + emit) -> bitonic sort by URL -> group; 256 threads per block,
 * RECORDS_PER_TASK lines per thread. Checked exactly: the sorted records are
 * in URL order, and every URL's group holds exactly the CPU's (URL,
 * document) pairs.
 * paper: 28 MB of documents (the input size the CIAO paper gives for II).
 * small: 128 KB. */
#include "../mars_text.h"

extern const char ws_bench_mars_invertedindex_ptx[], ws_bench_mars_invertedindex_ptxinfo[];

typedef struct { const char *url; int len, doc; } posting;

static int cmp_posting(const void *a, const void *b) {
    const posting *x = a, *y = b;
    int r = mars_key_cmp(x->url, x->len, y->url, y->len);
    return r ? r : (x->doc > y->doc) - (x->doc < y->doc);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int target = in == WS_INPUT_PAPER ? 28 * 1024 * 1024 : 128 * 1024;
    const int recordsPerTask = in == WS_INPUT_PAPER ? 4 : 1;
    wl_ctx c;
    wl_init(&c, d, m, out, "invertedindex");
    mars_rt rt;
    mars_init(&rt, &c, 1, 0);

    ws_rng r;
    ws_rng_seed(&r, 0x5eed0303);
    mars_vocab voc = {0};
    mars_vocab_make(&c, &voc, 2000, &r);
    char *text = wl_host_alloc(&c, (size_t)target + 1024);
    int *lineDoc = wl_host_alloc(&c, (size_t)target / 8 * sizeof(int));
    int len = 0, nl = 0, docs = 0, nlinks = 0;
    while (!c.failed && len < target - 512) {
        int lines = 4 + (int)ws_rng_below(&r, 40);
        len += snprintf(text + len, 64, "<html><title>doc %d</title><body>\n", docs);
        lineDoc[nl++] = docs;
        for (int l = 0; l < lines && len < target - 512; l++) {
            int words = 6 + (int)ws_rng_below(&r, 8);
            for (int w = 0; w < words; w++) {
                if (ws_rng_below(&r, 24) == 0) {
                    float u = ws_rng_float(&r), v = ws_rng_float(&r);
                    len += snprintf(text + len, 128, "<a href=\"http://www.site%02d.com/dir%u/page%03d.html\">",
                                    (int)(100 * u * u), ws_rng_below(&r, 4), (int)(400 * v * v));
                    nlinks++;
                }
                const char *s = mars_vocab_pick(&voc, &r);
                len += snprintf(text + len, 32, "%s ", s);
            }
            text[len++] = '\n';
            lineDoc[nl++] = docs;
        }
        len += snprintf(text + len, 32, "</body></html>\n");
        lineDoc[nl++] = docs;
        docs++;
    }
    int nlines = 0;
    mars_int4 *lines = c.failed ? NULL : mars_line_records(&c, text, len, &nlines);
    if (!c.failed && nlines != nl) {
        fprintf(out, "invertedindex: generator line count mismatch\n");
        c.failed = 1;
    }
    if (!c.failed)
        for (int i = 0; i < nlines; i++) {
            lines[i].z = i * (int)sizeof(int);
            lines[i].w = sizeof(int);
        }

    mars_records input = {0}, inter;
    input.keys = mars_upload(&rt, text, (size_t)len);
    input.vals = mars_upload(&rt, lineDoc, (size_t)nlines * sizeof(int));
    input.index = mars_upload(&rt, lines, (size_t)nlines * sizeof(mars_int4));
    input.count = nlines;
    input.keyBytes = len;
    input.valBytes = nlines * (int)sizeof(int);
    mars_map(&rt, &input, recordsPerTask, 256, 0, &inter);
    mars_sort(&rt, &inter);
    ws_devptr ranges;
    int groups = mars_group(&rt, &inter, &ranges);
    mars_int2 *hr = wl_host_alloc(&c, (size_t)(groups + 1) * sizeof *hr);
    wl_download(&c, hr, ranges, (size_t)groups * sizeof *hr);
    mars_host_records hi;
    mars_fetch(&rt, &inter, &hi);

    /* CPU: every (URL, document) pair, sorted by URL then document */
    posting *want = wl_host_alloc(&c, (size_t)(nlinks + 1) * sizeof *want);
    posting *got = wl_host_alloc(&c, (size_t)(hi.count + 1) * sizeof *got);
    int np = 0, urls = 0;
    if (!c.failed) {
        const char *pat = "href=\"";
        for (int i = 0; i < nlines; i++) {
            const char *p = text + lines[i].x;
            int l = lines[i].y;
            for (int k = 0; k + 6 <= l; k++)
                if (memcmp(p + k, pat, 6) == 0) {
                    int n = 0;
                    while (k + 6 + n < l && p[k + 6 + n] != '"') n++;
                    if (n > 0 && np < nlinks) want[np++] = (posting){p + k + 6, n, lineDoc[i]};
                    k += 6 + n;
                }
        }
        qsort(want, (size_t)np, sizeof *want, cmp_posting);
        wl_expect_i64(&c, "postings", 0, hi.count, np);
        for (int i = 0; i < hi.count; i++) {
            got[i].url = hi.keys + hi.index[i].x;
            got[i].len = hi.index[i].y;
            memcpy(&got[i].doc, hi.vals + hi.index[i].z, sizeof(int));
        }
        /* groups: consecutive ranges covering all records, one per URL */
        int pos = 0;
        for (int g = 0; g < groups; g++) {
            if (hr[g].x != pos || hr[g].y <= hr[g].x) {
                wl_mismatch(&c, "group start", g, "%g, expected %g", hr[g].x, pos);
                break;
            }
            for (int i = hr[g].x + 1; i < hr[g].y; i++)
                if (mars_key_cmp(got[i].url, got[i].len, got[hr[g].x].url, got[hr[g].x].len) != 0)
                    wl_mismatch(&c, "group key", i, "%g, %g", g, i);
            if (g > 0 && mars_key_cmp(got[hr[g - 1].x].url, got[hr[g - 1].x].len, got[pos].url, got[pos].len) >= 0)
                wl_mismatch(&c, "group order", g, "%g, %g", g - 1, g);
            /* order documents within the group, then compare */
            qsort(got + hr[g].x, (size_t)(hr[g].y - hr[g].x), sizeof *got, cmp_posting);
            pos = hr[g].y;
        }
        if (pos != hi.count) wl_mismatch(&c, "groups end", 0, "%g, expected %g", pos, hi.count);
        for (int i = 0; i < np && i < hi.count; i++)
            if (cmp_posting(&got[i], &want[i]) != 0)
                wl_mismatch(&c, "posting", i, "doc %g, expected doc %g (or URLs differ)", got[i].doc, want[i].doc);
        for (int i = 0; i < np; i++) urls += i == 0 || mars_key_cmp(want[i - 1].url, want[i - 1].len, want[i].url, want[i].len) != 0;
        wl_expect_i64(&c, "distinct URLs", 0, groups, urls);
    }

    char summary[128];
    snprintf(summary, sizeof summary, "html=%d B docs=%d lines=%d links=%d urls=%d launches=%d", len, docs,
             nlines, np, urls, rt.launches);
    mars_host_free(&hi);
    free(hr);
    free(want);
    free(got);
    free(text);
    free(lines);
    free(lineDoc);
    free(voc.w);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_invertedindex = {
    .name = "invertedindex",
    .suite = "mars",
    .description = "Mars InvertedIndex: map (URL,doc) per link in HTML lines -> sort -> group",
    .ptx = ws_bench_mars_invertedindex_ptx,
    .ptxinfo = ws_bench_mars_invertedindex_ptxinfo,
    .run = run,
};
