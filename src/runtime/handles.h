/* Live-handle registry of a shim: the opaque handles (streams, events,
 * modules, functions) it created and has not destroyed, so that a destroyed
 * or made-up handle is refused with CUDA's invalid-handle error instead of
 * being dereferenced. Each shim keeps one inside its context struct.
 *
 * An open-addressing hash set keyed by the handle's address (linear probing,
 * backward-shift deletion, load at most 1/2): lookups are O(1), which keeps
 * the check cheap on every launch and async call. */
#ifndef WARPSIM_RUNTIME_HANDLES_H
#define WARPSIM_RUNTIME_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#include "warpsim/warpsim.h"

typedef enum {
    WS_HANDLE_ANY = 0,  /* only as a filter in ws_handles_drop */
    WS_HANDLE_STREAM,
    WS_HANDLE_EVENT,
    WS_HANDLE_MODULE,
    WS_HANDLE_FUNCTION,
} ws_handle_kind;

typedef struct {
    uintptr_t key;      /* the handle; 0 marks a free slot */
    uintptr_t owner;    /* e.g. a function's module (0: none) */
    ws_handle_kind kind;
} ws_handle_slot;

typedef struct {
    ws_handle_slot *slot;
    size_t cap;         /* 0 or a power of two */
    size_t n;
} ws_handles;           /* zero-initialised: empty */

/* Registers p (non-null) as a live handle of `kind`, owned by `owner` (may be
   NULL). Returns 0, or -1 when out of memory or p is null. Registering a
   live handle again replaces its kind and owner. */
int ws_handles_add(ws_handles *h, const void *p, ws_handle_kind kind, const void *owner);

/* Is p a live handle of `kind`? */
int ws_handles_has(const ws_handles *h, const void *p, ws_handle_kind kind);

/* Unregisters p if it is a live handle of `kind`; returns 1 if it was. */
int ws_handles_remove(ws_handles *h, const void *p, ws_handle_kind kind);

/* Unregisters every handle of `kind` (WS_HANDLE_ANY: all kinds) whose owner
   is `owner` (NULL: any owner), calling fn(handle) on each when fn is set. */
void ws_handles_drop(ws_handles *h, ws_handle_kind kind, const void *owner, void (*fn)(void *));

/* Frees the table (handles are not freed). */
void ws_handles_free(ws_handles *h);

/* What both shims keep per stream and event: work runs at call time, so a
   stream needs only its flags, an event the simulated time it recorded. */
typedef struct {
    unsigned flags;
    int recorded;
    double t_ns;
} ws_handle_rec;

#define WS_EVENT_DISABLE_TIMING 0x2u  /* cudaEventDisableTiming = CU_EVENT_DISABLE_TIMING */

/* A new zeroed record with `flags`, registered as a live handle of `kind`,
   in *out. WS_ERR_INVALID_VALUE when out is null, WS_ERR_OUT_OF_MEMORY. */
ws_status ws_handles_create(ws_handles *h, void **out, ws_handle_kind kind, unsigned flags);

/* Unregisters and frees a record of ws_handles_create; 0 when p is not a
   live handle of `kind` (nothing happens then), 1 otherwise. */
int ws_handles_destroy(ws_handles *h, void *p, ws_handle_kind kind);

/* Milliseconds from event a to event b; -1 when either was never recorded
   or has timing disabled (CUDA's invalid-handle case), 0 otherwise. */
int ws_handles_elapsed(const ws_handle_rec *a, const ws_handle_rec *b, float *ms);

#endif
