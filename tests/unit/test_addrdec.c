/* Address decoding of the GTX480 mapping (6 channels, 2 sub-partitions),
 * checked against addresses decoded by hand. */
#include "config/config.h"
#include "test.h"
#include "timing/mem/addrdec.h"

static int init(ws_addrdec *d, const char *nmem, const char *nsub, const char *extra_name,
                const char *extra_val, char *err) {
    ws_config c;
    ws_config_init(&c);
    int rc = ws_config_set(&c, "gpgpu_n_mem", nmem, err, 256) ||
             ws_config_set(&c, "gpgpu_n_sub_partition_per_mchannel", nsub, err, 256) ||
             ws_config_set(&c, "dram_bnkgrp_indexing_policy", "1", err, 256);
    if (!rc && extra_name) rc = ws_config_set(&c, extra_name, extra_val, err, 256);
    if (!rc) rc = ws_addrdec_init(d, &c, err, 256);
    ws_config_free(&c);
    return rc;
}

static ws_mreq dec(const ws_addrdec *d, uint64_t a) {
    ws_mreq r = {0};
    r.addr = a;
    ws_addrdec_decode(d, &r);
    return r;
}

TEST(addrdec_gtx480_256B_chunks_rotate_over_6_channels) {
    ws_addrdec d;
    char err[256];
    CHECK(init(&d, "6", "2", NULL, NULL, err) == 0);
    /* chunk q of 256 B goes to channel q % 6 */
    for (uint64_t q = 0; q < 24; q++) CHECK_EQ_U64(dec(&d, q * 256 + 17).chan, q % 6);
    /* the rest of the address is (q / 6) above the low 8 bits: bit 8 of it is
       the lowest bank bit, which also picks the sub-partition */
    ws_mreq r = dec(&d, 0x600); /* q = 6: chan 0, rest 0x100 */
    CHECK_EQ_U64(r.chan, 0);
    CHECK_EQ_U64(r.bank, 1);
    CHECK_EQ_U64(r.subpart, 1);
    CHECK_EQ_U64(r.part_addr, 0);
    r = dec(&d, 0x500); /* q = 5 */
    CHECK_EQ_U64(r.chan, 5);
    CHECK_EQ_U64(r.subpart, 10);
    r = dec(&d, 0xC00 + 0x40); /* q = 12: chan 0, rest 0x240: col bits 6,7,9.. -> col 5 */
    CHECK_EQ_U64(r.chan, 0);
    CHECK_EQ_U64(r.bank, 0);
    CHECK_EQ_U64(r.col, 5);
    CHECK_EQ_U64(r.subpart, 0);
    CHECK_EQ_U64(r.part_addr, 0x140); /* bit 8 removed: 0x240 -> 0x140 */
    r = dec(&d, 0x6A0);
    CHECK_EQ_U64(r.part_addr, 0xA0);
    r = dec(&d, 192 * 256); /* rest 0x2000: bit 13 = bank bit 1 */
    CHECK_EQ_U64(r.chan, 0);
    CHECK_EQ_U64(r.bank, 2);
    CHECK_EQ_U64(r.bankgrp, 2); /* lower bits: 2 % 4 */
    CHECK_EQ_U64(r.row, 0);
    r = dec(&d, 1536ull * 256 + 5 * 256); /* rest 0x10000: row 1, channel 5 */
    CHECK_EQ_U64(r.chan, 5);
    CHECK_EQ_U64(r.row, 1);
    CHECK_EQ_U64(r.bank, 0);
}

TEST(addrdec_power_of_two_channels_insert_bits) {
    ws_addrdec d;
    char err[256];
    CHECK(init(&d, "8", "1", NULL, NULL, err) == 0);
    CHECK_EQ_U64(dec(&d, 0x100).chan, 1);
    CHECK_EQ_U64(dec(&d, 0x700).chan, 7);
    ws_mreq r = dec(&d, 0x800); /* bit 11 -> mapping bit 8 (bank bit 0) */
    CHECK_EQ_U64(r.chan, 0);
    CHECK_EQ_U64(r.bank, 1);
    CHECK_EQ_U64(r.part_addr, 0x100);
    CHECK_EQ_U64(dec(&d, 0x80).col, 2);
}

TEST(addrdec_bank_xor_and_errors) {
    ws_addrdec d;
    char err[256];
    CHECK(init(&d, "6", "2", "dram_bnk_indexing_policy", "1", err) == 0);
    ws_mreq r = dec(&d, 1536ull * 256 * 3); /* row 3, bank 0 -> 0 ^ 3 */
    CHECK_EQ_U64(r.row, 3);
    CHECK_EQ_U64(r.bank, 3);
    CHECK_EQ_U64(r.subpart, 0); /* sub-partition uses the address bank bits */
    CHECK(init(&d, "6", "2", "gpgpu_mem_addr_mapping", "dramid@8;0000RRRR.XX", err) == -1);
    CHECK_STR_CONTAINS(err, "character 'X'");
    CHECK(init(&d, "6", "2", "gpgpu_mem_addr_mapping", "dramid@8;RRRR", err) == -1);
    CHECK_STR_CONTAINS(err, "64 are needed");
    CHECK(init(&d, "6", "3", NULL, NULL, err) == -1);
    CHECK_STR_CONTAINS(err, "power of two");
}

/* -gpgpu_memory_partition_indexing 2 (IPOLY), worked by hand for the Volta
 * mapping: the sub-partition id (channel x 2 + lowest bank bit) hashed with
 * the bits above channel and sub-partition, over 64 ids (x^6+x+1). */
TEST(addrdec_ipoly_partition_indexing) {
    static const char *map =
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
    ws_config c;
    ws_addrdec d;
    char err[256];
    ws_config_init(&c);
    CHECK(ws_config_set(&c, "gpgpu_n_mem", "32", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "gpgpu_n_sub_partition_per_mchannel", "2", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "gpgpu_mem_addr_mapping", map, err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "gpgpu_memory_partition_indexing", "2", err, sizeof err) == 0);
    CHECK_MSG(ws_addrdec_init(&d, &c, err, sizeof err) == 0, "%s", err);
    /* channel bits 8..12, the sub-partition's bank bit 13, hashed bits from 14 */
    CHECK_EQ_U64(dec(&d, 1ull << 8).subpart, 2);   /* no high bits: unchanged */
    CHECK_EQ_U64(dec(&d, 1ull << 13).subpart, 1);
    ws_mreq r = dec(&d, 1ull << 14);                /* high = 1: x^6 = x+1 -> 3 */
    CHECK_EQ_U64(r.subpart, 3);
    CHECK_EQ_U64(r.chan, 1);
    /* 24 channels (TITAN V): 32 x 2 ids hashed, ids from 48 wrap down by 48 */
    CHECK(ws_config_set(&c, "gpgpu_n_mem", "24", err, sizeof err) == 0);
    CHECK_MSG(ws_addrdec_init(&d, &c, err, sizeof err) == 0, "%s", err);
    /* chunk 24*17: channel 0, high 17 (bank bit 1): 1 ^ (x^6 + x^10 = 51) = 50 -> 2 */
    r = dec(&d, (24ull * 17) << 8);
    CHECK_EQ_U64(r.subpart, 2);
    CHECK_EQ_U64(r.chan, 1);
    for (uint64_t a = 0; a < (1u << 22); a += 256) CHECK(dec(&d, a).subpart < 48);
    /* 3 channels x 1 round to 4 ids: refused; indexing 4 (random) is not modelled */
    CHECK(ws_config_set(&c, "gpgpu_n_mem", "3", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "gpgpu_n_sub_partition_per_mchannel", "1", err, sizeof err) == 0);
    CHECK(ws_addrdec_init(&d, &c, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "16, 32 or 64 sub-partitions");
    CHECK(ws_config_set(&c, "gpgpu_n_mem", "32", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "gpgpu_memory_partition_indexing", "4", err, sizeof err) == 0);
    CHECK(ws_addrdec_init(&d, &c, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "2 = IPOLY");
    ws_config_free(&c);
}

/* The decoder gathers each field's bits by runs of consecutive mask bits,
   or with pext where the processor runs it fast; the bit-by-bit reference
   must give the same fields as both, for every mapping kind: the built-in
   masks with a channel count that is or is not a power of two, the XOR and
   IPOLY partition indexing, a mapping string, and one whose fields have
   more runs than the decoder keeps (the bit loop). */
TEST(addrdec_runs_match_bit_loop) {
    static const char *cfgs[][4] = {
        {"6", "2", NULL, NULL},
        {"8", "2", NULL, NULL},
        {"8", "1", "gpgpu_mem_address_mask", "1"},
        {"12", "2", "gpgpu_memory_partition_indexing", "1"},
        {"8", "2", "gpgpu_memory_partition_indexing", "2"},
        {"12", "2", "gpgpu_mem_addr_mapping",
         "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS"},
        {"4", "2", "gpgpu_mem_addr_mapping",
         "dramid@8;RCRCRCRC.RCRCRCRC.RCRCRCRC.RCRCRCRC.RCRCRCRC.RCRCRCRC.RBBBCCCB.CCCSSSSS"},
    };
    uint64_t s = 0x243F6A8885A308D3ull;
    for (unsigned k = 0; k < sizeof cfgs / sizeof *cfgs; k++) {
        ws_addrdec d;
        char err[256];
        if (init(&d, cfgs[k][0], cfgs[k][1], cfgs[k][2], cfgs[k][3], err)) {
            CHECK(!err[0] && "config refused");
            return;
        }
        for (unsigned i = 0; i < 40000; i++) {
            if (i % 20000 == 0) ws_addrdec_set_pext(&d, i != 0); /* runs, then pext if fast */
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            uint64_t a = i % 20000 < 10000 ? s & 0xFFFFFFFFFFull : s; /* device range, then any */
            ws_mreq x = {0}, y = {0};
            x.addr = y.addr = a;
            ws_addrdec_decode(&d, &x);
            ws_addrdec_decode_ref(&d, &y);
            if (x.chan != y.chan || x.subpart != y.subpart || x.bank != y.bank ||
                x.bankgrp != y.bankgrp || x.row != y.row || x.col != y.col ||
                x.part_addr != y.part_addr) {
                CHECK(!"decode differs from the bit loop");
                return;
            }
        }
    }
}
