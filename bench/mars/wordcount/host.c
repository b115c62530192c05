/* wordcount: the Mars WordCount application. The input is a generated text
 * of lowercase words (skewed word frequencies, some punctuation), one map
 * record per line; map (count + emit) -> bitonic sort by word -> group ->
 * reduce (count + emit), 256 threads per block and one record or group per
 * thread. The output (word, count) pairs must equal a CPU count exactly.
 * paper: 88 KB of text (the input size the CIAO paper gives for WC).
 * small: 16 KB of text. */
#include "../mars_text.h"

extern const char ws_bench_mars_wordcount_ptx[], ws_bench_mars_wordcount_ptxinfo[];

typedef struct { const char *p; int len; } word_ref;

static int cmp_word(const void *a, const void *b) {
    const word_ref *x = a, *y = b;
    return mars_key_cmp(x->p, x->len, y->p, y->len);
}

static int is_letter(char ch) { return ch >= 'a' && ch <= 'z'; }

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int target = in == WS_INPUT_PAPER ? 88 * 1024 : 16 * 1024;
    wl_ctx c;
    wl_init(&c, d, m, out, "wordcount");
    mars_rt rt;
    mars_init(&rt, &c, 1, 1);

    /* text */
    ws_rng r;
    ws_rng_seed(&r, 0x5eed0301);
    mars_vocab voc = {0};
    mars_vocab_make(&c, &voc, 1000, &r);
    char *text = wl_host_alloc(&c, (size_t)target + 256);
    int len = 0;
    while (!c.failed && len < target - 100) {
        int words = 6 + (int)ws_rng_below(&r, 9);
        for (int w = 0; w < words; w++) {
            const char *s = mars_vocab_pick(&voc, &r);
            int l = (int)strlen(s);
            memcpy(text + len, s, (size_t)l);
            len += l;
            unsigned p = ws_rng_below(&r, 16);
            text[len++] = w == words - 1 ? '.' : p == 0 ? ',' : ' ';
            if (p == 0 && w != words - 1) text[len++] = ' ';
        }
        text[len++] = '\n';
    }
    int nlines = 0;
    mars_int4 *lines = c.failed ? NULL : mars_line_records(&c, text, len, &nlines);

    /* MapReduce */
    mars_records input = {0}, inter, output;
    input.keys = mars_upload(&rt, text, (size_t)len);
    input.vals = input.keys;
    input.index = mars_upload(&rt, lines, (size_t)nlines * sizeof(mars_int4));
    input.count = nlines;
    input.keyBytes = len;
    mars_map(&rt, &input, 1, 256, 0, &inter);
    mars_sort(&rt, &inter);
    ws_devptr ranges;
    int groups = mars_group(&rt, &inter, &ranges);
    mars_reduce(&rt, &inter, ranges, groups, 1, 256, 0, &output);

    mars_host_records hi, ho;
    mars_fetch(&rt, &inter, &hi);
    mars_fetch(&rt, &output, &ho);

    /* CPU: tokenize, sort, count */
    word_ref *words = wl_host_alloc(&c, (size_t)len * sizeof *words / 2 + 16);
    mars_kv *got = c.failed ? NULL : mars_kvs(&c, &ho, 1);
    int nw = 0, uniq = 0;
    if (!c.failed) {
        for (int i = 0; i < len;) {
            while (i < len && !is_letter(text[i])) i++;
            int s = i;
            while (i < len && is_letter(text[i])) i++;
            if (i > s) words[nw++] = (word_ref){text + s, i - s};
        }
        wl_expect_i64(&c, "intermediate count", 0, inter.count, nw);
        /* the sorted intermediate records are in key order */
        for (int i = 1; i < hi.count; i++)
            if (mars_key_cmp(hi.keys + hi.index[i - 1].x, hi.index[i - 1].y, hi.keys + hi.index[i].x,
                             hi.index[i].y) > 0)
                wl_mismatch(&c, "sorted order", i, "%g, %g", i - 1, i);
        qsort(words, (size_t)nw, sizeof *words, cmp_word);
        /* reduce output comes in reduce-thread order: compare sorted by key */
        for (int i = 0; i < nw; uniq++) {
            int j = i;
            while (j < nw && cmp_word(&words[i], &words[j]) == 0) j++;
            if (uniq < ho.count) {
                if (mars_key_cmp(got[uniq].key, got[uniq].klen, words[i].p, words[i].len) != 0)
                    wl_mismatch(&c, "word", uniq, "length %g, expected length %g (keys differ)",
                                got[uniq].klen, words[i].len);
                wl_expect_i64(&c, "count", uniq, mars_kv_int(&got[uniq]), j - i);
            }
            i = j;
        }
        wl_expect_i64(&c, "distinct words", 0, ho.count, uniq);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "text=%d B lines=%d words=%d distinct=%d launches=%d", len,
             nlines, nw, uniq, rt.launches);
    mars_host_free(&hi);
    mars_host_free(&ho);
    free(words);
    free(got);
    free(text);
    free(lines);
    free(voc.w);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_wordcount = {
    .name = "wordcount",
    .suite = "mars",
    .description = "Mars WordCount: map (word,1) -> bitonic sort -> group -> reduce, two-pass emits",
    .ptx = ws_bench_mars_wordcount_ptx,
    .ptxinfo = ws_bench_mars_wordcount_ptxinfo,
    .run = run,
};
