/* Texture objects: the handle table and the tex and tld4 instructions
 * (layered, cube-map and gather forms are described where they are done).
 *
 * Fetch semantics follow the CUDA programming guide's "Texture Fetching"
 * appendix:
 *  - float coordinates are scaled by the size when normalized; point
 *    sampling reads texel floor(x); linear filtering reads texels i and i+1
 *    with i = floor(x - 0.5) and weight a = frac(x - 0.5) held in 9-bit fixed
 *    point with 8 fraction bits (a multiple of 1/256; 1.0 is representable),
 *    2 x 2 texels for 2-D and 2 x 2 x 2 for 3-D;
 *  - address modes apply to each texel index: clamp to the edge, border
 *    (the border colour), wrap and mirror (normalized coordinates only;
 *    otherwise they act as clamp);
 *  - s32 coordinates are texel indices (tex1Dfetch): no scaling, no
 *    filtering, clamp or border only;
 *  - cudaReadModeNormalizedFloat maps 8/16-bit integers to [0, 1] (unsigned,
 *    v / (2^n - 1)) or [-1, 1] (signed, v / (2^(n-1) - 1), clamped at -1);
 *    16-bit float texels read as f32.
 * Every texture has one mipmap level here (the runtime refuses mipmapped
 * arrays with more), so tex.level and tex.grad read it like plain tex.
 * The guide does not say how the fraction is rounded to 1/256: we round to
 * nearest. Filtering accumulates in double and rounds once to f32. A result
 * vector has four words; channels the format lacks read as 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

/* ---- the handle table ----------------------------------------------------- */
typedef struct tex_entry {
    ws_tex_desc d;
    bool live;
} tex_entry;

struct ws_tex_table {
    tex_entry *e;        /* handle h is e[h - 1] */
    uint64_t n, cap;
};

ws_tex_table *ws_tex_table_create(void) { return calloc(1, sizeof(ws_tex_table)); }

void ws_tex_table_destroy(ws_tex_table *t) {
    if (!t) return;
    free(t->e);
    free(t);
}

const ws_tex_desc *ws_tex_table_get(const ws_tex_table *t, ws_texobj h) {
    if (!t || h == 0 || h > t->n || !t->e[h - 1].live) return NULL;
    return &t->e[h - 1].d;
}

static unsigned texel_bytes(const ws_tex_desc *d) { return d->channels * d->bits / 8; }

/* The geometry a texture is fetched with (WS_TEX_1D .. WS_TEX_CUBE of ir.h). */
static unsigned tex_geom(const ws_tex_desc *d) {
    if (d->res != WS_TEX_RES_ARRAY) return d->res == WS_TEX_RES_PITCH2D ? WS_TEX_2D : WS_TEX_1D;
    if (d->cubemap) return d->layered ? WS_TEX_ACUBE : WS_TEX_CUBE;
    if (d->layered) return d->depth ? WS_TEX_A2D : WS_TEX_A1D;
    return d->depth ? WS_TEX_3D : d->height ? WS_TEX_2D : WS_TEX_1D;
}

static int bad(char *err, size_t n, const char *msg) {
    snprintf(err, n, "%s", msg);
    return -1;
}

/* 0 when the descriptor is usable; else -1 and the reason. Fills in the
 * derived pitch. */
static int check_desc(ws_tex_desc *d, const ws_gmem *g, char *err, size_t n) {
    if (d->res > WS_TEX_RES_ARRAY) return bad(err, n, "unknown resource type");
    if (d->channels != 1 && d->channels != 2 && d->channels != 4)
        return bad(err, n, "texels need 1, 2 or 4 channels");
    if (d->bits != 8 && d->bits != 16 && d->bits != 32)
        return bad(err, n, "channels must have 8, 16 or 32 bits");
    if (d->kind > WS_TEX_FLOAT) return bad(err, n, "unknown channel kind");
    if (d->kind == WS_TEX_FLOAT && d->bits == 8) return bad(err, n, "float channels have 16 or 32 bits");
    for (int k = 0; k < 3; k++)
        if (d->address[k] > WS_TEX_BORDER) return bad(err, n, "unknown address mode");
    if (d->filter > WS_TEX_LINEAR) return bad(err, n, "unknown filter mode");
    if (d->read_normalized && d->kind != WS_TEX_FLOAT && d->bits == 32)
        return bad(err, n, "normalized-float reads need 8- or 16-bit integer channels");
    bool float_result = d->kind == WS_TEX_FLOAT || d->read_normalized;
    if (d->filter == WS_TEX_LINEAR && !float_result)
        return bad(err, n, "linear filtering needs float results (float channels, or integer "
                           "channels read as normalized floats)");
    const size_t lim = (size_t)1 << 30;
    if (!d->width || d->width > lim || d->height > lim || d->depth > lim)
        return bad(err, n, "width must be 1 or more; sizes are limited to 2^30 texels");
    switch (d->res) {
    case WS_TEX_RES_LINEAR:
        if (d->height > 1 || d->depth > 1) return bad(err, n, "linear textures are one-dimensional");
        d->height = d->depth = 0;
        break;
    case WS_TEX_RES_PITCH2D:
        if (!d->height) return bad(err, n, "pitch-2D textures need a height");
        if (d->depth > 1) return bad(err, n, "pitch-2D textures are two-dimensional");
        d->depth = 0;
        break;
    default:
        if (d->depth && !d->height) return bad(err, n, "a 3-D array needs a height");
        if (d->layered && !d->height && !d->cubemap)
            return bad(err, n, "a layered array needs its layer count (height of a 1-D, depth of a 2-D array)");
        break;
    }
    if (d->layered && d->res != WS_TEX_RES_ARRAY) return bad(err, n, "only arrays can be layered");
    if (d->cubemap && (d->res != WS_TEX_RES_ARRAY || d->width != d->height || !d->depth || d->depth % 6 ||
                       (!d->layered && d->depth != 6)))
        return bad(err, n, "a cube map is a width x width array of 6 faces (a layered one: of 6 faces per cube)");
    unsigned tb = texel_bytes(d);
    uint64_t row = (uint64_t)d->width * tb;
    if (!d->pitch) d->pitch = (size_t)row;
    if (d->pitch < row || d->pitch % tb) return bad(err, n, "the pitch must hold a row and be a multiple of the texel size");
    if (d->addr % tb) return bad(err, n, "the texture's address must be aligned to its texel size");
    uint64_t h = d->height ? d->height : 1, z = d->depth ? d->depth : 1;
    uint64_t extent = (z - 1) * h * d->pitch + (h - 1) * d->pitch + row;
    if (!ws_gmem_valid(g, d->addr, extent))
        return bad(err, n, "the texels do not lie inside one live device allocation");
    if (d->levels > WS_TEX_MAX_LEVELS) return bad(err, n, "at most 16 mipmap levels");
    if (d->mip_filter > WS_TEX_LINEAR) return bad(err, n, "unknown mipmap filter mode");
    if (d->levels > 1 && d->res != WS_TEX_RES_ARRAY) return bad(err, n, "only arrays have mipmap levels");
    if (d->levels > 1 && d->mip_filter == WS_TEX_LINEAR && !float_result)
        return bad(err, n, "linear mipmap filtering needs float results");
    d->level_addr[0] = d->addr;
    d->level_pitch[0] = d->pitch;
    for (unsigned k = 1; k < d->levels; k++) {
        ws_tex_desc lv = ws_tex_level(d, k);
        if (!d->level_pitch[k]) d->level_pitch[k] = lv.pitch = (size_t)lv.width * tb;
        uint64_t lr = (uint64_t)lv.width * tb, lh = lv.height ? lv.height : 1, lz = lv.depth ? lv.depth : 1;
        if (lv.pitch < lr || lv.pitch % tb || lv.addr % tb)
            return bad(err, n, "a mipmap level's pitch must hold a row, and its texels be aligned");
        if (!ws_gmem_valid(g, lv.addr, (lz - 1) * lh * lv.pitch + (lh - 1) * lv.pitch + lr))
            return bad(err, n, "a mipmap level's texels do not lie inside one live device allocation");
    }
    return 0;
}

ws_tex_desc ws_tex_level(const ws_tex_desc *d, unsigned k) {
    ws_tex_desc lv = *d;
    if (!k) return lv;
    /* the last extent of a layered array counts layers, a cube map's depth faces */
    bool h_layers = d->layered && !d->cubemap && !d->depth, d_layers = (d->layered || d->cubemap) && d->depth;
    lv.width = d->width >> k ? d->width >> k : 1;
    if (d->height && !h_layers) lv.height = d->height >> k ? d->height >> k : 1;
    if (d->depth && !d_layers) lv.depth = d->depth >> k ? d->depth >> k : 1;
    lv.addr = d->level_addr[k];
    lv.pitch = d->level_pitch[k];
    return lv;
}

ws_status ws_tex_table_add(ws_tex_table *t, const ws_tex_desc *desc, const ws_gmem *g,
                           ws_texobj *out, char *err, size_t errlen) {
    if (!t || !desc || !g || !out) {
        snprintf(err, errlen, "null argument");
        return WS_ERR_INVALID_VALUE;
    }
    ws_tex_desc d = *desc;
    if (check_desc(&d, g, err, errlen)) return WS_ERR_INVALID_VALUE;
    if (t->n == t->cap) {
        uint64_t cap = t->cap ? 2 * t->cap : 16;
        tex_entry *e = realloc(t->e, cap * sizeof *e);
        if (!e) {
            snprintf(err, errlen, "out of host memory");
            return WS_ERR_OUT_OF_MEMORY;
        }
        t->e = e;
        t->cap = cap;
    }
    t->e[t->n].d = d;
    t->e[t->n].live = true;
    *out = ++t->n;
    return WS_OK;
}

ws_status ws_tex_table_remove(ws_tex_table *t, ws_texobj h) {
    if (!ws_tex_table_get(t, h)) return WS_ERR_INVALID_VALUE;
    t->e[h - 1].live = false;
    return WS_OK;
}

/* ---- one fetch --------------------------------------------------------------- */
/* Texel index i of a dimension of n texels after the address mode; -1 for
   a border texel. */
static int64_t address(int64_t i, int64_t n, ws_tex_address mode) {
    switch (mode) {
    case WS_TEX_WRAP: return ((i % n) + n) % n;
    case WS_TEX_MIRROR: {
        int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case WS_TEX_BORDER: return i >= 0 && i < n ? i : -1;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* The texel indices and weights along one dimension. */
typedef struct {
    int64_t i[2];
    double w[2];
    unsigned n;
} axis;

static void make_axis(const ws_tex_desc *d, unsigned k, int64_t n, int is_int, uint32_t bits,
                      axis *a) {
    ws_tex_address mode = d->address[k];
    /* wrap and mirror are defined on normalized coordinates only */
    if ((is_int || !d->normalized_coords) && (mode == WS_TEX_WRAP || mode == WS_TEX_MIRROR))
        mode = WS_TEX_CLAMP;
    if (d->res == WS_TEX_RES_LINEAR && mode != WS_TEX_BORDER) mode = WS_TEX_CLAMP;
    if (is_int) {
        a->n = 1;
        a->i[0] = address((int32_t)bits, n, mode);
        a->w[0] = 1.0;
        return;
    }
    float f;
    memcpy(&f, &bits, 4);
    double x = isnan(f) ? 0.0 : (double)f;
    if (d->normalized_coords) x *= (double)n;
    /* far outside every texture: keeps the integer conversion defined */
    if (x < -4e9) x = -4e9;
    if (x > 4e9) x = 4e9;
    if (d->filter == WS_TEX_POINT) {
        a->n = 1;
        a->i[0] = address((int64_t)floor(x), n, mode);
        a->w[0] = 1.0;
        return;
    }
    double xb = x - 0.5, fl = floor(xb);
    double frac = floor((xb - fl) * 256.0 + 0.5) / 256.0; /* 8 fraction bits */
    a->n = 2;
    a->i[0] = address((int64_t)fl, n, mode);
    a->i[1] = address((int64_t)fl + 1, n, mode);
    a->w[0] = 1.0 - frac;
    a->w[1] = frac;
}

/* Channel c of a texel as a double (float results) or integer. */
static double chan_float(const ws_tex_desc *d, const uint8_t *p, unsigned c) {
    if (c >= d->channels) return 0.0;
    switch (d->bits) {
    case 8: {
        uint8_t u = p[c];
        if (d->kind == WS_TEX_SIGNED) return fmax((int8_t)u / 127.0, -1.0);
        return u / 255.0;
    }
    case 16: {
        uint16_t u;
        memcpy(&u, p + 2 * c, 2);
        if (d->kind == WS_TEX_FLOAT) return ws_f16_to_double(u);
        if (d->kind == WS_TEX_SIGNED) return fmax((int16_t)u / 32767.0, -1.0);
        return u / 65535.0;
    }
    default: {
        float f;
        memcpy(&f, p + 4 * c, 4);
        return f;
    }
    }
}

static uint32_t chan_int(const ws_tex_desc *d, const uint8_t *p, unsigned c) {
    if (c >= d->channels) return 0;
    bool s = d->kind == WS_TEX_SIGNED;
    switch (d->bits) {
    case 8: return s ? (uint32_t)(int32_t)(int8_t)p[c] : p[c];
    case 16: {
        uint16_t u;
        memcpy(&u, p + 2 * c, 2);
        return s ? (uint32_t)(int32_t)(int16_t)u : u;
    }
    default: {
        uint32_t u;
        memcpy(&u, p + 4 * c, 4);
        return u;
    }
    }
}

/* An integer border colour: the float converted, saturated. */
static uint32_t border_int(float f) {
    if (!(f == f)) return 0;
    if (f <= -2147483648.0f) return 0x80000000u;
    if (f >= 4294967295.0f) return 0xFFFFFFFFu;
    return f < 0 ? (uint32_t)(int32_t)f : (uint32_t)f;
}

ws_status ws_tex_fetch(const ws_tex_desc *d, const ws_gmem *g, unsigned dims, int is_int,
                       const uint32_t coord[3], uint32_t out[4], uint64_t *taps, unsigned *ntaps,
                       uint64_t *bad_addr) {
    const int64_t size[3] = {(int64_t)d->width, d->height ? (int64_t)d->height : 1,
                             d->depth ? (int64_t)d->depth : 1};
    axis ax[3];
    for (unsigned k = 0; k < 3; k++) {
        if (k < dims) {
            make_axis(d, k, size[k], is_int, coord[k], &ax[k]);
        } else {
            ax[k].n = 1;
            ax[k].i[0] = 0;
            ax[k].w[0] = 1.0;
        }
    }
    bool float_result = d->kind == WS_TEX_FLOAT || d->read_normalized;
    unsigned tb = texel_bytes(d);
    uint64_t slice = (uint64_t)d->pitch * (uint64_t)size[1];
    double acc[4] = {0, 0, 0, 0};
    unsigned nt = 0;
    *ntaps = 0;
    for (unsigned z = 0; z < ax[2].n; z++)
        for (unsigned y = 0; y < ax[1].n; y++)
            for (unsigned x = 0; x < ax[0].n; x++) {
                double w = ax[0].w[x] * ax[1].w[y] * ax[2].w[z];
                int64_t ix = ax[0].i[x], iy = ax[1].i[y], iz = ax[2].i[z];
                if (ix < 0 || iy < 0 || iz < 0) { /* border texel */
                    for (unsigned c = 0; c < 4; c++) {
                        if (float_result) acc[c] += w * d->border[c];
                        else out[c] = border_int(d->border[c]);
                    }
                    continue;
                }
                uint64_t a = d->addr + (uint64_t)iz * slice + (uint64_t)iy * d->pitch +
                             (uint64_t)ix * tb;
                const uint8_t *p = ws_gmem_ptr(g, a, tb);
                if (!p) {
                    *bad_addr = a;
                    return WS_ERR_ILLEGAL_ADDRESS;
                }
                taps[nt++] = a;
                for (unsigned c = 0; c < 4; c++) {
                    if (float_result) acc[c] += w * chan_float(d, p, c);
                    else out[c] = chan_int(d, p, c);
                }
            }
    *ntaps = nt;
    if (float_result)
        for (unsigned c = 0; c < 4; c++) {
            float f = (float)acc[c];
            memcpy(&out[c], &f, 4);
        }
    return WS_OK;
}

/* tld4: component comp of the 2 x 2 texels bilinear filtering would read at
   (x, y), counter-clockwise from the lower left: (i0, j1), (i1, j1),
   (i1, j0), (i0, j0) (the PTX ISA's order). The filter mode is ignored. */
static ws_status tex_gather(const ws_tex_desc *d, const ws_gmem *g, const uint32_t coord[2], unsigned comp,
                            uint32_t out[4], uint64_t *taps, unsigned *ntaps, uint64_t *bad_addr) {
    ws_tex_desc lin = *d;
    lin.filter = WS_TEX_LINEAR;
    axis ax[2];
    make_axis(&lin, 0, (int64_t)d->width, 0, coord[0], &ax[0]);
    make_axis(&lin, 1, (int64_t)d->height, 0, coord[1], &ax[1]);
    static const unsigned pick[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    bool float_result = d->kind == WS_TEX_FLOAT || d->read_normalized;
    unsigned tb = texel_bytes(d), nt = 0;
    *ntaps = 0;
    for (unsigned k = 0; k < 4; k++) {
        int64_t ix = ax[0].i[pick[k][0]], iy = ax[1].i[pick[k][1]];
        if (ix < 0 || iy < 0) { /* border texel */
            if (float_result) memcpy(&out[k], &d->border[comp], 4);
            else out[k] = border_int(d->border[comp]);
            continue;
        }
        uint64_t a = d->addr + (uint64_t)iy * d->pitch + (uint64_t)ix * tb;
        const uint8_t *p = ws_gmem_ptr(g, a, tb);
        if (!p) {
            *bad_addr = a;
            return WS_ERR_ILLEGAL_ADDRESS;
        }
        taps[nt++] = a;
        if (float_result) {
            float f = (float)chan_float(d, p, comp);
            memcpy(&out[k], &f, 4);
        } else {
            out[k] = chan_int(d, p, comp);
        }
    }
    *ntaps = nt;
    return WS_OK;
}

/* Cube maps (the CUDA programming guide's "Cubemap Textures"): the
   coordinate of largest magnitude m picks the face; the face is read as a
   2-D texture at normalized ((s / m + 1) / 2, (t / m + 1) / 2). Ties go to
   x, then y (the guide does not say); filtering does not cross faces (each
   face clamps at its edges, whatever the address mode). */
static void cube_face(const uint32_t c[3], unsigned *face, uint32_t st[2]) {
    float v[3];
    memcpy(v, c, sizeof v);
    float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]), m, s, t;
    if (ax >= ay && ax >= az) {
        *face = v[0] >= 0 ? 0 : 1, m = ax, s = v[0] >= 0 ? -v[2] : v[2], t = -v[1];
    } else if (ay >= az) {
        *face = v[1] >= 0 ? 2 : 3, m = ay, s = v[0], t = v[1] >= 0 ? v[2] : -v[2];
    } else {
        *face = v[2] >= 0 ? 4 : 5, m = az, s = v[2] >= 0 ? v[0] : -v[0], t = -v[1];
    }
    float u = m > 0 ? (s / m + 1.0f) * 0.5f : 0.5f, w = m > 0 ? (t / m + 1.0f) * 0.5f : 0.5f;
    memcpy(&st[0], &u, 4);
    memcpy(&st[1], &w, 4);
}

/* ---- the instruction ------------------------------------------------------------ */
static const char *geom_name(unsigned g) {
    static const char *const n[] = {"?", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
    return n[g < 8 ? g : 0];
}

/* One fetch of geometry geom (layer li for layered ones; comp: tld4's
   component when gather). */
static ws_status fetch_geom(const ws_tex_desc *d, const ws_gmem *g, unsigned geom, unsigned comp, unsigned dims,
                            int is_int, const uint32_t c[3], int32_t li, uint32_t o[4], uint64_t *taps,
                            unsigned *nt, uint64_t *badp) {
    bool layered = geom == WS_TEX_A1D || geom == WS_TEX_A2D || geom == WS_TEX_ACUBE;
    if (geom == WS_TEX_CUBE || geom == WS_TEX_ACUBE) { /* one face as a normalized 2-D texture */
        ws_tex_desc one = *d;
        unsigned face;
        uint32_t st2[3] = {0, 0, 0};
        cube_face(c, &face, st2);
        if (layered) { /* cube li's faces: 6 li .. 6 li + 5 (li clamped to the cubes there are) */
            int64_t nl = (int64_t)(d->depth / 6);
            face += 6 * (unsigned)(li < 0 ? 0 : li >= nl ? nl - 1 : li);
        }
        one.cubemap = one.layered = 0;
        one.depth = 0;
        one.normalized_coords = 1;
        one.address[0] = one.address[1] = WS_TEX_CLAMP; /* a face ends at its edges */
        one.addr += (uint64_t)face * d->pitch * d->height;
        if (comp & 4) return tex_gather(&one, g, st2, comp & 3, o, taps, nt, badp); /* within the face */
        return ws_tex_fetch(&one, g, 2, 0, st2, o, taps, nt, badp);
    }
    if (layered) { /* one layer as a texture of its own */
        ws_tex_desc one = *d;
        int64_t nl = (int64_t)(geom == WS_TEX_A1D ? d->height : d->depth), lc = li;
        lc = lc < 0 ? 0 : lc >= nl ? nl - 1 : lc;
        one.layered = 0;
        if (geom == WS_TEX_A1D) {
            one.height = 0;
            one.addr += (uint64_t)lc * d->pitch;
        } else {
            one.depth = 0;
            one.addr += (uint64_t)lc * d->pitch * d->height;
        }
        if (comp & 4) return tex_gather(&one, g, c, comp & 3, o, taps, nt, badp);
        return ws_tex_fetch(&one, g, dims, is_int, c, o, taps, nt, badp);
    }
    if (geom != WS_TEX_1D && geom != WS_TEX_2D && geom != WS_TEX_3D) return WS_ERR_INVALID_VALUE;
    if (comp & 4) return tex_gather(d, g, c, comp & 3, o, taps, nt, badp);
    return ws_tex_fetch(d, g, dims, is_int, c, o, taps, nt, badp);
}

/* Level of detail of lane l's tex.level (the f32 register) or tex.grad:
   log2 of the longer gradient in texels of level 0 (normalized
   coordinates scale by the extent; no anisotropy). */
static float level_of_detail(ws_xctx *x, const ws_tex_desc *d, unsigned dims, uint32_t l) {
    const ws_inst *in = x->in;
    if (in->boolop == WS_TEX_LOD_LEVEL) return ws_f32(ws_reg(x->w, in->src[2].reg)[l]);
    unsigned gd = d->cubemap ? 2 : dims; /* a cube face is 2-D */
    double ext[3] = {(double)d->width, (double)d->height, (double)d->depth}, len2[2] = {0, 0};
    for (unsigned v = 0; v < 2; v++)
        for (unsigned k = 0; k < gd && k < in->src[2 + v].vecn; k++) {
            uint16_t r = in->src[2 + v].vreg[k];
            double g = r == WS_NOREG ? 0 : ws_f32(ws_reg(x->w, r)[l]);
            if (d->normalized_coords || d->cubemap) g *= ext[k];
            len2[v] += g * g;
        }
    double rho2 = len2[0] > len2[1] ? len2[0] : len2[1];
    return rho2 > 0 ? (float)(0.5 * log2(rho2)) : -INFINITY;
}

/* A mipmapped fetch at level of detail lod: biased, clamped to the
   descriptor's range and the levels there are; the nearest level (ties
   up), or the two around it blended with a weight in 1/256 steps like the
   bilinear ones. */
static ws_status fetch_mip(const ws_tex_desc *d, const ws_gmem *g, unsigned geom, unsigned dims, int is_int,
                           const uint32_t c[3], int32_t li, float lod, uint32_t o[4], uint64_t *taps,
                           unsigned *nt, uint64_t *badp) {
    /* as CUDA: [minMipmapLevelClamp, maxMipmapLevelClamp] (a zeroed descriptor reads level 0) */
    float top = (float)(d->levels - 1), hi = d->max_lod < top ? d->max_lod : top;
    float lo = d->min_lod > 0 ? d->min_lod : 0;
    lod += d->lod_bias;
    lod = lod != lod ? lo : lod < lo ? lo : lod > hi ? hi : lod;
    if (lod < 0) lod = 0;
    if (d->mip_filter == WS_TEX_POINT) {
        unsigned k = (unsigned)floorf(lod + 0.5f);
        ws_tex_desc lv = ws_tex_level(d, k > d->levels - 1 ? d->levels - 1 : k);
        return fetch_geom(&lv, g, geom, 0, dims, is_int, c, li, o, taps, nt, badp);
    }
    unsigned k0 = (unsigned)floorf(lod);
    float f = floorf((lod - (float)k0) * 256.0f + 0.5f) / 256.0f;
    if (f >= 1.0f) k0++, f = 0;
    if (k0 >= d->levels - 1) k0 = d->levels - 1, f = 0;
    ws_tex_desc l0 = ws_tex_level(d, k0);
    ws_status s = fetch_geom(&l0, g, geom, 0, dims, is_int, c, li, o, taps, nt, badp);
    if (s != WS_OK || f == 0) return s;
    ws_tex_desc l1 = ws_tex_level(d, k0 + 1);
    uint32_t o1[4];
    unsigned n1 = 0;
    s = fetch_geom(&l1, g, geom, 0, dims, is_int, c, li, o1, taps + *nt, &n1, badp);
    *nt += n1;
    for (unsigned k = 0; k < 4; k++) o[k] = (uint32_t)ws_f32b((1.0f - f) * ws_f32(o[k]) + f * ws_f32(o1[k]));
    return s;
}

ws_status ws_exec_tex(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    unsigned geom = in->sub, layered = geom == WS_TEX_A1D || geom == WS_TEX_A2D || geom == WS_TEX_ACUBE;
    bool cube = geom == WS_TEX_CUBE || geom == WS_TEX_ACUBE;
    /* coordinates read after the layer (a cube map: the direction's 3) */
    unsigned dims = geom == WS_TEX_A1D ? 1 : geom == WS_TEX_A2D ? 2 : cube ? 3 : geom;
    bool gather = in->op == WS_OP_TLD4;
    if (geom < WS_TEX_1D || geom > WS_TEX_ACUBE ||
        (gather && geom != WS_TEX_2D && geom != WS_TEX_A2D && !cube) || in->ndst != 1 ||
        in->dst[0].kind != WS_OPND_VEC || in->nsrc < 2 || in->src[0].kind != WS_OPND_REG ||
        in->src[1].kind != WS_OPND_VEC)
        return ws_unsupported(x, "malformed tex");
    const char *opn = gather ? "tld4" : "tex";
    const uint64_t *handle = ws_reg(w, in->src[0].reg);
    const uint64_t *coord[3] = {NULL, NULL, NULL}, *layer = layered ? ws_reg(w, in->src[1].vreg[0]) : NULL;
    for (unsigned k = 0; k < dims; k++) coord[k] = ws_reg(w, in->src[1].vreg[k + layered]);
    uint64_t *dst[4];
    for (unsigned k = 0; k < 4; k++) {
        uint16_t r = in->dst[0].vreg[k];
        dst[k] = r == WS_NOREG ? w->sink : ws_reg(w, r);
    }
    int is_int = in->stype == WS_T_S32;
    const ws_tex_table *tt = x->c->l.tex;
    ws_step *st = x->st;
    if (st) {
        st->mem_space = WS_SPACE_TEX;
        st->ntex = 0;
    }
    ws_texobj last_h = 0;
    const ws_tex_desc *d = NULL;
    /* results go to registers after every lane fetched: a destination may
       also be a coordinate or the handle of a later lane's read */
    uint32_t res[4][WS_WARP_SIZE];
    WS_FOR_LANES(l, x->mask) {
        ws_texobj h = handle[l];
        if (!d || h != last_h) {
            d = ws_tex_table_get(tt, h);
            last_h = h;
            if (!d)
                return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l,
                               "invalid texture object handle 0x%llx (%s.%s: not created, or "
                               "destroyed)", (unsigned long long)h, opn, geom_name(geom));
            if (tex_geom(d) != geom)
                return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l,
                               "%s.%s on texture object %llu, which is %s", opn, geom_name(geom),
                               (unsigned long long)h, geom_name(tex_geom(d)));
        }
        uint32_t c[3] = {0, 0, 0}, o[4];
        for (unsigned k = 0; k < dims; k++) c[k] = (uint32_t)coord[k][l];
        uint64_t taps[2 * WS_TEX_MAX_TAPS], badp = 0;
        unsigned nt = 0;
        int32_t li = layer ? (int32_t)layer[l] : 0;
        ws_status fs;
        if (d->levels > 1 && in->boolop != WS_TEX_LOD_NONE && !gather) {
            float lod = level_of_detail(x, d, dims, l);
            fs = fetch_mip(d, x->c->l.gmem, geom, dims, is_int, c, li, lod, o, taps, &nt, &badp);
        } else {
            fs = fetch_geom(d, x->c->l.gmem, geom, gather ? 4 | (in->boolop & 3) : 0, dims, is_int, c, li, o, taps,
                            &nt, &badp);
        }
        if (nt > WS_TEX_MAX_TAPS) nt = WS_TEX_MAX_TAPS; /* the timing model sees the first level's */
        if (fs != WS_OK)
            return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l,
                           "illegal address 0x%llx (texel of texture object %llu, %s.%s; its "
                           "memory was freed)", (unsigned long long)badp, (unsigned long long)h,
                           opn, geom_name(geom));
        for (unsigned k = 0; k < 4; k++) res[k][l] = o[k];
        if (st) {
            st->addr[l] = nt ? taps[0] : d->addr;
            memcpy(st->tex_addr + st->ntex, taps, nt * sizeof *taps);
            st->ntex += nt;
            st->access_size = texel_bytes(d);
        }
    }
    WS_FOR_LANES(l, x->mask)
        for (unsigned k = 0; k < 4; k++) dst[k][l] = res[k][l];
    return WS_OK;
}
