/* Size caps on files read into memory (src/util/readfile.c): config and
 * .icnt files (16 MiB), PTX files (256 MiB). An endless input (/dev/zero, a
 * FIFO) is refused quickly, naming the file and the limit, and what is
 * allocated stays near the limit. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"
#include "test.h"
#include "util/readfile.h"
#include "warpsim/warpsim.h"

/* Resident bytes of this process now. */
static long long resident_bytes(void) {
    long long pages = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lld %lld", &pages, &res) != 2) res = 0;
        fclose(f);
    }
    return res * sysconf(_SC_PAGESIZE);
}

/* Runs fn in a child with a 20 s alarm and (outside ASan, which reserves
 * terabytes of address space) a 3 GiB address-space limit, so that an
 * unbounded read fails this test instead of filling the machine. fn returns
 * 1 on success. Checks that it succeeded and grew the resident set by less
 * than max_growth bytes. */
static void in_child(int (*fn)(void), long long max_growth, const char *what) {
    long long base = resident_bytes();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
#ifndef UNDER_ASAN
        struct rlimit rl = {3LL << 30, 3LL << 30};
        setrlimit(RLIMIT_AS, &rl);
#endif
        alarm(20);
        _exit(fn() ? 0 : 1);
    }
    int status = 0;
    struct rusage ru;
    CHECK(wait4(pid, &status, 0, &ru) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child status 0x%x", what, status);
    long long growth = (long long)ru.ru_maxrss * 1024 - base;
    CHECK_MSG(growth < max_growth, "%s: resident set grew by %lld MiB (allowed %lld MiB)", what,
              growth >> 20, max_growth >> 20);
}

/* The config error names the file and the 16 MiB limit. */
static int names_file_and_limit(int rc, const char *err, const char *file) {
    if (rc == 0 || !strstr(err, file) || !strstr(err, "16 MiB")) {
        fprintf(stderr, "rc %d: %s\n", rc, err);
        return 0;
    }
    return 1;
}

static int config_dev_zero(void) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    int rc = ws_config_load_file(&c, "/dev/zero", NULL, NULL, err, sizeof err);
    ws_config_free(&c);
    return names_file_and_limit(rc, err, "config file '/dev/zero'");
}

static int icnt_dev_zero(void) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    int rc = ws_config_load_text(&c, "-inter_config_file /dev/zero\n", "t.config", NULL, NULL,
                                 NULL, err, sizeof err);
    ws_config_free(&c);
    return names_file_and_limit(rc, err, "interconnect file '/dev/zero'");
}

/* The path of the shims' WARPSIM_CONFIG and `warpsim run --config`. */
static int device_config_dev_zero(void) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.config_file = "/dev/zero";
    ws_device *d = NULL;
    ws_status s = ws_device_create(&o, &d);
    if (d) ws_device_destroy(d);
    return s == WS_ERR_IO;
}

static int ptx_dev_zero(void) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) return 0;
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load_file(d, "/dev/zero", &m);
    const char *e = ws_device_last_error(d);
    int ok = s == WS_ERR_IO && strstr(e, "PTX file '/dev/zero'") && strstr(e, "256 MiB");
    if (!ok) fprintf(stderr, "ptx: %s: %s\n", ws_status_name(s), e);
    ws_device_destroy(d);
    return ok;
}

TEST(readfile_caps_config_and_icnt_on_dev_zero) {
    in_child(config_dev_zero, 64LL << 20, "config /dev/zero");
    in_child(icnt_dev_zero, 64LL << 20, ".icnt /dev/zero");
    ws_test_stderr cap;
    ws_test_stderr_begin(&cap);
    in_child(device_config_dev_zero, 64LL << 20, "device config /dev/zero");
    char *msg = ws_test_stderr_end(&cap);
    CHECK_STR_CONTAINS(msg, "config file '/dev/zero': larger than the limit of 16 MiB");
    free(msg);
}

TEST(readfile_caps_ptx_on_dev_zero) {
    /* realloc by doubling may hold 1.5 times the limit for a moment; under
       ASan the freed smaller buffers stay resident in its quarantine */
#ifdef UNDER_ASAN
    in_child(ptx_dev_zero, 4 * (256LL << 20), "PTX /dev/zero");
#else
    in_child(ptx_dev_zero, (256LL + 128 + 64) << 20, "PTX /dev/zero");
#endif
}

TEST(readfile_limit_is_inclusive) {
    char path[] = "/tmp/warpsim-readfile-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    char block[4096];
    memset(block, 'x', sizeof block);
    CHECK(write(fd, block, sizeof block) == (ssize_t)sizeof block);
    close(fd);
    size_t len = 0;
    char *t = ws_read_file_capped(path, sizeof block, &len);
    CHECK(t && len == sizeof block && t[len] == '\0');
    free(t);
    errno = 0;
    CHECK(!ws_read_file_capped(path, sizeof block - 1, &len));
    CHECK_EQ_I64(errno, EFBIG);
    char msg[256];
    ws_read_file_error(msg, sizeof msg, "config file", path, WS_CONFIG_FILE_MAX);
    CHECK_STR_CONTAINS(msg, "larger than the limit of 16 MiB");
    unlink(path);
}

/* A FIFO whose writer never stops: reading stops at the limit. */
TEST(readfile_stops_on_an_endless_fifo) {
    char dir[] = "/tmp/warpsim-fifo-XXXXXX";
    CHECK(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    pid_t w = fork();
    CHECK(w >= 0);
    if (w == 0) {
        alarm(20);
        int fd = open(path, O_WRONLY);
        char block[65536] = {0};
        while (fd >= 0 && write(fd, block, sizeof block) > 0) {}
        _exit(0);  /* EPIPE (or SIGPIPE) once the reader is gone */
    }
    errno = 0;
    CHECK(!ws_read_file_capped(path, 1 << 20, NULL));
    CHECK_EQ_I64(errno, EFBIG);
    int status;
    CHECK(waitpid(w, &status, 0) == w);
    CHECK_MSG(!WIFSIGNALED(status) || WTERMSIG(status) == SIGPIPE, "writer status 0x%x", status);
    unlink(path);
    rmdir(dir);
}
