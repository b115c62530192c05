/* Simulator configuration: one option table (options.def), read from
 * GPGPU-Sim gpgpusim.config and .icnt files, presets and command-line
 * overrides. Each option is a typed field of ws_config, so the timing model
 * reads cfg->n_clusters directly, with no lookups on the hot path. */
#ifndef WARPSIM_CONFIG_CONFIG_H
#define WARPSIM_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WS_CFG_CTYPE_INT int64_t
#define WS_CFG_CTYPE_BOOL bool
#define WS_CFG_CTYPE_DOUBLE double
#define WS_CFG_CTYPE_STR char *

typedef struct ws_config {
#define X(field, name, type, def, lo, hi, doc) WS_CFG_CTYPE_##type field;
#define ICNT_X X
#define ALIAS_X(field, name, type, def, lo, hi, doc) /* a second name: no field of its own */
#include "config/options.def"
#undef X
#undef ICNT_X
#undef ALIAS_X
} ws_config;

/* Receives notes: options accepted for GPGPU-Sim compatibility that are set
 * to a value warpsim does not act on. Messages are complete lines without
 * the newline. Problems (unknown options, bad values) are errors. */
typedef void (*ws_config_warn_fn)(void *ctx, const char *msg);

/* Defaults (the gtx480 preset). Strings are owned by the config. */
void ws_config_init(ws_config *c);
void ws_config_free(ws_config *c);
int ws_config_copy(ws_config *dst, const ws_config *src);

/* Set one option by its name from text. Returns 0, or -1 with err filled:
 * unknown option (with the closest known name), or a bad value naming the
 * option, the value and what is allowed. */
int ws_config_set(ws_config *c, const char *name, const char *value, char *err, size_t errlen);

/* Load a GPGPU-Sim style file: "-option value" lines, '#' comments, values
 * in double quotes may span lines. Unknown options and bad values are errors
 * naming file:line; options with no effect set to a value other than their
 * default are listed in one note through warn (NULL: stderr). The interconnect file named by
 * -inter_config_file is loaded too (relative to this file's directory).
 * Returns 0 or -1 with err filled. */
int ws_config_load_file(ws_config *c, const char *path, ws_config_warn_fn warn, void *ctx,
                        char *err, size_t errlen);
/* Same for text in memory (name used in messages). */
int ws_config_load_text(ws_config *c, const char *text, const char *name, const char *dir,
                        ws_config_warn_fn warn, void *ctx, char *err, size_t errlen);
/* Load a BookSim-style .icnt file: "key = value;" lines, // comments.
 * Config and .icnt files over WS_CONFIG_FILE_MAX (16 MiB) are refused. */
int ws_config_load_icnt(ws_config *c, const char *path, ws_config_warn_fn warn, void *ctx,
                        char *err, size_t errlen);
/* Same for .icnt text in memory (name used in messages). */
int ws_config_load_icnt_text(ws_config *c, const char *text, const char *name,
                             ws_config_warn_fn warn, void *ctx, char *err, size_t errlen);

/* Apply a named preset on top of the defaults. -1 with err listing the
 * known presets if there is no such preset. */
int ws_config_apply_preset(ws_config *c, const char *name, char *err, size_t errlen);
/* Names of the presets, NULL-terminated. */
const char *const *ws_config_preset_names(void);

/* Each preset's name and what it mirrors (for --help and `warpsim options`). */
void ws_config_print_presets(FILE *out);

/* 1: a known option (either kind, leading '-' optional) marked "(accepted;
 * no effect)"; 0: an option the simulator reads; -1: no such option. */
int ws_config_no_effect(const char *name);

/* `warpsim options`: every option with its type, default and doc. */
void ws_config_print_options(FILE *out);
/* The effective configuration in gpgpusim.config syntax (reloadable). */
void ws_config_write(const ws_config *c, FILE *out);
/* The same options as GPGPU-Sim echoes its own at the start of a run:
 * "-name value # doc" lines after a "#" header: a config file that gives
 * the same configuration. */
void ws_config_echo(const ws_config *c, FILE *out);

/* Helpers for the units that parse structured option strings. */
/* "4,13,4,5,145" -> up to max integers; returns the count or -1. */
int ws_config_int_list(const char *s, int64_t *out, int max);
/* "700.0:1400.0:700.0:924.0" -> four clocks in MHz; 0 or -1. */
int ws_config_clocks(const char *s, double mhz[4]);

#endif
