/* Address decoding for the memory system (GPGPU-Sim's
 * -gpgpu_mem_addr_mapping): which channel, sub-partition, bank, row and
 * column an address falls in, and the partition-local address. */
#ifndef WARPSIM_TIMING_MEM_ADDRDEC_H
#define WARPSIM_TIMING_MEM_ADDRDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "timing/mem/mreq.h"

/* Fields are private to addrdec.c (the struct is public so that the GPU
 * can hold one by value and SMs can decode without a call through a pointer). */
typedef struct ws_addrdec {
    uint32_t n_chan, n_sub_per_chan;
    uint64_t priv[64];
} ws_addrdec;

/* 0, or -1 with err naming the option and what is wrong. */
int ws_addrdec_init(ws_addrdec *d, const ws_config *cfg, char *err, size_t errlen);
/* Fill r->chan, subpart, bank, bankgrp, row, col and part_addr for r->addr. */
void ws_addrdec_decode(const ws_addrdec *d, ws_mreq *r);
/* The same, gathering every field bit by bit (the reference tests compare with). */
void ws_addrdec_decode_ref(const ws_addrdec *d, ws_mreq *r);
/* Tests: ws_addrdec_decode gathers by runs of mask bits (off), or with
   BMI2's pext where the processor runs it fast (on: what init chose there).
   Returns whether it uses pext now. */
bool ws_addrdec_set_pext(ws_addrdec *d, bool on);

#endif
