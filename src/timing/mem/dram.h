/* GDDR5 DRAM channel: banks in bank groups with row buffers, the timing
 * constraints of -gpgpu_dram_timing_opt, an FR-FCFS or FIFO scheduler and
 * a return queue. Ticked once per DRAM command clock.
 *
 * Per cycle: one data atom may leave the data pipeline for the return
 * queue; idle banks take their next request from the scheduler (FR-FCFS:
 * keep serving the open row while requests hit it, otherwise the oldest
 * request's row); then at most one command (ACT, PRE, RD or WR) is issued,
 * scanning banks round-robin. A column command moves one atom
 * (burst length x bus width x chips bytes) and its data appears CL (read)
 * or WL (write) cycles later. Constraints: tRCD (ACT->column), tRAS
 * (ACT->PRE), tRP (PRE->ACT), tRC (ACT->ACT, same bank), tRRD (ACT->ACT,
 * any bank), tCCD / tCCDL (column->column, any / same bank group), read->
 * write and write->read turnarounds, read->PRE (BL/ratio, tRTPL per group)
 * and write->PRE (WL + BL/ratio + tWR). */
#ifndef WARPSIM_TIMING_MEM_DRAM_H
#define WARPSIM_TIMING_MEM_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ws_dram_timing {
    uint32_t nbk, nbkgrp;
    uint32_t tCCD, tCCDL, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR, tRTPL;
    uint32_t BL, data_ratio;   /* burst length, data:command clock ratio */
    uint32_t atom_bytes;       /* bytes per column command */
    uint32_t bnkgrp_low_bits;  /* 1: group = bank % nbkgrp; 0: bank / (nbk / nbkgrp) */
} ws_dram_timing;

/* Parse "nbk=16:CCD=2:...". BL, data_ratio and atom_bytes must be set by
 * the caller (from the burst-length, ratio, bus-width and chips options). */
int ws_dram_timing_parse(const char *s, ws_dram_timing *t, char *err, size_t errlen);

typedef struct ws_dram_req {
    void *owner;         /* the caller's request */
    uint32_t bank, row, col;
    uint32_t bytes;      /* total bytes (a multiple of atom_bytes after rounding up) */
    bool write;
    bool no_reply;       /* writebacks: completed silently */
    uint64_t arrival;
} ws_dram_req;

typedef struct ws_dram_stats {
    uint64_t cycles, n_cmd, n_nop, n_activity, n_act, n_pre, n_rd, n_wr;
    uint64_t row_hits, row_misses; /* per scheduled request: open row reused or not */
    uint64_t busy_data_cycles;     /* data-bus cycles in use (bandwidth utilisation) */
    uint64_t reqs_done;
} ws_dram_stats;

typedef struct ws_dram ws_dram;

/* queue_size 0 = unlimited; frfcfs false = FIFO (oldest request per bank only). */
ws_dram *ws_dram_create(const ws_dram_timing *t, uint32_t queue_size, bool frfcfs,
                        uint32_t return_queue_size);
void ws_dram_destroy(ws_dram *d);

bool ws_dram_full(const ws_dram *d);
/* Queue a request (copied). Call only when !ws_dram_full(). */
void ws_dram_push(ws_dram *d, const ws_dram_req *r, uint64_t now);
/* One DRAM command cycle. */
void ws_dram_cycle(ws_dram *d, uint64_t now);
/* A settled idle channel's cycle (what ws_dram_cycle counts), nothing to
   return: true. Otherwise false and nothing done (call ws_dram_cycle). */
bool ws_dram_idle_cycle(ws_dram *d);
/* The same for n cycles at once (n >= 1): an idle cycle changes nothing the
   test reads, so either all n are idle or none is done. */
bool ws_dram_idle_cycles(ws_dram *d, uint32_t n);
/* Counts n idle cycles of a channel that ws_dram_idle_cycles found settled
   and that has had nothing to do since (what those calls would count). */
void ws_dram_count_idle(ws_dram *d, uint64_t n);
/* A finished request's owner (reads, and writes that want a reply), or NULL. */
void *ws_dram_pop_return(ws_dram *d);
/* Anything queued, in flight or waiting to return? */
bool ws_dram_busy(const ws_dram *d);
const ws_dram_stats *ws_dram_get_stats(const ws_dram *d);
/* Requests waiting (scheduler queue + being served), for the watchdog. */
unsigned ws_dram_pending(const ws_dram *d);

#endif
