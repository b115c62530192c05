/* Surface objects: suld.b, sust.b and suq.
 *
 * A surface object is a handle of the texture object table (the
 * descriptor holds the same array: base, texel size, width, height,
 * depth, pitch); sampling state is ignored. Following the PTX ISA's
 * "Surface Instructions":
 *  - .b accesses are unformatted: the first coordinate is a byte offset
 *    into the row, the others are row and slice indices; the access moves
 *    vec x size(type) bytes, zero-extended into the destination registers;
 *  - out of range (any part of the access outside the array): .trap faults,
 *    .clamp moves the access to the nearest place inside (the byte offset
 *    to [0, row bytes - access size], rounded down to the access size; rows
 *    and slices to the edge), .zero reads zeros and drops stores;
 *  - a byte offset that is not a multiple of the access size is a
 *    misaligned access (the ISA leaves it undefined; we fault, as ld does).
 *  - sust.p (formatted): the first coordinate is an element index; value k
 *    goes to channel k (R, G, B, A) converted to the surface's format:
 *    float channels take the f32 (16-bit: rounded to nearest even), 8/16-bit
 *    normalized ones the f32 clamped to [0, 1] ([-1, 1] signed) times
 *    2^n - 1 (2^(n-1) - 1) rounded to nearest even (NaN: 0), integer ones
 *    the value's low bits (the ISA does not say; we truncate). Channels the
 *    vector lacks keep their value (the ISA: unpredictable).
 * For the timing model a surface access is a global-memory load or store
 * of the bytes it moves (docs/ptx-support.md). */
#include <math.h>
#include <stdio.h>

#include "exec/exec_internal.h"

static const char *mode_name(unsigned m) { return m == WS_SURF_CLAMP ? "clamp" : m == WS_SURF_ZERO ? "zero" : "trap"; }

/* *d = the descriptor of lane l's handle; WS_OK or the fault. */
static ws_status surf_desc(ws_xctx *x, uint64_t h, uint32_t l, const char *what, const ws_tex_desc **d) {
    *d = ws_tex_table_get(x->c->l.tex, h);
    if (!*d)
        return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l, "invalid surface object handle 0x%llx (%s: not created, or "
                       "destroyed)", (unsigned long long)h, what);
    return WS_OK;
}

/* Where lane l's access goes: *a = the byte address, or *skip for a .zero
   access out of range. WS_OK or the fault. */
static ws_status surf_place(ws_xctx *x, const ws_tex_desc *d, unsigned dims, uint32_t l, const int32_t c[3],
                            uint32_t size, const char *what, uint64_t *a, bool *skip) {
    unsigned mode = x->in->boolop;
    int64_t tb = (int64_t)d->channels * d->bits / 8;
    int64_t lim[3] = {(int64_t)d->width * tb, d->height ? (int64_t)d->height : 1, d->depth ? (int64_t)d->depth : 1};
    /* sust.p addresses elements (size = one texel), .b bytes */
    int64_t v[3] = {(x->in->flags & WS_F_SURF_P) ? (int64_t)c[0] * tb : c[0], dims > 1 ? c[1] : 0, dims > 2 ? c[2] : 0};
    *skip = false;
    if (v[0] % (int64_t)size)
        return ws_fail(x, WS_ERR_MISALIGNED, l, "misaligned surface access (%s): byte offset %lld is not a multiple "
                       "of the access size %u", what, (long long)v[0], size);
    bool out = (int64_t)size > lim[0] || v[0] < 0 || v[0] > lim[0] - (int64_t)size;
    for (unsigned k = 1; k < 3; k++) out |= v[k] < 0 || v[k] >= lim[k];
    if (out) {
        if (mode == WS_SURF_ZERO) {
            *skip = true;
            *a = d->addr;
            return WS_OK;
        }
        if (mode == WS_SURF_TRAP || (int64_t)size > lim[0])
            return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l, "surface access out of range (%s): byte offset %lld, row %lld, "
                           "slice %lld of a %lld-byte x %lld x %lld surface", what, (long long)v[0], (long long)v[1],
                           (long long)v[2], (long long)lim[0], (long long)lim[1], (long long)lim[2]);
        int64_t xmax = (lim[0] - (int64_t)size) / (int64_t)size * (int64_t)size;
        v[0] = v[0] < 0 ? 0 : v[0] > xmax ? xmax : v[0];
        for (unsigned k = 1; k < 3; k++) v[k] = v[k] < 0 ? 0 : v[k] >= lim[k] ? lim[k] - 1 : v[k];
    }
    *a = d->addr + (uint64_t)v[2] * d->pitch * (uint64_t)lim[1] + (uint64_t)v[1] * d->pitch + (uint64_t)v[0];
    if (!ws_gmem_ptr(x->c->l.gmem, *a, size))
        return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l, "illegal address 0x%llx (%s on surface object %llu; its memory "
                       "was freed)", (unsigned long long)*a, what, (unsigned long long)ws_reg(x->w, x->in->src[0].reg)[l]);
    return WS_OK;
}

/* sust.p: 32-bit value v as channel ch of texel p in d's format. */
static void store_formatted(const ws_tex_desc *d, uint8_t *p, unsigned ch, uint32_t v) {
    unsigned cb = d->bits / 8;
    uint64_t out = v;
    if (d->kind == WS_TEX_FLOAT || d->read_normalized) {
        float f;
        memcpy(&f, &v, 4);
        if (d->kind == WS_TEX_FLOAT) {
            if (cb == 2) out = ws_double_to_f16(f, WS_RND_RN);
        } else if (d->kind == WS_TEX_SIGNED) {
            double m = (double)((1u << (d->bits - 1)) - 1), g = f != f ? 0.0 : f < -1.0f ? -1.0 : f > 1.0f ? 1.0 : f;
            out = (uint64_t)(int64_t)nearbyint(g * m);
        } else {
            double m = (double)((1u << d->bits) - 1), g = f != f ? 0.0 : f < 0.0f ? 0.0 : f > 1.0f ? 1.0 : f;
            out = (uint64_t)nearbyint(g * m);
        }
    }
    memcpy(p + ch * cb, &out, cb); /* the low bytes: little-endian host */
}

static uint64_t load_le(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    memcpy(&v, p, n); /* little-endian host, as the rest of the engine assumes */
    return v;
}

/* suq / txq. Extents leave the layers out (.array_size counts them; a
 * cube map is 6 faces of width x width, depth 0). The enumerations are
 * OpenCL's (the PTX ISA names the source language's; CUDA has none):
 * channel data types CL_SNORM_INT8 0x10D0 .. CL_FLOAT 0x10DE, channel
 * orders CL_R 0x10B0, CL_RG 0x10B2, CL_RGBA 0x10B5; filter 0 nearest, 1
 * linear; address modes 0 wrap, 1 mirror, 3 clamp to edge, 4 clamp to
 * border; memory layout 0 (an array). */
static uint32_t query(const ws_tex_desc *d, unsigned q) {
    uint64_t w = d->width, h = d->height, dp = d->depth, layers = 0;
    if (d->cubemap) {
        layers = d->layered ? d->depth / 6 : 0;
        dp = 0;
    } else if (d->layered) {
        if (dp) layers = dp, dp = 0;
        else layers = h, h = 0;
    }
    bool norm = d->kind != WS_TEX_FLOAT && d->read_normalized;
    static const uint32_t am[] = {0, 3, 1, 4}; /* ws_tex_address: wrap, clamp, mirror, border */
    switch (q) {
    case WS_SUQ_WIDTH: return (uint32_t)w;
    case WS_SUQ_HEIGHT: return (uint32_t)h;
    case WS_SUQ_DEPTH: return (uint32_t)dp;
    case WS_SUQ_CHANNEL_DATA_TYPE:
        if (d->kind == WS_TEX_FLOAT) return d->bits == 16 ? 0x10DD : 0x10DE;
        if (norm) return (d->kind == WS_TEX_SIGNED ? 0x10D0 : 0x10D2) + (d->bits == 16);
        return (d->kind == WS_TEX_SIGNED ? 0x10D7 : 0x10DA) + (d->bits == 16 ? 1 : d->bits == 32 ? 2 : 0);
    case WS_SUQ_CHANNEL_ORDER: return d->channels == 1 ? 0x10B0 : d->channels == 2 ? 0x10B2 : 0x10B5;
    case WS_SUQ_ARRAY_SIZE: return (uint32_t)layers;
    case WS_SUQ_MEMORY_LAYOUT: return 0;
    case WS_SUQ_NORMALIZED_COORDS: return d->normalized_coords != 0;
    case WS_SUQ_FILTER_MODE: return d->filter == WS_TEX_LINEAR;
    case WS_SUQ_ADDR_MODE_0: case WS_SUQ_ADDR_MODE_1: case WS_SUQ_ADDR_MODE_2:
        return am[d->address[q - WS_SUQ_ADDR_MODE_0] & 3];
    case WS_SUQ_NUM_MIPMAP_LEVELS: return 1;
    default: return 0; /* .num_samples: no multisample textures */
    }
}

/* sured: old op v in the access's type (min/max by its signedness). */
static uint64_t reduce(unsigned op, ws_type t, uint64_t old, uint64_t v) {
    unsigned bits = ws_type_size(t) * 8;
    bool sg = ws_type_is_signed(t);
    uint64_t o = ws_ext(old, bits, sg), b = ws_ext(v, bits, sg);
    bool lt = sg ? (int64_t)o < (int64_t)b : o < b;
    switch (op) {
    case WS_ATOM_ADD: return o + b;
    case WS_ATOM_MIN: return lt ? o : b;
    case WS_ATOM_MAX: return lt ? b : o;
    case WS_ATOM_AND: return o & b;
    default: return o | b;
    }
}

ws_status ws_exec_surf(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    const uint64_t *handle = ws_reg(w, in->src[0].reg);
    char what[48];
    if (in->op == WS_OP_SUQ || in->op == WS_OP_TXQ) {
        snprintf(what, sizeof what, "%s", in->op == WS_OP_SUQ ? "suq" : "txq");
        uint64_t *dst = ws_reg(w, in->dst[0].reg);
        const uint64_t *lod = in->nsrc > 1 ? ws_reg(w, in->src[1].reg) : NULL;
        uint32_t res[WS_WARP_SIZE];
        WS_FOR_LANES(l, x->mask) {
            const ws_tex_desc *d;
            ws_status s = surf_desc(x, handle[l], l, what, &d);
            if (s != WS_OK) return s;
            /* every texture has one level: other levels have no extent (0) */
            res[l] = lod && (int32_t)lod[l] != 0 ? 0 : query(d, in->sub);
        }
        WS_FOR_LANES(l, x->mask) dst[l] = res[l];
        return WS_OK;
    }
    bool red = in->op == WS_OP_SURED, is_st = in->op == WS_OP_SUST || red;
    unsigned geom = in->sub, esz = ws_type_size((ws_type)in->type), n = in->vec;
    /* a layered access is one of the next dimension with the layer last:
       .a1d {layer, x} is 2-D (x, layer), .a2d {layer, x, y, _} 3-D (x, y, layer) */
    bool layered = geom == WS_TEX_A1D || geom == WS_TEX_A2D;
    unsigned dims = geom == WS_TEX_A1D ? 2 : geom == WS_TEX_A2D ? 3 : geom;
    const ws_operand *vo = is_st ? &in->src[2] : &in->dst[0];
    if (geom < WS_TEX_1D || geom > WS_TEX_A2D || !esz || esz > 8 || vo->kind != WS_OPND_VEC || vo->vecn != n ||
        in->src[1].kind != WS_OPND_VEC)
        return ws_unsupported(x, "malformed surface access");
    bool formatted = (in->flags & WS_F_SURF_P) != 0;
    uint32_t size = esz * n; /* sust.p: one texel, set per surface below */
    static const char *const gn[] = {"?", "1d", "2d", "3d", "a1d", "a2d"};
    snprintf(what, sizeof what, "%s.%c.%s.%s", red ? "sured" : is_st ? "sust" : "suld", formatted ? 'p' : 'b',
             gn[geom], mode_name(in->boolop));
    const uint64_t *coord[3] = {NULL, NULL, NULL};
    for (unsigned k = 0; k < dims; k++)
        coord[k] = ws_reg(w, in->src[1].vreg[layered ? (k + 1 == dims ? 0 : k + 1) : k]);
    uint64_t *val[4];
    for (unsigned k = 0; k < n; k++) val[k] = vo->vreg[k] == WS_NOREG ? w->sink : ws_reg(w, vo->vreg[k]);
    ws_step *st = x->st;
    uint64_t last_h = 0;
    const ws_tex_desc *d = NULL;
    uint64_t res[4][WS_WARP_SIZE];
    bool wrote = false;
    WS_FOR_LANES(l, x->mask) {
        if (!d || handle[l] != last_h) {
            last_h = handle[l];
            ws_status s = surf_desc(x, last_h, l, what, &d);
            if (s != WS_OK) return s;
            /* cube maps (layered or not) are 2-D arrays of faces: .a2d */
            bool dl = d->layered || d->cubemap;
            unsigned dd = d->res != WS_TEX_RES_ARRAY ? (d->res == WS_TEX_RES_PITCH2D ? 2 : 1)
                          : d->depth ? 3 : d->height ? 2 : 1;
            if (dl != layered)
                return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "%s on surface object %llu, which is %s", what,
                               (unsigned long long)last_h,
                               !dl ? "not layered"
                               : d->cubemap ? "a cube map (.a2d)"
                               : dd == 3 ? "a layered 2-D array (.a2d)" : "a layered 1-D array (.a1d)");
            if (dd != dims)
                return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "%s on surface object %llu, which has %u dimension(s)",
                               what, (unsigned long long)last_h, dd - layered);
            if (formatted) size = d->channels * d->bits / 8;
        }
        int32_t c[3] = {0, 0, 0};
        for (unsigned k = 0; k < dims; k++) c[k] = (int32_t)coord[k][l];
        uint64_t a = 0;
        bool skip = false;
        ws_status s = surf_place(x, d, dims, l, c, size, what, &a, &skip);
        if (s != WS_OK) return s;
        if (st) st->addr[l] = a;
        uint8_t *p = skip ? NULL : ws_gmem_ptr(x->c->l.gmem, a, size);
        for (unsigned k = 0; k < n; k++) {
            if (red) { /* lanes in lane order, as atomics */
                if (p) {
                    uint64_t nv = reduce(in->cmp, (ws_type)in->type, load_le(p, esz), val[k][l]);
                    memcpy(p, &nv, esz);
                }
            } else if (formatted) {
                if (p && k < d->channels) store_formatted(d, p, k, (uint32_t)val[k][l]);
            } else if (is_st) {
                if (p) memcpy(p + k * esz, &val[k][l], esz);
            } else {
                res[k][l] = p ? load_le(p + k * esz, esz) : 0;
            }
        }
        wrote |= is_st && p;
    }
    /* loaded values go to registers after every lane read: a destination
       may be another lane's coordinate or handle */
    if (!is_st)
        WS_FOR_LANES(l, x->mask)
            for (unsigned k = 0; k < n; k++) val[k][l] = res[k][l];
    x->c->counts.mem_writes += wrote;
    if (st) {
        st->mem_space = WS_SPACE_GLOBAL;
        st->access_size = size;
        st->is_store = is_st;
        st->is_atomic = red;
        st->wrote = wrote;
    }
    return WS_OK;
}
