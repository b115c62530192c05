/* Option table, config files, presets. See config.h. */
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config/presets_postfermi.h"
#include "policy/catalog.h"
#include "util/readfile.h"

typedef enum { T_INT, T_BOOL, T_DOUBLE, T_STR } opt_type;

typedef struct opt_def {
    const char *name;
    opt_type type;
    const char *def;
    double lo, hi;
    const char *doc;
    size_t offset;
    bool icnt;  /* a key of the .icnt file */
    bool alias; /* a second name: sets the field of the option it names */
} opt_def;

#define OPT_T_INT T_INT
#define OPT_T_BOOL T_BOOL
#define OPT_T_DOUBLE T_DOUBLE
#define OPT_T_STR T_STR

static const opt_def g_opts[] = {
#define OPT_ROW(field, name, type, def, lo, hi, doc, icnt, alias) \
    {name, OPT_T_##type, def, (double)(lo), (double)(hi), doc, offsetof(ws_config, field), icnt, alias},
#define X(field, name, type, def, lo, hi, doc) OPT_ROW(field, name, type, def, lo, hi, doc, false, false)
#define ICNT_X(field, name, type, def, lo, hi, doc) OPT_ROW(field, name, type, def, lo, hi, doc, true, false)
#define ALIAS_X(field, name, type, def, lo, hi, doc) OPT_ROW(field, name, type, def, lo, hi, doc, false, true)
#include "config/options.def"
#undef X
#undef ICNT_X
#undef ALIAS_X
#undef OPT_ROW
};
#define NOPTS (sizeof g_opts / sizeof g_opts[0])

static const opt_def *find_opt(const char *name, bool icnt) {
    for (size_t i = 0; i < NOPTS; i++)
        if (g_opts[i].icnt == icnt && !strcmp(g_opts[i].name, name)) return &g_opts[i];
    return NULL;
}

/* Options kept only so that GPGPU-Sim files load: not part of the effective
 * configuration. */
static bool no_effect(const opt_def *o) { return !strncmp(o->doc, "(accepted;", 10); }

/* Edit distance, case-insensitive: what a typo costs. */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 255 || lb > 255) return SIZE_MAX;
    size_t row[256];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

/* "unknown option -NAME; did you mean -CLOSEST?" into err: the closest name
 * of the same kind (.icnt key or not; both when any), if close enough to be
 * a typo rather than a different option. */
static void unknown_msg(char *err, size_t errlen, const char *what, const char *name, int kind) {
    const opt_def *best = NULL;
    size_t bd = SIZE_MAX;
    for (size_t i = 0; i < NOPTS; i++) {
        if (kind >= 0 && g_opts[i].icnt != (kind == 1)) continue;
        size_t d = edit_distance(name, g_opts[i].name);
        /* "-scheduler" for "-gpgpu_scheduler": the prefix is easy to forget */
        if (!strncmp(g_opts[i].name, "gpgpu_", 6)) {
            size_t d2 = edit_distance(name, g_opts[i].name + 6);
            if (d2 < d) d = d2;
        }
        if (d < bd) bd = d, best = &g_opts[i];
    }
    size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
    const char *dash = kind == 1 ? "" : "-";
    if (best && bd <= limit)
        snprintf(err, errlen, "%s %s%s; did you mean %s%s? (see `warpsim options`)", what, dash,
                 name, best->icnt ? "" : "-", best->name);
    else
        snprintf(err, errlen, "%s %s%s (see `warpsim options`)", what, dash, name);
}

int ws_config_no_effect(const char *name) {
    if (name[0] == '-') name++;
    const opt_def *o = find_opt(name, false);
    if (!o) o = find_opt(name, true);
    return o ? no_effect(o) : -1;
}

static const char *type_name(opt_type t) {
    switch (t) {
    case T_INT: return "int";
    case T_BOOL: return "bool";
    case T_DOUBLE: return "float";
    default: return "string";
    }
}

/* Parse and store one value; the option is known. */
static int set_value(ws_config *c, const opt_def *o, const char *value, char *err, size_t errlen) {
    char *field = (char *)c + o->offset;
    char *end;
    while (isspace((unsigned char)*value)) value++;
    size_t vlen = strlen(value);
    while (vlen && isspace((unsigned char)value[vlen - 1])) vlen--;
    char buf[1024];
    if (vlen >= sizeof buf) {
        snprintf(err, errlen, "option -%s: value too long", o->name);
        return -1;
    }
    memcpy(buf, value, vlen);
    buf[vlen] = 0;
    switch (o->type) {
    case T_INT: {
        errno = 0;
        long long v = strtoll(buf, &end, 0);
        if (errno || end == buf || *end) {
            snprintf(err, errlen, "option -%s: '%s' is not an integer (allowed: %.0f..%.0f)",
                     o->name, buf, o->lo, o->hi);
            return -1;
        }
        if ((double)v < o->lo || (double)v > o->hi) {
            snprintf(err, errlen, "option -%s: %lld is out of range (allowed: %.0f..%.0f)", o->name,
                     v, o->lo, o->hi);
            return -1;
        }
        *(int64_t *)field = v;
        return 0;
    }
    case T_BOOL: {
        if (!strcmp(buf, "1") || !strcmp(buf, "true")) *(bool *)field = true;
        else if (!strcmp(buf, "0") || !strcmp(buf, "false")) *(bool *)field = false;
        else {
            snprintf(err, errlen, "option -%s: '%s' is not a boolean (allowed: 0, 1)", o->name, buf);
            return -1;
        }
        return 0;
    }
    case T_DOUBLE: {
        errno = 0;
        double v = strtod(buf, &end);
        if (errno || end == buf || *end || isnan(v)) {
            snprintf(err, errlen, "option -%s: '%s' is not a number (allowed: %g..%g)", o->name,
                     buf, o->lo, o->hi);
            return -1;
        }
        if (v < o->lo || v > o->hi) {
            snprintf(err, errlen, "option -%s: %g is out of range (allowed: %g..%g)", o->name, v,
                     o->lo, o->hi);
            return -1;
        }
        *(double *)field = v;
        return 0;
    }
    case T_STR: {
        char *s = strdup(buf);
        if (!s) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        free(*(char **)field);
        *(char **)field = s;
        return 0;
    }
    }
    return -1;
}

void ws_config_init(ws_config *c) {
    memset(c, 0, sizeof *c);
    char err[256];
    for (size_t i = 0; i < NOPTS; i++)
        if (set_value(c, &g_opts[i], g_opts[i].def, err, sizeof err)) {
            /* A default that does not parse is a bug in options.def. */
            fprintf(stderr, "warpsim: internal error: %s\n", err);
            abort();
        }
}

void ws_config_free(ws_config *c) {
    if (!c) return;
    for (size_t i = 0; i < NOPTS; i++)
        if (g_opts[i].type == T_STR) {
            char **p = (char **)((char *)c + g_opts[i].offset);
            free(*p);
            *p = NULL;
        }
}

int ws_config_copy(ws_config *dst, const ws_config *src) {
    memcpy(dst, src, sizeof *dst);
    for (size_t i = 0; i < NOPTS; i++)
        if (g_opts[i].type == T_STR) {
            char **p = (char **)((char *)dst + g_opts[i].offset);
            if (*p && !(*p = strdup(*p))) return -1;
        }
    return 0;
}

int ws_config_set(ws_config *c, const char *name, const char *value, char *err, size_t errlen) {
    if (name[0] == '-') name++;
    const opt_def *o = find_opt(name, false);
    if (!o) o = find_opt(name, true);
    if (!o) {
        unknown_msg(err, errlen, "unknown option", name, -1);
        return -1;
    }
    return set_value(c, o, value, err, errlen);
}

/* The no-effect options a file sets away from their defaults, gathered into
 * one note per file: they are what a GPGPU-Sim user may expect to matter. */
typedef struct noted {
    char text[3072];
    size_t len;
    int n;
} noted;

static bool is_default(const ws_config *c, const opt_def *o) {
    const char *field = (const char *)c + o->offset;
    switch (o->type) {
    case T_INT: return *(const int64_t *)field == strtoll(o->def, NULL, 0);
    case T_BOOL: return *(const bool *)field == (o->def[0] == '1' || o->def[0] == 't');
    case T_DOUBLE: return *(const double *)field == strtod(o->def, NULL);
    default: return !strcmp(*(char *const *)field, o->def);
    }
}

static void format_value(char *buf, size_t n, const ws_config *c, const opt_def *o) {
    const char *field = (const char *)c + o->offset;
    switch (o->type) {
    case T_INT: snprintf(buf, n, "%" PRId64, *(const int64_t *)field); break;
    case T_BOOL: snprintf(buf, n, "%d", *(const bool *)field ? 1 : 0); break;
    case T_DOUBLE: snprintf(buf, n, "%g", *(const double *)field); break;
    case T_STR: {
        const char *s = *(char *const *)field;
        snprintf(buf, n, strchr(s, ' ') || !*s ? "\"%s\"" : "%s", s);
        break;
    }
    }
}

static void note_add(noted *nt, const ws_config *c, const opt_def *o) {
    if (!no_effect(o) || is_default(c, o)) return;
    char v[128];
    format_value(v, sizeof v, c, o);
    if (nt->len < sizeof nt->text)
        nt->len += (size_t)snprintf(nt->text + nt->len, sizeof nt->text - nt->len, "%s%s%s %s",
                                    nt->n ? ", " : "", o->icnt ? "" : "-", o->name, v);
    nt->n++;
}

static void note_flush(const noted *nt, const char *file, ws_config_warn_fn warn, void *ctx) {
    if (!nt->n) return;
    char msg[3400];
    snprintf(msg, sizeof msg, "%s: %d option%s set here %s no effect in warpsim (accepted for "
             "GPGPU-Sim configs; see `warpsim options`): %s", file, nt->n, nt->n == 1 ? "" : "s",
             nt->n == 1 ? "has" : "have", nt->text);
    if (warn) warn(ctx, msg);
    else fprintf(stderr, "warpsim: note: %s\n", msg);
}

int ws_config_load_text(ws_config *c, const char *text, const char *name, const char *dir,
                        ws_config_warn_fn warn, void *ctx, char *err, size_t errlen) {
    const char *p = text;
    int line = 1;
    noted nt = {.len = 0};
    while (*p) {
        /* skip whitespace and comments */
        if (*p == '\n') { line++; p++; continue; }
        if (isspace((unsigned char)*p)) { p++; continue; }
        if (*p == '#') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (*p != '-') {
            const char *e = p;
            while (*e && *e != '\n') e++;
            snprintf(err, errlen, "%s:%d: expected an option starting with '-', found '%.*s'", name,
                     line, (int)(e - p > 40 ? 40 : e - p), p);
            return -1;
        }
        int opt_line = line;
        p++;
        const char *ns = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        char oname[256];
        size_t nl = (size_t)(p - ns);
        if (nl == 0 || nl >= sizeof oname) {
            snprintf(err, errlen, "%s:%d: bad option name", name, line);
            return -1;
        }
        memcpy(oname, ns, nl);
        oname[nl] = 0;
        while (*p == ' ' || *p == '\t') p++;
        /* the value: quoted (may span lines) or up to a comment/end of line */
        char value[1024];
        size_t vl = 0;
        if (*p == '"') {
            p++;
            while (*p && *p != '"') {
                if (*p == '\n') line++;
                if (!isspace((unsigned char)*p) && vl + 1 < sizeof value) value[vl++] = *p;
                p++;
            }
            if (*p != '"') {
                snprintf(err, errlen, "%s:%d: unterminated quoted value of -%s", name, opt_line,
                         oname);
                return -1;
            }
            p++;
        } else {
            while (*p && *p != '\n' && *p != '#') {
                if (vl + 1 < sizeof value) value[vl++] = *p;
                p++;
            }
        }
        value[vl] = 0;
        const opt_def *o = find_opt(oname, false);
        char e2[512];
        if (!o) {
            unknown_msg(e2, sizeof e2, "unknown option", oname, 0);
            snprintf(err, errlen, "%s:%d: %s", name, opt_line, e2);
            return -1;
        }
        if (set_value(c, o, value, e2, sizeof e2)) {
            snprintf(err, errlen, "%s:%d: %s", name, opt_line, e2);
            return -1;
        }
        note_add(&nt, c, o);
        if (!strcmp(o->name, "inter_config_file") && c->inter_config_file[0]) {
            char path[4096];
            if (c->inter_config_file[0] == '/' || !dir)
                snprintf(path, sizeof path, "%s", c->inter_config_file);
            else
                snprintf(path, sizeof path, "%s/%s", dir, c->inter_config_file);
            if (ws_config_load_icnt(c, path, warn, ctx, err, errlen)) return -1;
        }
    }
    note_flush(&nt, name, warn, ctx);
    return 0;
}

int ws_config_load_file(ws_config *c, const char *path, ws_config_warn_fn warn, void *ctx,
                        char *err, size_t errlen) {
    char *text = ws_read_file_capped(path, WS_CONFIG_FILE_MAX, NULL);
    if (!text) {
        ws_read_file_error(err, errlen, "config file", path, WS_CONFIG_FILE_MAX);
        return -1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    int r = ws_config_load_text(c, text, path, dir, warn, ctx, err, errlen);
    free(text);
    return r;
}

int ws_config_load_icnt(ws_config *c, const char *path, ws_config_warn_fn warn, void *ctx,
                        char *err, size_t errlen) {
    char *text = ws_read_file_capped(path, WS_CONFIG_FILE_MAX, NULL);
    if (!text) {
        ws_read_file_error(err, errlen, "interconnect file", path, WS_CONFIG_FILE_MAX);
        return -1;
    }
    int rc = ws_config_load_icnt_text(c, text, path, warn, ctx, err, errlen);
    free(text);
    return rc;
}

int ws_config_load_icnt_text(ws_config *c, const char *text, const char *path,
                             ws_config_warn_fn warn, void *ctx, char *err, size_t errlen) {
    int line = 1, rc = 0;
    noted nt = {.len = 0};
    const char *p = text;
    while (*p) {
        if (*p == '\n') { line++; p++; continue; }
        if (isspace((unsigned char)*p)) { p++; continue; }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
            continue;
        }
        const char *ks = p;
        while (*p && (isalnum((unsigned char)*p) || *p == '_')) p++;
        char key[128];
        size_t kl = (size_t)(p - ks);
        if (!kl || kl >= sizeof key) {
            snprintf(err, errlen, "%s:%d: expected 'key = value;'", path, line);
            rc = -1;
            break;
        }
        memcpy(key, ks, kl);
        key[kl] = 0;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != '=') {
            snprintf(err, errlen, "%s:%d: expected '=' after '%s'", path, line, key);
            rc = -1;
            break;
        }
        p++;
        char value[512];
        size_t vl = 0;
        int depth = 0;
        while (*p && (depth > 0 || *p != ';')) {
            if (*p == '{') depth++;
            if (*p == '}') depth--;
            if (*p == '\n') line++;
            if (!isspace((unsigned char)*p) && vl + 1 < sizeof value) value[vl++] = *p;
            p++;
        }
        value[vl] = 0;
        if (*p != ';') {
            snprintf(err, errlen, "%s:%d: missing ';' after '%s'", path, line, key);
            rc = -1;
            break;
        }
        p++;
        const opt_def *o = find_opt(key, true);
        char e2[512];
        if (!o) {
            unknown_msg(e2, sizeof e2, "unknown interconnect key", key, 1);
            snprintf(err, errlen, "%s:%d: %s", path, line, e2);
            rc = -1;
            break;
        }
        if (set_value(c, o, value, e2, sizeof e2)) {
            snprintf(err, errlen, "%s:%d: %s", path, line, e2);
            rc = -1;
            break;
        }
        note_add(&nt, c, o);
    }
    if (!rc) note_flush(&nt, path, warn, ctx);
    return rc;
}

/* ---- presets ---- */
typedef struct preset {
    const char *name, *doc;
    const char *const *settings; /* name, value pairs, NULL-terminated */
} preset;

/* GPGPU-Sim 3.2.1's GTX480 configuration: the defaults. */
static const char *const p_gtx480[] = {NULL};

/* GPGPU-Sim 4.2's SM2_GTX480 configuration (tests/data/gpgpusim-configs/SM2_GTX480/). */
static const char *const p_gtx480_v4[] = {
    "gpgpu_n_sub_partition_per_mchannel", "2",
    "gpgpu_clock_domains", "700.0:700.0:700.0:924.0",
    "gpgpu_pipeline_widths", "2,0,0,1,1,2,0,0,1,1,2",
    "ptx_opcode_latency_int", "4,13,4,5,145,32",
    "ptx_opcode_initiation_int", "1,2,2,1,8,4",
    "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,S:64:8,8",
    "gpgpu_cache:dl2", "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32",
    "gpgpu_cache:il1", "N:4:128:4,L:R:f:N:L,S:2:32,4",
    "gpgpu_tex_cache:l1", "N:4:128:24,L:R:m:N:L,T:128:4,128:2",
    "gpgpu_const_cache:l1", "N:64:64:2,L:R:f:N:L,S:2:32,4",
    "icnt_flit_size", "40",
    "gpgpu_n_cluster_ejection_buffer_size", "32",
    "gpgpu_l1_latency", "35",
    "gpgpu_smem_latency", "26",
    "gpgpu_flush_l1_cache", "1",
    "gpgpu_dram_partition_queues", "64:64:64:64",
    "gpgpu_operand_collector_num_in_ports_sp", "2",
    "gpgpu_operand_collector_num_out_ports_sp", "2",
    "gpgpu_coalesce_arch", "20",
    "gpgpu_max_insn_issue_per_warp", "1",
    "gpgpu_frfcfs_dram_sched_queue_size", "64",
    "gpgpu_dram_return_queue_size", "116",
    "dram_bnkgrp_indexing_policy", "1",
    "gpgpu_perf_sim_memcpy", "1",
    "flit_size", "40",
    "vc_buf_size", "64",
    "input_speedup", "1",
    "internal_speedup", "2.0",
    NULL};

/* A GTX480-like GPU with GPU memory and CPU memory over a link (the
   machine of the BLPP page-placement study): 15 SMs with 64 L1D MSHRs, 1 MB
   of L2 in 16 slices (8 channels x 2), 200 GB/s of GPU memory (8 channels at
   25 GB/s: 32 B per DRAM cycle at 781.25 MHz), 80 GB/s of CPU memory (4 x 20
   GB/s, 350 cycles) behind a 100-cycle link. */
static const char *const p_gtx480_hm[] = {
    "gpgpu_n_clusters", "15",
    "gpgpu_n_mem", "8",
    "gpgpu_n_sub_partition_per_mchannel", "2",
    "gpgpu_clock_domains", "700.0:700.0:700.0:781.25",
    "gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:64:8,8",
    "gpgpu_cache:dl2", "64:128:8,L:B:m:W,A:32:4,4",
    "hm_enable", "1",
    "hm_cpu_channels", "4",
    "hm_cpu_channel_bw", "20",
    "hm_cpu_latency", "350",
    "hm_link_latency", "100",
    "hm_link_bw", "160",
    "hm_page_size", "4096",
    NULL};

/* The machine of Turner's thesis "On Replay and Hazards in Graphics
 * Processing Units" (UBC, 2012), Table 4.2: 10 SMs, 6 L2+MC, 700/1400/1800
 * MHz, 64 warps per SM, its L1D/L1C/L1T/L2 geometries with 32 MSHRs, two
 * schedulers (even/odd warps) with two-level scheduling and dual issue,
 * 8-entry warp buffers, an 8-slot generic operand collector, 2 SP + 1 SFU
 * + 1 LD/ST. What the thesis leaves open is listed in docs/timing.md
 * ("The turner preset"). */
static const char *const p_turner[] = {
    "gpgpu_n_clusters", "10",
    "gpgpu_n_cores_per_cluster", "1",
    "gpgpu_n_mem", "6",
    "gpgpu_n_sub_partition_per_mchannel", "1",
    "gpgpu_clock_domains", "700.0:1400.0:1400.0:1800.0",
    "dram_data_command_freq_ratio", "2",
    "gpgpu_shader_core_pipeline", "2048:32",
    "gpgpu_shader_cta", "8",
    "gpgpu_shmem_size", "26624",
    "gpgpu_num_sched_per_core", "2",
    "gpgpu_scheduler", "two_level_active:n=8",
    "gpgpu_max_insn_issue_per_warp", "2",
    "warpsim_warp_buffer", "8",
    "warpsim_oc", "gen8",
    "gpgpu_num_sp_units", "2",
    "gpgpu_num_sfu_units", "1",
    "gpgpu_num_reg_banks", "8",
    "gpgpu_reg_bank_use_warp_id", "1",
    "ptx_opcode_latency_sfu", "16",
    "ptx_opcode_initiation_sfu", "1",
    "gpgpu_cache:dl1", "64:128:6,L:L:m:N,A:32:8,8",
    "gpgpu_const_cache:l1", "64:64:2,L:R:f:N,A:32:8,8",
    "gpgpu_tex_cache:l1", "8:32:20,L:R:m:N,F:32:4,128:2",
    "gpgpu_cache:dl2", "64:32:8,L:B:m:W,A:32:4,4",
    NULL};

/* The GTX480 variant of the CIAO study (Zhang et al., IPDPS 2018, Table I):
 * GPGPU-Sim 3.2.2's GTX480 with the Fermi XOR set-index hash on the L1D and
 * the L2, a 768 KB 8-way L2 in 12 slices, 700 MHz core/icnt/L2 clocks and
 * GTO (the default scheduler). Its sensitivity machines change one thing. */
#define CIAO_BASE                                                                  \
    "gpgpu_n_sub_partition_per_mchannel", "2",                                     \
    "gpgpu_cache:dl1", "32:128:4,L:L:m:N:H,A:32:8,8",                             \
    "gpgpu_cache:dl2", "64:128:8,L:B:m:W:L,A:32:4,4",                             \
    "l1d_index", "fermi", "l2_index", "fermi",                                    \
    "gpgpu_shmem_size", "49152",                                                   \
    "gpgpu_scheduler", "gto"
static const char *const p_ciao[] = {CIAO_BASE, "gpgpu_clock_domains", "700.0:700.0:700.0:924.0",
                                     NULL};
/* GTO-cap: the 64 KB split the other way, 48 KB L1D (64 sets x 6 ways) / 16 KB shared */
static const char *const p_ciao_cap[] = {CIAO_BASE, "gpgpu_clock_domains",
                                         "700.0:700.0:700.0:924.0", "gpgpu_cache:dl1",
                                         "64:128:6,L:L:m:N:H,A:32:8,8", "gpgpu_shmem_size",
                                         "16384", NULL};
/* GTO-8way: 8 ways on the same 32 hashed sets (so 32 KB; the paper names only the ways) */
static const char *const p_ciao_8way[] = {CIAO_BASE, "gpgpu_clock_domains",
                                          "700.0:700.0:700.0:924.0", "gpgpu_cache:dl1",
                                          "32:128:8,L:L:m:N:H,A:32:8,8", NULL};
/* 2X: DRAM bandwidth 177 -> 340 GB/s (the paper's figure) by the DRAM clock */
static const char *const p_ciao_2x[] = {CIAO_BASE, "gpgpu_clock_domains", "700.0:700.0:700.0:1771.0",
                                        NULL};
#undef CIAO_BASE

/* Each doc says which GPGPU-Sim version and config the preset mirrors and how
 * far its cycle counts have been checked, so nobody quotes an unvalidated
 * preset's cycles as GPGPU-Sim's. */
static const preset g_presets[] = {
    {"gtx480",
     "the default: GPGPU-Sim 3.2.1's GTX480 config (configs/GTX480 of GPGPU-Sim 3.x), the\n"
     "baseline of the seed studies. Not validated against a GPGPU-Sim 3.2.1 run; it differs\n"
     "from GPGPU-Sim 4.2's SM2_GTX480 config (clocks, L2 slices, queues), so its cycles are\n"
     "not GPGPU-Sim 4.2's (vectoradd 65536: 8405 here vs 4870 for 4.2 on SM2_GTX480).\n"
     "Use it to compare mechanisms with each other, as the seed studies do.",
     p_gtx480},
    {"gtx480-v4",
     "GPGPU-Sim 4.2's SM2_GTX480 config (tests/data/gpgpusim-configs/SM2_GTX480, option for\n"
     "option). Validated: cycles within 10% of GPGPU-Sim 4.2 on its four reference runs\n"
     "(docs/timing.md, tools/fidelity.py). Use it to compare with GPGPU-Sim's numbers.",
     p_gtx480_v4},
    {"gtx480-hm",
     "gtx480 (GPGPU-Sim 3.2.1's GTX480) with heterogeneous memory, the machine of the BLPP\n"
     "page-placement study, which extended GPGPU-Sim 3.2.2 (docs/timing.md): 15 SMs, 64 L1D\n"
     "MSHRs, 1 MB L2 in 16 slices, 200 GB/s GPU memory (8 channels), 80 GB/s CPU memory (4\n"
     "channels, 350 cycles) over a 100-cycle, 160 GB/s link, 4 KB pages, -hm_page_policy local.\n"
     "Not validated against that study's simulator (its memory model is not published).",
     p_gtx480_hm},
    {"turner",
     "the machine of Turner's thesis on replay and hazards (UBC 2012, Table 4.2) over\n"
     "GPGPU-Sim 3.2.1's GTX480 config for what the thesis leaves open: 10 SMs, 6 L2+MC,\n"
     "64 warps/SM, 32 MSHRs, two schedulers with two-level scheduling and dual issue,\n"
     "8-entry warp buffers, an 8-slot generic operand collector. Not validated against\n"
     "the thesis's modified GPGPU-Sim 2.x (docs/timing.md, the turner preset).",
     p_turner},
    {"ciao",
     "GPGPU-Sim 3.2.2's GTX480 as the CIAO study (IPDPS 2018, Table I) set it up: gtx480\n"
     "with the Fermi XOR set-index hash on L1D and L2, 768 KB 8-way L2 in 12 slices, 700 MHz\n"
     "interconnect, GTO. Not validated against a GPGPU-Sim run: compare schemes with each\n"
     "other (-warpsim_throttle ciao_p | ciao_t | ciao_c | statpcal | ccws | swl:N).",
     p_ciao},
    {"ciao-gto-cap",
     "ciao (GPGPU-Sim 3.2.2's GTX480 variant) with a 48 KB L1D and 16 KB shared memory (the\n"
     "study's GTO-cap). Not validated against GPGPU-Sim.",
     p_ciao_cap},
    {"ciao-gto-8way",
     "ciao (GPGPU-Sim 3.2.2's GTX480 variant) with an 8-way L1D on the same 32 sets (32 KB;\n"
     "the study's GTO-8way). Not validated against GPGPU-Sim.",
     p_ciao_8way},
    {"ciao-2x",
     "ciao (GPGPU-Sim 3.2.2's GTX480 variant) with 340 GB/s DRAM bandwidth (DRAM clock 1771\n"
     "MHz; the study's 2X). Not validated against GPGPU-Sim.",
     p_ciao_2x},
    {"qv100",
     "GPGPU-Sim 4.2's SM7_QV100 config (Quadro V100, option for option; tests/data/gpgpusim-configs).\n"
     "Loads unmodified; options warpsim does not model are listed in `warpsim options`. Cycles\n"
     "not yet validated against GPGPU-Sim (docs/timing.md, post-Fermi configs).",
     ws_preset_qv100},
    {"titanv",
     "GPGPU-Sim 4.2's SM7_TITANV config (TITAN V, option for option). Not yet validated\n"
     "against GPGPU-Sim (docs/timing.md, post-Fermi configs).",
     ws_preset_titanv},
    {"rtx2060",
     "GPGPU-Sim 4.2's SM75_RTX2060 config (RTX 2060, option for option). Not yet validated\n"
     "against GPGPU-Sim (docs/timing.md, post-Fermi configs).",
     ws_preset_rtx2060},
    {"rtx3070",
     "GPGPU-Sim 4.2's SM86_RTX3070 config (RTX 3070, option for option). Not yet validated\n"
     "against GPGPU-Sim (docs/timing.md, post-Fermi configs).",
     ws_preset_rtx3070},
};

const char *const *ws_config_preset_names(void) {
    static const char *const names[] = {"gtx480", "gtx480-v4",    "gtx480-hm",     "turner",
                                        "ciao",   "ciao-gto-cap", "ciao-gto-8way", "ciao-2x",
                                        "qv100",  "titanv",       "rtx2060",       "rtx3070",
                                        NULL};
    return names;
}

int ws_config_apply_preset(ws_config *c, const char *name, char *err, size_t errlen) {
    for (size_t i = 0; i < sizeof g_presets / sizeof g_presets[0]; i++) {
        if (strcmp(g_presets[i].name, name)) continue;
        for (const char *const *s = g_presets[i].settings; *s; s += 2)
            if (ws_config_set(c, s[0], s[1], err, errlen)) return -1;
        return 0;
    }
    size_t n = (size_t)snprintf(err, errlen, "unknown preset '%s' (known:", name);
    for (size_t i = 0; i < sizeof g_presets / sizeof g_presets[0] && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, " %s", g_presets[i].name);
    if (n < errlen) snprintf(err + n, errlen - n, ")");
    return -1;
}

static void print_value(FILE *out, const ws_config *c, const opt_def *o) {
    char v[4200];
    format_value(v, sizeof v, c, o);
    fputs(v, out);
}

void ws_config_print_options(FILE *out) {
    fprintf(out, "Options (GPGPU-Sim names; config files use '-name value'). An unknown option is an\n"
                 "error; \"(accepted; no effect)\" marks GPGPU-Sim options warpsim does not model.\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        const opt_def *o = &g_opts[i];
        if (i == 0 || g_opts[i - 1].icnt != o->icnt)
            if (o->icnt) fprintf(out, "\nInterconnect file keys ('key = value;'):\n\n");
        fprintf(out, "  %s%-42s %-6s default %-12s %s\n", o->icnt ? "" : "-", o->name,
                type_name(o->type), *o->def ? o->def : "\"\"", o->doc);
    }
    fputc('\n', out);
    ws_policy_print_catalog(out); /* the policy options' parameters, from the policies' tables */
    fprintf(out, "\nPresets:\n");
    ws_config_print_presets(out);
}

void ws_config_print_presets(FILE *out) {
    for (size_t i = 0; i < sizeof g_presets / sizeof g_presets[0]; i++) {
        fprintf(out, "  %-10s ", g_presets[i].name);
        for (const char *d = g_presets[i].doc; *d; d++) {
            fputc(*d, out);
            if (*d == '\n') fprintf(out, "  %-10s ", "");
        }
        fputc('\n', out);
    }
}

/* The options that take effect, as "-name value" lines; with_doc: padded
 * and followed by "# doc", as GPGPU-Sim echoes its configuration. */
static void write_options(const ws_config *c, FILE *out, bool with_doc) {
    char v[4200];
    for (size_t i = 0; i < NOPTS; i++) {
        const opt_def *o = &g_opts[i];
        if (o->icnt || o->alias || no_effect(o) || !strcmp(o->name, "inter_config_file")) continue;
        format_value(v, sizeof v, c, o);
        if (with_doc) fprintf(out, "-%-40s %s # %s\n", o->name, v, o->doc);
        else fprintf(out, "-%s %s\n", o->name, v);
    }
}

void ws_config_echo(const ws_config *c, FILE *out) {
    fprintf(out, "# warpsim: configuration options (those that take effect)\n\n");
    write_options(c, out, true);
    fputc('\n', out);
}

void ws_config_write(const ws_config *c, FILE *out) {
    fprintf(out, "# warpsim effective configuration\n");
    write_options(c, out, false);
    fprintf(out, "# interconnect\n");
    for (size_t i = 0; i < NOPTS; i++) {
        const opt_def *o = &g_opts[i];
        if (!o->icnt || no_effect(o)) continue;
        /* informational: these keys belong in the .icnt file */
        fprintf(out, "# %s = ", o->name);
        print_value(out, c, o);
        fprintf(out, ";\n");
    }
}

int ws_config_int_list(const char *s, int64_t *out, int max) {
    int n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno) return -1;
        if (n == max) return -1;
        out[n++] = v;
        p = end;
        while (*p == ' ') p++;
        if (*p == ',') p++;
        else if (*p) return -1;
    }
    return n;
}

int ws_config_clocks(const char *s, double mhz[4]) {
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        char *end;
        mhz[i] = strtod(p, &end);
        if (end == p || !(mhz[i] > 0)) return -1;
        p = end;
        if (i < 3) {
            if (*p != ':') return -1;
            p++;
        }
    }
    return *p ? -1 : 0;
}
