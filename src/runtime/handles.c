/* Live-handle registry (see handles.h). */
#include "runtime/handles.h"

#include <stdlib.h>

/* Home slot: Fibonacci hashing of the address (its low bits are alignment). */
static size_t home(uintptr_t key, size_t cap) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* Slot of key, or of the free slot where it would go. */
static size_t probe(const ws_handles *h, uintptr_t key) {
    size_t i = home(key, h->cap);
    while (h->slot[i].key && h->slot[i].key != key) i = (i + 1) & (h->cap - 1);
    return i;
}

static int grow(ws_handles *h) {
    size_t cap = h->cap ? 2 * h->cap : 64;
    ws_handle_slot *old = h->slot, *s = calloc(cap, sizeof *s);
    if (!s) return -1;
    size_t old_cap = h->cap;
    h->slot = s;
    h->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key) h->slot[probe(h, old[i].key)] = old[i];
    free(old);
    return 0;
}

int ws_handles_add(ws_handles *h, const void *p, ws_handle_kind kind, const void *owner) {
    uintptr_t key = (uintptr_t)p;
    if (!key) return -1;
    if (2 * (h->n + 1) > h->cap && grow(h) != 0) return -1;
    size_t i = probe(h, key);
    if (!h->slot[i].key) h->n++;
    h->slot[i] = (ws_handle_slot){key, (uintptr_t)owner, kind};
    return 0;
}

int ws_handles_has(const ws_handles *h, const void *p, ws_handle_kind kind) {
    uintptr_t key = (uintptr_t)p;
    if (!key || !h->cap) return 0;
    const ws_handle_slot *s = &h->slot[probe(h, key)];
    return s->key == key && s->kind == kind;
}

/* Empties slot i and moves later entries of its probe run back so that no
   lookup stops early at the hole (no tombstones needed). */
static void erase_at(ws_handles *h, size_t i) {
    size_t mask = h->cap - 1;
    for (size_t j = (i + 1) & mask; h->slot[j].key; j = (j + 1) & mask) {
        size_t k = home(h->slot[j].key, h->cap);
        /* the entry at j may stay if its home lies cyclically in (i, j] */
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        h->slot[i] = h->slot[j];
        i = j;
    }
    h->slot[i] = (ws_handle_slot){0, 0, WS_HANDLE_ANY};
    h->n--;
}

int ws_handles_remove(ws_handles *h, const void *p, ws_handle_kind kind) {
    if (!ws_handles_has(h, p, kind)) return 0;
    erase_at(h, probe(h, (uintptr_t)p));
    return 1;
}

void ws_handles_drop(ws_handles *h, ws_handle_kind kind, const void *owner, void (*fn)(void *)) {
    for (size_t i = 0; i < h->cap;) {
        ws_handle_slot s = h->slot[i];
        if (s.key && (kind == WS_HANDLE_ANY || s.kind == kind) &&
            (!owner || s.owner == (uintptr_t)owner)) {
            erase_at(h, i);  /* may move a later entry into i: look at i again */
            if (fn) fn((void *)s.key);
        } else {
            i++;
        }
    }
}

void ws_handles_free(ws_handles *h) {
    free(h->slot);
    *h = (ws_handles){0};
}

ws_status ws_handles_create(ws_handles *h, void **out, ws_handle_kind kind, unsigned flags) {
    if (!out) return WS_ERR_INVALID_VALUE;
    ws_handle_rec *r = calloc(1, sizeof *r);
    if (!r || ws_handles_add(h, r, kind, NULL) != 0) {
        free(r);
        return WS_ERR_OUT_OF_MEMORY;
    }
    r->flags = flags;
    *out = r;
    return WS_OK;
}

int ws_handles_destroy(ws_handles *h, void *p, ws_handle_kind kind) {
    if (!ws_handles_remove(h, p, kind)) return 0;
    free(p);
    return 1;
}

int ws_handles_elapsed(const ws_handle_rec *a, const ws_handle_rec *b, float *ms) {
    if (!a->recorded || !b->recorded || (a->flags | b->flags) & WS_EVENT_DISABLE_TIMING) return -1;
    *ms = (float)((b->t_ns - a->t_ns) / 1e6);
    return 0;
}
