/* nn: convolutional network forward pass over a batch of 29x29 images
 * (ISPASS-2009 NN). Four launches, one per layer, with the batch on
 * gridDim.y. Images and weights are random; every layer is checked against
 * a double-precision CPU evaluation fed with the GPU's previous layer. */
#include "host_util.h"

extern const char ws_bench_ispass_nn_ptx[], ws_bench_ispass_nn_ptxinfo[];

static double squash(double x) { return 1.7159 * tanh(0.66666667 * x); }

static void fill(ws_rng *r, float *w, size_t n, float scale) {
    for (size_t i = 0; i < n; i++) w[i] = scale * (2.0f * ws_rng_float(r) - 1.0f);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 28 images, gridDim.y of the ISPASS-2009 NN launches (no size in
       the specs). small: 2 images */
    const int nimg = in == WS_INPUT_PAPER ? 28 : 2;
    const size_t n0 = (size_t)nimg * 841, n1 = (size_t)nimg * 6 * 169, n2 = (size_t)nimg * 1250,
                 n3 = (size_t)nimg * 100, n4 = (size_t)nimg * 10;
    const size_t nw1 = 6 * 26, nw2 = 50 * 6 * 26, nw3 = 100 * 1251, nw4 = 10 * 101;
    wl_ctx c;
    wl_init(&c, d, m, log, "nn");
    float *img = wl_host_alloc(&c, n0 * 4), *w1 = wl_host_alloc(&c, nw1 * 4), *w2 = wl_host_alloc(&c, nw2 * 4);
    float *w3 = wl_host_alloc(&c, nw3 * 4), *w4 = wl_host_alloc(&c, nw4 * 4);
    float *o1 = wl_host_alloc(&c, n1 * 4), *o2 = wl_host_alloc(&c, n2 * 4), *o3 = wl_host_alloc(&c, n3 * 4);
    float *o4 = wl_host_alloc(&c, n4 * 4);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0777);
        for (size_t i = 0; i < n0; i++) img[i] = ws_rng_float(&r) < 0.3f ? 1.0f : -0.1f;
        fill(&r, w1, nw1, 0.4f);
        fill(&r, w2, nw2, 0.15f);
        fill(&r, w3, nw3, 0.05f);
        fill(&r, w4, nw4, 0.2f);
    }
    ws_devptr dimg = wl_upload(&c, img, n0 * 4), dw1 = wl_upload(&c, w1, nw1 * 4);
    ws_devptr dw2 = wl_upload(&c, w2, nw2 * 4), dw3 = wl_upload(&c, w3, nw3 * 4);
    ws_devptr dw4 = wl_upload(&c, w4, nw4 * 4);
    ws_devptr d1 = wl_alloc(&c, n1 * 4), d2 = wl_alloc(&c, n2 * 4), d3 = wl_alloc(&c, n3 * 4);
    ws_devptr d4 = wl_alloc(&c, n4 * 4);
    ws_kernel *k1 = wl_kernel(&c, "_Z17executeFirstLayerPKfS0_Pf");
    ws_kernel *k2 = wl_kernel(&c, "_Z18executeSecondLayerPKfS0_Pf");
    ws_kernel *k3 = wl_kernel(&c, "_Z17executeThirdLayerPKfS0_Pf");
    ws_kernel *k4 = wl_kernel(&c, "_Z18executeFourthLayerPKfS0_Pf");
    void *a1[] = {&dimg, &dw1, &d1}, *a2[] = {&d1, &dw2, &d2}, *a3[] = {&d2, &dw3, &d3}, *a4[] = {&d3, &dw4, &d4};
    unsigned ni = (unsigned)nimg;
    wl_launch(&c, k1, wl_dim(6, ni), wl_dim(13, 13), a1);
    wl_launch(&c, k2, wl_dim(50, ni), wl_dim(5, 5), a2);
    wl_launch(&c, k3, wl_dim(100, ni), wl_dim(1, 1), a3);
    wl_launch(&c, k4, wl_dim(10, ni), wl_dim(1, 1), a4);
    wl_download(&c, o1, d1, n1 * 4);
    wl_download(&c, o2, d2, n2 * 4);
    wl_download(&c, o3, d3, n3 * 4);
    wl_download(&c, o4, d4, n4 * 4);

    /* float sums and tanhf against double: 1e-5 relative + 2e-5 absolute
       (outputs lie within +-1.7159) */
    int agree = 0;
    if (!c.failed)
        for (int im = 0; im < nimg; im++) {
            for (int mp = 0; mp < 6; mp++)
                for (int y = 0; y < 13; y++)
                    for (int x = 0; x < 13; x++) {
                        double s = w1[mp * 26];
                        for (int i = 0; i < 5; i++)
                            for (int j = 0; j < 5; j++)
                                s += (double)img[im * 841 + (2 * y + i) * 29 + 2 * x + j] * w1[mp * 26 + 1 + i * 5 + j];
                        long o = (im * 6 + mp) * 169 + y * 13 + x;
                        wl_expect_near(&c, "layer1", o, o1[o], squash(s), 1e-5, 2e-5);
                    }
            for (int mp = 0; mp < 50; mp++)
                for (int y = 0; y < 5; y++)
                    for (int x = 0; x < 5; x++) {
                        double s = 0.0;
                        for (int q = 0; q < 6; q++) {
                            const float *w = w2 + (mp * 6 + q) * 26, *src = o1 + (im * 6 + q) * 169;
                            s += w[0];
                            for (int i = 0; i < 5; i++)
                                for (int j = 0; j < 5; j++) s += (double)src[(2 * y + i) * 13 + 2 * x + j] * w[1 + i * 5 + j];
                        }
                        long o = (im * 50 + mp) * 25 + y * 5 + x;
                        wl_expect_near(&c, "layer2", o, o2[o], squash(s), 1e-5, 2e-5);
                    }
            for (int n = 0; n < 100; n++) {
                double s = w3[n * 1251];
                for (int i = 0; i < 1250; i++) s += (double)o2[im * 1250 + i] * w3[n * 1251 + 1 + i];
                wl_expect_near(&c, "layer3", im * 100 + n, o3[im * 100 + n], squash(s), 1e-5, 2e-5);
            }
            int best = 0;
            for (int n = 0; n < 10; n++) {
                double s = w4[n * 101];
                for (int i = 0; i < 100; i++) s += (double)o3[im * 100 + i] * w4[n * 101 + 1 + i];
                wl_expect_near(&c, "layer4", im * 10 + n, o4[im * 10 + n], squash(s), 1e-5, 2e-5);
                if (o4[im * 10 + n] > o4[im * 10 + best]) best = n;
            }
            agree += best;
        }

    char summary[96];
    snprintf(summary, sizeof summary, "images=%d digit-sum=%d", nimg, agree);
    free(img);
    free(w1);
    free(w2);
    free(w3);
    free(w4);
    free(o1);
    free(o2);
    free(o3);
    free(o4);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_nn = {
    .name = "nn",
    .suite = "ispass",
    .description = "convolutional digit-recognition network, four layer kernels, batch on gridDim.y",
    .ptx = ws_bench_ispass_nn_ptx,
    .ptxinfo = ws_bench_ispass_nn_ptxinfo,
    .run = run,
};
