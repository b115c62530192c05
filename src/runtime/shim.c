/* Shared shim helpers: options from the environment, device attributes. */
#include "runtime/shim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int env_flag(const char *name, int dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    return !(strcmp(v, "0") == 0 || strcmp(v, "no") == 0 || strcmp(v, "false") == 0);
}

ws_status ws_shim_open_device(ws_device **out) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.config_file = getenv("WARPSIM_CONFIG");
    o.preset = getenv("WARPSIM_PRESET");
    o.functional_only = env_flag("WARPSIM_FUNCTIONAL", 0);
    o.stats_dir = getenv("WARPSIM_STATS_DIR");
    o.quiet = env_flag("WARPSIM_QUIET", 0);
    const char *mi = getenv("WARPSIM_MAX_INSN");
    if (mi && *mi) o.max_insn = strtoull(mi, NULL, 0);
    if (o.config_file && !*o.config_file) o.config_file = NULL;
    if (o.preset && !*o.preset) o.preset = NULL;
    if (o.stats_dir && !*o.stats_dir) o.stats_dir = NULL;
    o.dump_ptx_dir = getenv("WARPSIM_DUMP_PTX");
    if (o.dump_ptx_dir && !*o.dump_ptx_dir) o.dump_ptx_dir = NULL;
    /* WARPSIM_SET: option overrides, one "-name value" per line */
    const char *sets = getenv("WARPSIM_SET");
    char *copy = sets && *sets ? strdup(sets) : NULL;
    const char *over[65];
    int n = 0;
    for (char *save = NULL, *t = copy ? strtok_r(copy, "\n", &save) : NULL; t;
         t = strtok_r(NULL, "\n", &save)) {
        if (n == 64) { /* dropping the rest would run a config nobody asked for */
            fprintf(stderr, "warpsim: WARPSIM_SET: more than 64 option overrides\n");
            free(copy);
            return WS_ERR_CONFIG;
        }
        over[n++] = t;
    }
    over[n] = NULL;
    if (n) o.config_overrides = over;
    o.overrides_source = "WARPSIM_SET";
    ws_status s = ws_device_create(&o, out);
    free(copy);
    /* a bad configuration or unreadable file has been reported already, with
       its reason; other failures (out of memory) have not */
    int reported = s == WS_ERR_CONFIG || s == WS_ERR_IO;
    if (s != WS_OK)
        fprintf(stderr, "warpsim: cannot open the simulated device%s%s%s%s%s\n",
                reported ? "" : ": ", reported ? "" : ws_status_name(s),
                o.config_file ? " (WARPSIM_CONFIG=" : "", o.config_file ? o.config_file : "",
                o.config_file ? ")" : "");
    return s;
}

void ws_shim_module_name(char *buf, size_t n, unsigned index, unsigned arch) {
    /* program_invocation_short_name (GNU): the program's own name, the
       closest thing an embedded module has to a file name */
    if (arch)
        snprintf(buf, n, "%s.module%u.compute_%u.ptx", program_invocation_short_name, index, arch);
    else
        snprintf(buf, n, "%s.module%u.ptx", program_invocation_short_name, index);
}

int ws_shim_device_attr(const ws_device_props *p, int attr, int *v) {
    switch (attr) {
    case 1: *v = p->max_threads_per_block; return 0;
    case 2: case 3: case 4: *v = p->max_block_dim[attr - 2]; return 0;
    case 5: case 6: case 7: *v = p->max_grid_dim[attr - 5]; return 0;
    case 8: *v = (int)p->shared_per_block; return 0;
    case 9: *v = (int)p->const_mem; return 0;
    case 10: *v = p->warp_size; return 0;
    case 11: *v = 0x7fffffff; return 0;              /* max pitch */
    case 12: *v = p->regs_per_block; return 0;
    case 13: *v = p->clock_khz; return 0;
    case 14: *v = 512; return 0;                     /* texture alignment */
    case 15: *v = 1; return 0;                       /* gpu overlap */
    case 16: *v = p->num_sms; return 0;
    case 17: case 18: *v = 0; return 0;              /* exec timeout, integrated */
    case 19: *v = 1; return 0;                       /* can map host memory */
    case 20: *v = 0; return 0;                       /* compute mode default */
    case 31: *v = 0; return 0;                       /* concurrent kernels: launches run in order */
    case 32: *v = 0; return 0;                       /* ECC */
    case 33: case 34: case 50: *v = 0; return 0;     /* PCI bus/device/domain */
    case 36: *v = p->mem_clock_khz; return 0;
    case 37: *v = p->mem_bus_width; return 0;
    case 38: *v = p->l2_size; return 0;
    case 39: *v = p->max_threads_per_sm; return 0;
    case 40: *v = 1; return 0;                       /* async engines */
    case 41: *v = 1; return 0;                       /* unified addressing */
    case 75: *v = p->cc_major; return 0;
    case 76: *v = p->cc_minor; return 0;
    case 81: *v = (int)p->shared_per_sm; return 0;
    case 82: *v = p->regs_per_sm; return 0;
    case 83: *v = 1; return 0;                       /* managed memory */
    case 89: *v = 0; return 0;                       /* concurrent managed access */
    case 95: *v = 1; return 0;                       /* cooperative launch */
    case 97: *v = (int)p->shared_per_block; return 0;
    case 106: *v = p->max_blocks_per_sm; return 0;
    default: return -1;
    }
}

/* `warpsim run -- PROG` reads what happened from WARPSIM_SUMMARY_FILE: a
 * "loaded" line when a shim library is loaded (none: the program did not use
 * warpsim's runtime), then at exit one line per device with its failed
 * launches. Appends, so both shims and several devices can write. */
static void summary_line(const char *line) {
    const char *path = getenv("WARPSIM_SUMMARY_FILE");
    if (!path || !*path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fputs(line, f);
    fclose(f);
}

__attribute__((constructor)) static void shim_loaded(void) { summary_line("loaded\n"); }

/* The CUDA API is process-wide, so is its exit check: the shims' device slots. */
static ws_device **g_exit_slots[2];

static void check_outputs(void) {
    for (unsigned i = 0; i < 2; i++) {
        ws_device *d = g_exit_slots[i] ? *g_exit_slots[i] : NULL;
        if (!d) continue;
        ws_shim_sync_output(d);
        ws_run_totals t;
        ws_device_totals(d, &t);
        if (t.failed_launches) {
            char line[1200];
            snprintf(line, sizeof line, "failed_launches %llu %.1000s\n",
                     (unsigned long long)t.failed_launches, ws_device_first_failure(d));
            for (char *c = line; c[1]; c++)
                if (*c == '\n') *c = ' '; /* one line per device */
            summary_line(line);
        }
        if (ws_device_flush(d) != WS_OK) {
            fprintf(stderr, "warpsim: %s\n", ws_device_last_error(d));
            fflush(NULL);
            _exit(1);
        }
    }
}

void ws_shim_sync_output(ws_device *d) {
    if (d) ws_device_print_output(d, stdout);
}

enum { LIMIT_PRINTF_FIFO_SIZE = 1, LIMIT_MALLOC_HEAP_SIZE = 2 }; /* cudaLimit* / CU_LIMIT_* */

ws_status ws_shim_set_limit(ws_device *d, int limit, size_t value) {
    if (limit == LIMIT_PRINTF_FIFO_SIZE) return ws_device_set_printf_limit(d, value);
    if (limit == LIMIT_MALLOC_HEAP_SIZE) return ws_device_set_malloc_heap_limit(d, value);
    return WS_OK;
}

size_t ws_shim_get_limit(const ws_device *d, int limit) {
    return limit == LIMIT_PRINTF_FIFO_SIZE ? ws_device_printf_limit(d)
           : limit == LIMIT_MALLOC_HEAP_SIZE ? ws_device_malloc_heap_limit(d) : 0;
}

void ws_shim_check_outputs_at_exit(ws_device **slot) {
    unsigned i = 0;
    while (i < 2 && g_exit_slots[i] && g_exit_slots[i] != slot) i++;
    if (i == 2 || g_exit_slots[i]) return; /* full, or already watched */
    if (i == 0 && atexit(check_outputs) != 0) return;
    g_exit_slots[i] = slot;
}
