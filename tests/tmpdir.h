/* Temporary folders in tests: a run with a stats folder writes more files
 * (config.txt, stats.json, timeseries.csv, ...) than a test reads back, so
 * a test removes the whole folder rather than the files it knows of. */
#ifndef WARPSIM_TESTS_TMPDIR_H
#define WARPSIM_TESTS_TMPDIR_H

#include <ftw.h>
#include <stdio.h>

static inline int ws_test_rm_entry(const char *path, const struct stat *st, int flag,
                                   struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Remove dir and everything under it (links are removed, not followed). */
static inline void ws_test_rmtree(const char *dir) {
    nftw(dir, ws_test_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
