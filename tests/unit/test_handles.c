/* The shims' live-handle registry (src/runtime/handles.c) against a plain
 * array under random adds, removes and drops, with handles that collide in
 * the table (consecutive addresses and multiples of the table size). */
#include <stdlib.h>

#include "runtime/handles.h"
#include "test.h"

enum { NKEYS = 600 };

typedef struct { int live; ws_handle_kind kind; uintptr_t owner; } ref_entry;

static uintptr_t key_of(int i) {
    /* half dense, half spread at large power-of-two strides */
    return i % 2 ? 0x1000 + (uintptr_t)i * 8 : ((uintptr_t)i << 20) + 0x40;
}

static int same_as_ref(const ws_handles *h, const ref_entry *ref) {
    size_t live = 0;
    for (int i = 0; i < NKEYS; i++) {
        for (int k = WS_HANDLE_STREAM; k <= WS_HANDLE_FUNCTION; k++) {
            int want = ref[i].live && ref[i].kind == (ws_handle_kind)k;
            if (ws_handles_has(h, (const void *)key_of(i), (ws_handle_kind)k) != want) return 0;
        }
        live += ref[i].live != 0;
    }
    return live == h->n;
}

static int dropped;
static void count_drop(void *p) { (void)p; dropped++; }

TEST(handles_registry_matches_reference) {
    ws_handles h = {0};
    ref_entry ref[NKEYS] = {{0}};
    unsigned seed = 12345;
    int ok = 1;
    for (int step = 0; step < 20000 && ok; step++) {
        seed = seed * 1103515245u + 12345u;
        int i = (int)((seed >> 8) % NKEYS), op = (int)((seed >> 20) % 10);
        ws_handle_kind kind = (ws_handle_kind)(WS_HANDLE_STREAM + (int)((seed >> 4) % 4));
        const void *p = (const void *)key_of(i);
        uintptr_t owner = (seed >> 12) % 3;
        if (op < 5) {
            CHECK(ws_handles_add(&h, p, kind, (const void *)owner) == 0);
            ref[i] = (ref_entry){1, kind, owner};
        } else if (op < 9) {
            int want = ref[i].live && ref[i].kind == kind;
            CHECK_EQ_I64(ws_handles_remove(&h, p, kind), want);
            if (want) ref[i].live = 0;
        } else if (step % 50 == 0) {
            /* drop one owner's handles of one kind */
            int want = 0;
            for (int j = 0; j < NKEYS; j++)
                if (ref[j].live && ref[j].kind == kind && ref[j].owner == owner && owner) {
                    ref[j].live = 0;
                    want++;
                }
            if (owner) {
                dropped = 0;
                ws_handles_drop(&h, kind, (const void *)owner, count_drop);
                CHECK_EQ_I64(dropped, want);
            }
        }
        ok = same_as_ref(&h, ref);
        CHECK_MSG(ok, "registry differs from the reference after step %d", step);
    }
    CHECK(ws_handles_add(&h, NULL, WS_HANDLE_STREAM, NULL) == -1);
    CHECK(!ws_handles_has(&h, NULL, WS_HANDLE_STREAM));
    ws_handles_drop(&h, WS_HANDLE_ANY, NULL, NULL);
    CHECK_EQ_U64(h.n, 0);
    for (int i = 0; i < NKEYS; i++)
        CHECK(!ws_handles_has(&h, (const void *)key_of(i), WS_HANDLE_EVENT));
    ws_handles_free(&h);
    CHECK(!ws_handles_has(&h, (const void *)key_of(1), WS_HANDLE_EVENT));
}
