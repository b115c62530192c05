/* Reuse-distance analyses of a shared LLC (Huangfu, "Improving the
 * Performance and Time-Predictability of GPUs", Ch. 6): each core's
 * sequence of LLC line accesses is known (in order), the interleaving of
 * the cores is not. The reuse distance (RD) of an access to line L is the
 * number of distinct other lines of L's set accessed since the previous
 * access to L (infinite on the first); with LRU and associativity A it hits
 * iff RD < A.
 *
 *  - Simple method: the conflicting accesses of X on core c are c's own
 *    since its previous access to L, plus every access of every other core
 *    (their order relative to X is unknown); "previous" is on the same core.
 *  - Access Interval method: every core sends at most Q accesses per
 *    interval and an interval starts only when all active cores have
 *    finished the previous one, so the n-th access of a core is in interval
 *    n / Q. The previous access P to L is the latest one that surely came
 *    before X: on the same core earlier, or on any core in an earlier
 *    interval. The conflicts are all accesses of intervals S..E (S: P's, E:
 *    X's) except those of P's core in S up to P and those of X's core in E
 *    from X on.
 * Both predict a miss when there is no such P or when RD_max >= A, so they
 * never predict fewer misses than the LRU cache sees in any interleaving
 * the hardware allows. */
#ifndef WARPSIM_ANALYSIS_LLC_H
#define WARPSIM_ANALYSIS_LLC_H

#include <stddef.h>
#include <stdint.h>

#define WS_RD_INF UINT32_MAX

/* Reuse distances of one sequence of line addresses (all sets: only lines
   of the same set count, set = line % sets). rd[i] = WS_RD_INF on a first
   access. */
void ws_llc_reuse_distances(const uint64_t *lines, size_t n, uint32_t sets, uint32_t *rd);

typedef struct ws_llc_trace {
    unsigned ncores;
    const uint64_t *const *lines; /* [core][i]: line addresses in that core's order */
    const size_t *n;              /* [core] */
} ws_llc_trace;

/* Predicted misses (upper bounds) of each method. -1 when out of memory. */
int64_t ws_llc_simple(const ws_llc_trace *t, uint32_t sets, uint32_t ways);
int64_t ws_llc_access_interval(const ws_llc_trace *t, uint32_t sets, uint32_t ways, uint32_t quota);

/* A (128 B line address, SM < 256) pair as one sortable key. */
#define WS_LLC_HIT_KEY(line, sm) ((uint64_t)(line) << 1 | (uint64_t)(sm))

/* Per access: miss[c][n] = 1 where access n of core c is a predicted miss
   (0: a sure hit), by the Access Interval method with this quota, or by the
   Simple method when quota is 0 (no throttling: any interleaving).
   Returns the predicted misses, -1 when out of memory. */
int64_t ws_llc_predict(const ws_llc_trace *t, uint32_t sets, uint32_t ways, uint32_t quota,
                       uint8_t *const *miss);

/* Misses of an LRU cache (sets x ways, line % sets) on one interleaving:
   order[k] is the core of the k-th access (each core's accesses taken in
   its order). -1 on a bad order. */
int64_t ws_llc_lru_misses(const ws_llc_trace *t, const unsigned *order, size_t norder,
                          uint32_t sets, uint32_t ways);

#endif
