/* Set-index functions against hand-computed sets: the printed XOR trees of
 * seed 000 (PRIC, Poly(37)) and seed 003 (PLI x^6+x+1 and x^5+x^2+1), BXI
 * and PRI examples, argument checks, and the stride property. */
#include <stdlib.h>

#include "policy/index/gf2.h"
#include "policy/index/index.h"
#include "test.h"

/* Address bits of each index bit, as printed (0-terminated lists). */
static const int pric37_trees[5][12] = {
    {25, 24, 23, 22, 21, 18, 17, 15, 12, 7, 0},     /* I0 */
    {26, 25, 24, 23, 22, 19, 18, 16, 13, 8, 0},     /* I1 */
    {26, 22, 21, 20, 19, 18, 15, 14, 12, 9, 0},     /* I2 */
    {23, 22, 21, 20, 19, 16, 15, 13, 10, 0},        /* I3 */
    {24, 23, 22, 21, 20, 17, 16, 14, 11, 0},        /* I4 */
};
static const int pli43_trees[6][12] = {
    {31, 30, 29, 28, 25, 23, 19, 18, 13, 7, 0},     /* I0 */
    {28, 26, 25, 24, 23, 20, 18, 14, 13, 8, 0},     /* I1 */
    {29, 27, 26, 25, 24, 21, 19, 15, 14, 9, 0},     /* I2 */
    {30, 28, 27, 26, 25, 22, 20, 16, 15, 10, 0},    /* I3 */
    {31, 29, 28, 27, 26, 23, 21, 17, 16, 11, 0},    /* I4 */
    {30, 29, 28, 27, 24, 22, 18, 17, 12, 0},        /* I5 */
};
static const int pli37_trees[5][16] = {
    {30, 29, 25, 24, 23, 22, 21, 18, 17, 15, 12, 7, 0},                 /* I0 */
    {31, 30, 26, 25, 24, 23, 22, 19, 18, 16, 13, 8, 0},                 /* I1 */
    {31, 30, 29, 27, 26, 22, 21, 20, 19, 18, 15, 14, 12, 9, 0},         /* I2 */
    {31, 30, 28, 27, 23, 22, 21, 20, 19, 16, 15, 13, 10, 0},            /* I3 */
    {31, 29, 28, 24, 23, 22, 21, 20, 17, 16, 14, 11, 0},                /* I4 */
};

/* Expected set of an address with only bit k set, from the trees. */
static uint32_t tree_set(const int *trees, int width, int nbits, int k) {
    uint32_t s = 0;
    for (int i = 0; i < nbits; i++)
        for (const int *t = trees + i * width; *t; t++)
            if (*t == k) s |= 1u << i;
    return s;
}

static ws_index mk(const char *spec, uint32_t sets) {
    ws_index ix = {0};
    char err[256];
    ws_cache_geom g = {sets, 128, 4, NULL};
    CHECK_MSG(ws_index_create(&ix, spec, &g, err, sizeof err) == 0, "%s: %s", spec, err);
    return ix;
}

TEST(index_pric_poly37_matches_printed_trees) {
    ws_index ix = mk("pric", 32);
    for (int k = 0; k < 40; k++) {
        uint32_t want = k >= 7 && k <= 26 ? tree_set(&pric37_trees[0][0], 12, 5, k) : 0;
        CHECK_MSG(ws_index_set(&ix, 1ull << k) == want, "A%d: set %u, tree %u", k,
                  ws_index_set(&ix, 1ull << k), want);
    }
    /* H-matrix rows (Fig. 5.12), columns I4..I0 */
    static const struct { int k; uint32_t row; } h[] = {
        {26, 0x06}, {25, 0x03}, {24, 0x13}, {23, 0x1B}, {22, 0x1F}, {21, 0x1D}, {20, 0x1C},
        {19, 0x0E}, {18, 0x07}, {17, 0x11}, {16, 0x1A}, {15, 0x0D}, {14, 0x14}, {13, 0x0A},
        {12, 0x05}, {11, 0x10}, {10, 0x08}, {9, 0x04}, {8, 0x02}, {7, 0x01}};
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
        CHECK_EQ_U64(ws_index_set(&ix, 1ull << h[i].k), h[i].row);
    /* linear over GF(2): a combination is the XOR of its bits' rows */
    uint64_t a = (1ull << 26) | (1ull << 19) | (1ull << 12) | (1ull << 7) | 0x7f;
    CHECK_EQ_U64(ws_index_set(&ix, a), 0x06 ^ 0x0E ^ 0x05 ^ 0x01);
    /* the 27-bit limit is an argument: with 32 bits, A27 matters */
    ws_index wide = mk("pric:37:32", 32);
    CHECK_EQ_U64(ws_index_set(&wide, 1ull << 27), 0x0C); /* x^20 mod P = x^3 + x^2 */
    CHECK_EQ_U64(ws_index_set(&wide, 1ull << 19), 0x0E);
    ws_index_destroy(&wide);
    ws_index_destroy(&ix);
}

TEST(index_pli_x6_x_1_matches_printed_trees) {
    ws_index ix = mk("pli", 64);          /* default for 64 sets: x^6+x+1 */
    ws_index hex = mk("pli:0x43", 64);
    for (int k = 0; k < 32; k++) {
        uint32_t want = k >= 7 ? tree_set(&pli43_trees[0][0], 12, 6, k) : 0;
        CHECK_MSG(ws_index_set(&ix, 1ull << k) == want, "A%d: set %u, tree %u", k,
                  ws_index_set(&ix, 1ull << k), want);
        CHECK_EQ_U64(ws_index_set(&hex, 1ull << k), want);
    }
    ws_index_destroy(&hex);
    ws_index_destroy(&ix);
}

TEST(index_pli_x5_x2_1_matches_printed_trees) {
    ws_index ix = mk("pli", 32);          /* seed 003's L1D choice */
    for (int k = 0; k < 32; k++) {
        uint32_t want = k >= 7 ? tree_set(&pli37_trees[0][0], 16, 5, k) : 0;
        CHECK_MSG(ws_index_set(&ix, 1ull << k) == want, "A%d: set %u, tree %u", k,
                  ws_index_set(&ix, 1ull << k), want);
    }
    /* PLI and PRIC agree below bit 27 */
    ws_index pric = mk("pric:37", 32);
    for (uint64_t a = 0; a < (1ull << 27); a += 0x12345)
        CHECK_EQ_U64(ws_index_set(&ix, a), ws_index_set(&pric, a));
    ws_index_destroy(&pric);
    ws_index_destroy(&ix);
}

TEST(index_poly_arguments_and_errors) {
    ws_index ix;
    char err[256];
    ws_cache_geom g32 = {32, 128, 4, NULL}, g64 = {64, 128, 8, NULL}, g48 = {48, 128, 4, NULL};
    CHECK(ws_gf2_irreducible(37) && ws_gf2_irreducible(41) && ws_gf2_irreducible(47));
    CHECK(ws_gf2_irreducible(55) && ws_gf2_irreducible(59) && ws_gf2_irreducible(61));
    CHECK(ws_gf2_irreducible(0x43) && !ws_gf2_irreducible(33) && !ws_gf2_irreducible(63));
    CHECK(ws_index_create(&ix, "pric:55", &g32, err, sizeof err) == 0); /* sensitivity study */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 12), 55 & 31);               /* x^5 = x^4+x^2+x+1 */
    ws_index_destroy(&ix);
    CHECK(ws_index_create(&ix, "pric:33", &g32, err, sizeof err) == -1); /* x^5+1 = (x+1)(...) */
    CHECK_STR_CONTAINS(err, "reducible");
    CHECK(ws_index_create(&ix, "pli:0x43", &g32, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "degree 6");
    CHECK(ws_index_create(&ix, "pric:37", &g64, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "need degree 6");
    CHECK(ws_index_create(&ix, "pli", &g48, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "power-of-two");
    CHECK(ws_index_create(&ix, "pric:banana", &g32, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "pric index: bad argument 'banana' (poly: an integer in [0, 131071]");
    CHECK(ws_index_create(&ix, "pric::6", &g32, err, sizeof err) == -1); /* abits below the line */
    CHECK_STR_CONTAINS(err, "abits=6");
    CHECK(ws_index_create(&ix, "pric::27", &g32, err, sizeof err) == 0); /* POLY left default */
    ws_index_destroy(&ix);
    /* other sizes get an irreducible default */
    ws_cache_geom g128 = {128, 128, 4, NULL};
    CHECK(ws_index_create(&ix, "pli", &g128, err, sizeof err) == 0);
    for (uint64_t a = 0; a < 1u << 20; a += 4096) CHECK(ws_index_set(&ix, a) < 128);
    ws_index_destroy(&ix);
}

TEST(index_bxi_and_prime_examples) {
    ws_index b32 = mk("bxi", 32), b64 = mk("bxi", 64);
    /* L1D: I = A[11:7] ^ A[16:12] */
    CHECK_EQ_U64(ws_index_set(&b32, 1ull << 12), 1);
    CHECK_EQ_U64(ws_index_set(&b32, 1ull << 16), 16);
    CHECK_EQ_U64(ws_index_set(&b32, (1ull << 7) | (1ull << 12)), 0);
    CHECK_EQ_U64(ws_index_set(&b32, 1ull << 17), 0);            /* above 2S bits */
    CHECK_EQ_U64(ws_index_set(&b32, 0x3 << 7 | 0x5ull << 12), 6);
    /* L2: I = A[12:7] ^ A[18:13] */
    CHECK_EQ_U64(ws_index_set(&b64, 1ull << 13), 1);
    CHECK_EQ_U64(ws_index_set(&b64, 1ull << 18), 32);
    CHECK_EQ_U64(ws_index_set(&b64, 1ull << 19), 0);
    ws_index p32 = mk("prime", 32), p64 = mk("prime", 64);
    CHECK_EQ_U64(ws_index_set(&p32, 31 * 128), 0);             /* mod 31 */
    CHECK_EQ_U64(ws_index_set(&p32, 32 * 128), 1);
    CHECK_EQ_U64(ws_index_set(&p32, 1000 * 128 + 5), 1000 % 31);
    CHECK_EQ_U64(ws_index_set(&p64, 64 * 128), 3);             /* mod 61 */
    CHECK_EQ_U64(ws_index_set(&p64, (1ull << 40) + 128), ((1ull << 33) + 1) % 61);
    unsigned used = 0;
    for (uint64_t k = 0; k < 4096; k++) used |= 1u << ws_index_set(&p32, k * 128);
    CHECK_EQ_U64(used, 0x7fffffffu); /* set 31 is never used (fragmentation) */
    ws_index_destroy(&b32);
    ws_index_destroy(&b64);
    ws_index_destroy(&p32);
    ws_index_destroy(&p64);
}

TEST(index_stride_property_pric) {
    /* 32 references at power-of-two line strides: linear uses 1 set, Poly(37)
       spreads them over >= 25 sets with at most 2 per set (seed 000 §2.4; its
       claim for the non-power-of-two stride 96 does not hold from base 0: 23 sets) */
    ws_index lin = mk("linear", 32), pric = mk("pric", 32);
    static const uint64_t strides[] = {32, 64, 128, 256, 1024, 4096};
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
        unsigned cnt[32] = {0}, lin_sets = 0, sets = 0, most = 0;
        uint32_t lin_seen = 0;
        for (uint64_t r = 0; r < 32; r++) {
            uint64_t a = r * strides[s] * 128;
            lin_seen |= 1u << ws_index_set(&lin, a);
            unsigned c = ++cnt[ws_index_set(&pric, a)];
            if (c == 1) sets++;
            if (c > most) most = c;
        }
        lin_sets = (unsigned)__builtin_popcount(lin_seen);
        CHECK_EQ_U64(lin_sets, 1);
        CHECK_MSG(sets >= 25 && most <= 2, "stride %llu lines: %u sets, at most %u per set",
                  (unsigned long long)strides[s], sets, most);
    }
    ws_index_destroy(&lin);
    ws_index_destroy(&pric);
}

TEST(index_registry_knows_the_family) {
    const char *names[] = {"linear", "fermi", "bxi", "pric", "pli", "prime", "adi"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK_MSG(ws_index_find(names[i]) != NULL, "%s missing", names[i]);
    char err[256];
    ws_index ix;
    ws_cache_geom g = {32, 128, 4, NULL};
    CHECK(ws_index_create(&ix, "bxi:1", &g, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "no arguments");
    CHECK(ws_index_create(&ix, "nope", &g, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "pric");
}

/* IPOLY ('P', GPGPU-Sim 4): block address mod x^5+x^2+1 (32 sets), over the 15
 * block-address bits above the index only. Sets worked by hand in GF(2). */
TEST(index_ipoly_rule_by_hand) {
    ws_index ix, letter;
    char err[256];
    ws_cache_geom g32 = {32, 128, 24, NULL}, g16 = {16, 128, 4, NULL}, g64 = {64, 128, 8, NULL};
    ws_cache_geom g4 = {4, 128, 64, NULL};
    CHECK(ws_index_create(&ix, "ipoly", &g32, err, sizeof err) == 0);
    CHECK(ws_index_create(&letter, "P", &g32, err, sizeof err) == 0);
    CHECK(letter.policy == ix.policy);
    CHECK_EQ_U64(ws_index_set(&ix, 3ull << 7), 3);     /* below x^5: the linear index */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 12), 5);    /* x^5 = x^2+1 */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 13), 10);   /* x^6 = x^3+x */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 15), 13);   /* x^8 = x^3+x^2+1 */
    CHECK_EQ_U64(ws_index_set(&ix, (1ull << 12) | (5ull << 7)), 0); /* x^5 + x^2+1 */
    /* block bit 19 (x^19) takes part, bit 20 and above do not */
    CHECK(ws_index_set(&ix, 1ull << 26) != 0);
    CHECK_EQ_U64(ws_index_set(&ix, (1ull << 27) | (1ull << 40) | (7ull << 7)), 7);
    /* conflict-free for a power-of-two stride: 32 consecutive 4 KiB strides fill 32 sets */
    uint32_t seen = 0;
    for (uint64_t i = 0; i < 32; i++) seen |= 1u << ws_index_set(&ix, i << 12);
    CHECK_EQ_U64(seen, 0xffffffffu);
    ws_index_destroy(&ix);
    ws_index_destroy(&letter);
    /* 16 sets: x^4+x+1 over 13 high bits; 64 sets: x^6+x+1 over 19 */
    CHECK(ws_index_create(&ix, "P", &g16, err, sizeof err) == 0);
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 11), 3);    /* x^4 = x+1 */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 24), 0);    /* x^17: past the 13 high bits */
    ws_index_destroy(&ix);
    CHECK(ws_index_create(&ix, "P", &g64, err, sizeof err) == 0);
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 13), 3);    /* x^6 = x+1 */
    CHECK_EQ_U64(ws_index_set(&ix, 1ull << 18), 0x23); /* x^11 = x^5+x+1 */
    ws_index_destroy(&ix);
    CHECK(ws_index_create(&ix, "P", &g4, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "16, 32 or 64 sets");
    /* the partition hash is the same function of (bits above, index) */
    CHECK_EQ_U64(ws_ipoly_hash(1, 0, 32), 5);
    CHECK_EQ_U64(ws_ipoly_hash(1, 0, 64), 3);
    CHECK_EQ_U64(ws_ipoly_hash(1ull << 15, 9, 32), 9);
}

/* The bit_field hook (the cache's inline set): linear's field gives the set its set_index
   gives, for a power-of-two number of sets; with any other number there is no field. */
TEST(index_linear_bit_field_matches_set_index) {
    ws_index ix = mk("linear", 64);
    uint32_t shift = 0;
    uint64_t mask = 0;
    CHECK(ix.policy->bit_field && ix.policy->bit_field(ix.state, &shift, &mask));
    uint64_t x = 12345;
    for (int i = 0; i < 10000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if ((uint32_t)((x >> shift) & mask) != ws_index_set(&ix, x)) {
            CHECK_MSG(0, "address %llx: field set differs", (unsigned long long)x);
            break;
        }
    }
    ws_index_destroy(&ix);
    ix = mk("linear", 48);
    CHECK(!ix.policy->bit_field(ix.state, &shift, &mask));
    ws_index_destroy(&ix);
}
