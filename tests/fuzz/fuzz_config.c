/* libFuzzer harness for the config reader (src/config): every input is read
 * both as a GPGPU-Sim config file (ws_config_load_text) and as a BookSim
 * .icnt file (ws_config_load_icnt_text), on top of the defaults. Seeded from
 * tests/data/gpgpusim-configs by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const char *msg) {
    (void)ctx;
    if (!msg[0]) abort();  /* notes are complete lines */
}

static void check_err(int rc, const char *err, size_t n) {
    if (rc && (!memchr(err, '\0', n) || !err[0])) abort();  /* a failure must say why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* -inter_config_file would open whatever path the input names (a FIFO
       blocks); the .icnt text is fuzzed directly below instead. */
    if (!strstr(text, "inter_config_file")) {
        ws_config c;
        char err[1024];
        ws_config_init(&c);
        check_err(ws_config_load_text(&c, text, "fuzz.config", NULL, quiet, NULL, err, sizeof err),
                  err, sizeof err);
        ws_config_free(&c);
    }
    ws_config c;
    char err[1024];
    ws_config_init(&c);
    check_err(ws_config_load_icnt_text(&c, text, "fuzz.icnt", quiet, NULL, err, sizeof err), err,
              sizeof err);
    ws_config_free(&c);
    free(text);
    return 0;
}
