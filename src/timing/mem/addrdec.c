/* GPGPU-Sim's linear-to-raw address translation, rewritten: a per-bit map
 * of chip (D), bank (B), row (R), column (C) and burst (S) bits, written
 * from bit 63 down. "dramid@N" puts the channel at bit N: with a power-of-
 * two channel count the channel bits are inserted there (everything above
 * moves up); otherwise the channel is (addr >> N) % n_chan and the rest of
 * the address is (addr >> N) / n_chan stitched above the low N bits, so
 * consecutive 2^N-byte chunks rotate over all channels. */
#include "timing/mem/addrdec.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "policy/index/gf2.h"
#include "timing/mem/dram.h"

enum { F_CHIP = 0, F_BK, F_ROW, F_COL, F_BURST, F_N };

/* A mask as its runs of consecutive set bits, lowest first: gathering the
 * bits a mask selects (packbits) is then one shift, AND and OR per run
 * instead of a test per bit position (every request is decoded, and the
 * partition-local address gathers from all 64 bits). A mask of more than
 * RUNS_MAX runs keeps the bit loop (n = RUNS_LOOP). */
enum { RUNS_MAX = 4, RUNS_LOOP = 0xFF };
typedef struct runs {
    uint8_t n;
    uint8_t lo[RUNS_MAX], pos[RUNS_MAX];
    uint64_t m[RUNS_MAX]; /* the run's bits, shifted down to bit 0 */
} runs;
enum { G_CHIP = 0, G_BK, G_ROW, G_COL, G_NOTCHIP, G_NOTSUB, G_N }; /* the masks decode gathers by */

typedef struct priv {
    uint64_t mask[F_N];
    uint8_t lo[F_N], hi[F_N];
    int32_t chip_s;            /* bit where the channel id sits, -1: none given */
    uint32_t gap;              /* n_chan is not a power of two */
    uint32_t log2chan, log2sub;
    uint32_t ipoly_banks;      /* indexing 2: next power of two of n_chan x n_sub */
    uint8_t ipoly_row[19];     /* ... and the ids each high address bit flips */
    uint64_t ipoly_mask;       /* the high bits that take part */
    uint64_t subpart_mask;     /* address bits that select the sub-partition */
    uint32_t bnk_policy, nbk, nbkgrp, bnkgrp_low, part_indexing;
    runs g[G_N];               /* G_*: the masks' runs */
    bool pext;                 /* gather with BMI2's pext (fast_pext) */
} priv;

_Static_assert(sizeof(priv) <= sizeof(((ws_addrdec *)0)->priv), "ws_addrdec.priv too small");

static uint32_t log2_floor(uint64_t x) {
    uint32_t n = 0;
    while (x >>= 1) n++;
    return n;
}

/* Gather the bits of val selected by mask (between lo and hi) into a
 * contiguous value, lowest first. */
static uint64_t packbits(uint64_t mask, uint64_t val, uint32_t hi, uint32_t lo) {
    uint64_t r = 0;
    uint32_t pos = 0;
    for (uint32_t i = lo; i < hi; i++)
        if ((mask >> i) & 1) r |= ((val >> i) & 1) << pos++;
    return r;
}

static void make_runs(runs *r, uint64_t mask) {
    r->n = 0;
    for (uint32_t i = 0, pos = 0; i < 64;) {
        if (!(mask >> i & 1)) {
            i++;
            continue;
        }
        uint32_t len = 0;
        while (i + len < 64 && (mask >> (i + len) & 1)) len++;
        if (r->n == RUNS_MAX) {
            r->n = RUNS_LOOP;
            return;
        }
        r->lo[r->n] = (uint8_t)i;
        r->m[r->n] = len == 64 ? ~0ull : (1ull << len) - 1;
        r->pos[r->n] = (uint8_t)pos;
        r->n++;
        pos += len;
        i += len;
    }
}

/* How decode gathers a mask's bits: by runs, bit by bit (the reference),
   or with one pext instruction (where fast_pext). */
typedef enum { BY_RUNS, BY_BITS, BY_PEXT } gather_by;

/* BMI2's pext gathers the bits a mask selects in one instruction (the same
   value as packbits). AMD processors before Zen 3 (family 0x19) run it in
   microcode, slower than the runs. */
static bool fast_pext(void) {
#if defined(__x86_64__)
    if (!__builtin_cpu_supports("bmi2")) return false;
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
    bool amd = b == 0x68747541; /* "AuthenticAMD" */
    if (!amd) return true;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    unsigned fam = (a >> 8) & 0xF;
    if (fam == 0xF) fam += (a >> 20) & 0xFF;
    return fam >= 0x19;
#else
    return false;
#endif
}

#if defined(__x86_64__)
/* (inline assembly: the function needs no BMI2 target, and runs only where
   fast_pext said so) */
static inline uint64_t pext64(uint64_t val, uint64_t mask) {
    uint64_t out;
    __asm__("pextq %2, %1, %0" : "=r"(out) : "r"(val), "rm"(mask));
    return out;
}
#else
static inline uint64_t pext64(uint64_t val, uint64_t mask) { return packbits(mask, val, 64, 0); }
#endif

/* packbits(mask, val, 64, 0), r made from mask */
static inline __attribute__((always_inline)) uint64_t gather(const runs *r, uint64_t mask,
                                                             uint64_t val, gather_by by) {
    if (by == BY_PEXT) return pext64(val, mask);
    if (by == BY_BITS || r->n == RUNS_LOOP) return packbits(mask, val, 64, 0);
    uint64_t out = 0;
    for (uint32_t k = 0; k < r->n; k++) out |= ((val >> r->lo[k]) & r->m[k]) << r->pos[k];
    return out;
}

static int parse_map(priv *p, const char *opt, char *err, size_t errlen) {
    int start;
    p->chip_s = sscanf(opt, "dramid@%d", &start) == 1 ? start : -1;
    const char *m = strchr(opt, ';');
    m = m ? m + 1 : opt;
    memset(p->mask, 0, sizeof p->mask);
    int ofs = 63;
    for (; *m; m++) {
        int f;
        switch (*m) {
        case 'D': case 'd': f = F_CHIP; break;
        case 'B': case 'b': f = F_BK; break;
        case 'R': case 'r': f = F_ROW; break;
        case 'C': case 'c': f = F_COL; break;
        case 'S': case 's': f = F_BURST; break;
        case '0': f = -1; break;
        case '.': case '|': case ' ': case '\n': case '\t': continue;
        default:
            snprintf(err, errlen,
                     "option -gpgpu_mem_addr_mapping: character '%c' in '%s' is not one of "
                     "D B R C S 0 . |",
                     *m, opt);
            return -1;
        }
        if (ofs < 0) break;
        if (f >= 0) p->mask[f] |= 1ull << ofs;
        ofs--;
    }
    if (ofs != -1) {
        snprintf(err, errlen,
                 "option -gpgpu_mem_addr_mapping: '%s' maps %d bits; 64 are needed", opt,
                 63 - ofs);
        return -1;
    }
    return 0;
}

int ws_addrdec_init(ws_addrdec *d, const ws_config *cfg, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    priv *p = (priv *)d->priv;
    d->n_chan = (uint32_t)cfg->n_mem;
    d->n_sub_per_chan = (uint32_t)cfg->n_sub_partition_per_mchannel;
    if (d->n_sub_per_chan & (d->n_sub_per_chan - 1)) {
        snprintf(err, errlen,
                 "option -gpgpu_n_sub_partition_per_mchannel: %u is not a power of two",
                 d->n_sub_per_chan);
        return -1;
    }
    uint32_t nchipbits = log2_floor(d->n_chan);
    p->log2chan = nchipbits;
    p->gap = d->n_chan != (1u << nchipbits);
    if (p->gap) nchipbits++;
    /* the built-in masks (used when no mapping string is given) */
    switch (cfg->mem_address_mask) {
    case 0:
        p->chip_s = 10;
        p->mask[F_BK] = 0x300; p->mask[F_ROW] = 0x7FFE000; p->mask[F_COL] = 0x1CFF;
        p->mask[F_BURST] = 0xF;
        break;
    case 1:
        p->chip_s = 13;
        p->mask[F_BK] = 0x1300; p->mask[F_ROW] = 0xFFF0000; p->mask[F_COL] = 0xCFF;
        p->mask[F_BURST] = 0xF;
        break;
    default:
        if (!cfg->mem_addr_mapping || !*cfg->mem_addr_mapping) {
            snprintf(err, errlen,
                     "option -gpgpu_mem_address_mask: %lld is not modelled without "
                     "-gpgpu_mem_addr_mapping (allowed: 0, 1)",
                     (long long)cfg->mem_address_mask);
            return -1;
        }
    }
    if (cfg->mem_addr_mapping && *cfg->mem_addr_mapping &&
        parse_map(p, cfg->mem_addr_mapping, err, errlen))
        return -1;
    if (p->chip_s >= 0) {
        if (!p->gap) {
            /* insert the channel bits at chip_s */
            uint64_t low = (1ull << p->chip_s) - 1;
            for (int f = F_BK; f < F_N; f++)
                p->mask[f] = ((p->mask[f] & ~low) << nchipbits) | (p->mask[f] & low);
            p->mask[F_CHIP] |= ((1ull << nchipbits) - 1) << p->chip_s;
        }
    } else if (d->n_chan > 1 && !p->mask[F_CHIP]) {
        snprintf(err, errlen,
                 "option -gpgpu_mem_addr_mapping: no channel bits (D) and no dramid@N for %u "
                 "channels",
                 d->n_chan);
        return -1;
    }
    for (int f = 0; f < F_N; f++)
        for (int g = f + 1; g < F_N; g++)
            if (p->mask[f] & p->mask[g]) {
                snprintf(err, errlen,
                         "option -gpgpu_mem_addr_mapping: fields overlap after inserting the "
                         "channel bits at bit %d",
                         p->chip_s);
                return -1;
            }
    for (int f = 0; f < F_N; f++) {
        p->lo[f] = 64;
        p->hi[f] = 0;
        for (int i = 0; i < 64; i++)
            if ((p->mask[f] >> i) & 1) {
                if (p->lo[f] == 64) p->lo[f] = (uint8_t)i;
                p->hi[f] = (uint8_t)(i + 1);
            }
        if (p->lo[f] == 64) p->lo[f] = 0;
    }
    /* the lowest log2(nsub) bank bits pick the sub-partition */
    uint32_t nsub_log2 = log2_floor(d->n_sub_per_chan), pos = 0;
    for (int i = p->lo[F_BK]; i < p->hi[F_BK] && pos < nsub_log2; i++)
        if ((p->mask[F_BK] >> i) & 1) {
            p->subpart_mask |= 1ull << i;
            pos++;
        }
    if (pos < nsub_log2) {
        snprintf(err, errlen,
                 "option -gpgpu_n_sub_partition_per_mchannel: %u needs %u bank bits in "
                 "-gpgpu_mem_addr_mapping, it has %u",
                 d->n_sub_per_chan, nsub_log2, pos);
        return -1;
    }
    make_runs(&p->g[G_CHIP], p->mask[F_CHIP]);
    make_runs(&p->g[G_BK], p->mask[F_BK]);
    make_runs(&p->g[G_ROW], p->mask[F_ROW]);
    make_runs(&p->g[G_COL], p->mask[F_COL]);
    make_runs(&p->g[G_NOTCHIP], ~p->mask[F_CHIP]);
    make_runs(&p->g[G_NOTSUB], ~p->subpart_mask);
    p->bnk_policy = (uint32_t)cfg->dram_bnk_indexing_policy;
    if (p->bnk_policy > 1) {
        snprintf(err, errlen,
                 "option -dram_bnk_indexing_policy: %u is not modelled (allowed: 0 = linear, "
                 "1 = XOR with row bits)",
                 p->bnk_policy);
        return -1;
    }
    p->part_indexing = (uint32_t)cfg->memory_partition_indexing;
    p->log2sub = nsub_log2;
    if (p->part_indexing == 2) {
        p->ipoly_banks = (1u << nchipbits) * d->n_sub_per_chan;
        int k = ws_ipoly_rows(p->ipoly_banks, p->ipoly_row);
        p->ipoly_mask = k > 0 ? (1ull << k) - 1 : 0;
        if (k < 0) {
            snprintf(err, errlen,
                     "option -gpgpu_memory_partition_indexing: 2 (IPOLY) needs 16, 32 or 64 "
                     "sub-partitions after rounding the channels up to a power of two (%u "
                     "channels x %u give %u)",
                     d->n_chan, d->n_sub_per_chan, p->ipoly_banks);
            return -1;
        }
    }
    if (p->part_indexing > 2) {
        snprintf(err, errlen,
                 "option -gpgpu_memory_partition_indexing: %u is not modelled (allowed: 0 = "
                 "consecutive, 1 = XOR with higher bits, 2 = IPOLY hash)",
                 p->part_indexing);
        return -1;
    }
    ws_dram_timing t = {0};
    if (ws_dram_timing_parse(cfg->dram_timing_opt, &t, err, errlen)) return -1;
    p->nbk = t.nbk;
    p->nbkgrp = t.nbkgrp;
    p->bnkgrp_low = cfg->dram_bnkgrp_indexing_policy != 0;
    p->pext = fast_pext();
    return 0;
}

/* (inlined in the entry points, so that the fast one tests only how to
   gather and makes no call: every request is decoded) */
static inline __attribute__((always_inline)) void decode(const ws_addrdec *d, ws_mreq *r,
                                                         gather_by by) {
    const priv *p = (const priv *)d->priv;
    uint64_t a = r->addr, rest = a, high;
    uint32_t chip;
    if (!p->gap) {
        chip = (uint32_t)gather(&p->g[G_CHIP], p->mask[F_CHIP], a, by);
        high = p->chip_s >= 0 ? a >> (p->chip_s + p->log2chan) : 0;
    } else {
        uint64_t above = a >> p->chip_s;
        chip = (uint32_t)(above % d->n_chan);
        high = above / d->n_chan;
        rest = (high << p->chip_s) | (a & ((1ull << p->chip_s) - 1));
    }
    /* (packbits between a field's lowest and highest bits: all of its mask) */
    uint32_t bk = (uint32_t)gather(&p->g[G_BK], p->mask[F_BK], rest, by);
    r->row = (uint32_t)gather(&p->g[G_ROW], p->mask[F_ROW], rest, by);
    r->col = (uint32_t)gather(&p->g[G_COL], p->mask[F_COL], rest, by);
    if (p->part_indexing == 1) chip = (chip ^ (uint32_t)(high & (d->n_chan - 1))) % d->n_chan;
    uint32_t sub = chip * d->n_sub_per_chan + (bk & (d->n_sub_per_chan - 1));
    if (p->part_indexing == 2) {
        /* IPOLY over the sub-partitions of the next power of two of channels, the
           bits above channel and sub-partition as its high part; an id past the
           real ones wraps down (GPGPU-Sim 4's rule for 12 or 24 channels) */
        uint64_t hb = p->gap ? high : a >> (p->chip_s + p->log2chan + p->log2sub);
        uint32_t nreal = d->n_chan * d->n_sub_per_chan;
        for (uint64_t b = hb & p->ipoly_mask; b; b &= b - 1) sub ^= p->ipoly_row[__builtin_ctzll(b)];
        while (sub >= nreal) sub -= nreal;
        chip = sub / d->n_sub_per_chan;
    }
    r->chan = (uint16_t)chip;
    r->subpart = (uint16_t)sub;
    /* the DRAM bank (after -dram_bnk_indexing_policy) and its group */
    uint32_t bank = bk;
    if (p->bnk_policy == 1) bank = bk ^ (r->row & (p->nbk - 1));
    r->bank = bank % p->nbk;
    r->bankgrp = p->bnkgrp_low ? r->bank % p->nbkgrp : r->bank / (p->nbk / p->nbkgrp);
    /* partition-local address: channel and sub-partition bits removed */
    uint64_t pa = p->gap ? rest : gather(&p->g[G_NOTCHIP], ~p->mask[F_CHIP], a, by);
    if (p->subpart_mask) pa = gather(&p->g[G_NOTSUB], ~p->subpart_mask, pa, by);
    r->part_addr = pa;
}

void ws_addrdec_decode(const ws_addrdec *d, ws_mreq *r) {
    if (((const priv *)d->priv)->pext) decode(d, r, BY_PEXT);
    else decode(d, r, BY_RUNS);
}
void ws_addrdec_decode_ref(const ws_addrdec *d, ws_mreq *r) { decode(d, r, BY_BITS); }

bool ws_addrdec_set_pext(ws_addrdec *d, bool on) {
    priv *p = (priv *)d->priv;
    p->pext = on && fast_pext();
    return p->pext;
}
