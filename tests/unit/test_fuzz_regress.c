/* Replays the inputs that the fuzz harnesses (tests/fuzz) once crashed on,
 * through the harnesses themselves: tests/data/ptx/fuzz (PTX front end and
 * functional engine) and tests/data/config/fuzz (config and .icnt reader).
 * A crash, abort or sanitizer report (make asan) fails the suite. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test.h"

/* Each harness defines LLVMFuzzerTestOneInput; here each gets its own name. */
#define LLVMFuzzerTestOneInput fuzz_ptx_one
#include "fuzz/fuzz_ptx.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_exec_one
#include "fuzz/fuzz_exec.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_config_one
#include "fuzz/fuzz_config.c"
#undef LLVMFuzzerTestOneInput

typedef int (*harness_fn)(const uint8_t *, size_t);

/* The front end on a copy of the input that ends right before an
   inaccessible page: a read past the given length faults, even one that
   ASan does not see (inside libc, e.g. sscanf). */
static int ptx_at_page_end(const uint8_t *data, size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = (size + page - 1) / page * page + page;
    uint8_t *map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return 0;
    CHECK(mprotect(map + span - page, page, PROT_NONE) == 0);
    uint8_t *copy = map + span - page - size;
    memcpy(copy, data, size);
    ws_diag diag = {0};
    ws_module *m = ws_ptx_parse((const char *)copy, size, "fuzz.ptx", &diag);
    ws_module_free(m);
    munmap(map, span);
    return 0;
}

/* Runs every file of tests/data/DIR through the harnesses; how many there were. */
static int replay(const char *dir, const harness_fn *fns, int nfns) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/%s", ws_test_root(), dir);
    DIR *dp = opendir(path);
    if (!dp) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (e->d_name[0] == '.') continue;
        char file[8192];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        size_t len = 0;
        char *data = ws_test_read_file(file, &len);
        CHECK_MSG(data, "cannot read %s", file);
        for (int i = 0; data && i < nfns; i++) fns[i]((const uint8_t *)data, len);
        free(data);
        n++;
    }
    closedir(dp);
    return n;
}

TEST(fuzz_regressions_ptx) {
    const harness_fn fns[] = {ptx_at_page_end, fuzz_ptx_one, fuzz_exec_one};
    CHECK(replay("ptx/fuzz", fns, 3) > 0);
}

TEST(fuzz_regressions_config) {
    const harness_fn fns[] = {fuzz_config_one};
    replay("config/fuzz", fns, 1);
}
