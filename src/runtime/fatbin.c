/* Fat binary reader.
 *
 * Layout (as nvcc 13 writes it; little-endian):
 *   wrapper:  u32 magic 0x466243b1, u32 version, const void *data, void *unused
 *   header:   u32 magic 0xBA55ED50, u16 version, u16 header_size, u64 fat_size
 *             (bytes of entries following the header)
 *   entry:    u16 kind (1 PTX, 2 ELF/cubin), u16 version, u32 header_size,
 *             u64 payload_size (padded), u32 compressed_size, u32 (unused),
 *             u16 ptx minor, u16 ptx major, u32 arch (e.g. 75), u32 name offset,
 *             u32 name length, u64 flags, u64 (zero), u64 decompressed_size;
 *             the payload follows at entry + header_size.
 * flags: 0x8000 = payload is a zstd frame (nvcc 13's default; --no-compress
 * clears it); 0x2000 = the LZ4-style compression of CUDA 11/12, which warpsim
 * does not decode. Uncompressed PTX is NUL-padded text. */
#include "runtime/fatbin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef WARPSIM_NO_ZSTD
#include <zstd.h>
#endif

#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_COMPRESSED_OLD 0x2000u
#define FLAG_COMPRESSED_ZSTD 0x8000u
#define FATBIN_HEADER 16u
#define ENTRY_MIN_HEADER 64u

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

char *ws_fatbin_extract_ptx(const void *wrapper, unsigned *arch, char *err, size_t errlen) {
    if (!wrapper) {
        snprintf(err, errlen, "fat binary: null wrapper");
        return NULL;
    }
    const uint8_t *w = wrapper;
    uint32_t magic = rd32(w);
    if (magic != WS_FATBIN_WRAPPER_MAGIC) {
        /* Some callers hand over the fat binary itself. */
        if (magic == WS_FATBIN_MAGIC) return ws_fatbin_ptx_from_data(wrapper, 0, arch, err, errlen);
        snprintf(err, errlen, "fat binary wrapper has magic 0x%08x, expected 0x%08x", magic,
                 WS_FATBIN_WRAPPER_MAGIC);
        return NULL;
    }
    const void *data;
    memcpy(&data, w + 8, sizeof data);
    if (!data) {
        snprintf(err, errlen, "fat binary wrapper has no data pointer");
        return NULL;
    }
    return ws_fatbin_ptx_from_data(data, 0, arch, err, errlen);
}

/* Bytes of an uncompressed, NUL-padded PTX payload up to the first NUL. */
static char *copy_text(const uint8_t *p, size_t n) {
    size_t len = strnlen((const char *)p, n);
    char *s = malloc(len + 1);
    if (!s) return NULL;
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

/* The PTX of the entry at e, whose header (ehsize bytes) and payload (psize
   bytes) the caller has checked to lie inside the image. Every read below
   stays inside the payload. */
static char *decode_entry(const uint8_t *e, uint32_t ehsize, uint64_t psize, char *err,
                          size_t errlen) {
    uint32_t csize = rd32(e + 16);
    uint64_t flags = rd64(e + 40);
    uint64_t dsize = rd64(e + 56);
    const uint8_t *payload = e + ehsize;
    if (flags & FLAG_COMPRESSED_ZSTD) {
#ifdef WARPSIM_NO_ZSTD
        (void)csize;
        (void)dsize;
        snprintf(err, errlen,
                 "fat binary: the PTX is zstd-compressed and this warpsim was built without zstd "
                 "(make NO_ZSTD=1); rebuild warpsim with libzstd-dev, or the program with nvcc "
                 "--no-compress");
        return NULL;
#else
        if (csize > psize) {
            snprintf(err, errlen,
                     "fat binary is corrupt: compressed PTX of %u bytes in a payload of %llu bytes",
                     csize, (unsigned long long)psize);
            return NULL;
        }
        size_t in = csize ? csize : (size_t)psize;
        unsigned long long fsz = ZSTD_getFrameContentSize(payload, in);
        if (dsize == 0 && fsz != ZSTD_CONTENTSIZE_UNKNOWN && fsz != ZSTD_CONTENTSIZE_ERROR) dsize = fsz;
        if (dsize == 0) {
            snprintf(err, errlen, "fat binary: compressed PTX entry has no usable size");
            return NULL;
        }
        if (dsize > WS_FATBIN_MAX_PTX) {
            snprintf(err, errlen,
                     "fat binary: compressed PTX claims %llu bytes decompressed, over warpsim's "
                     "limit of %u MiB (corrupt, or PTX too large to simulate)",
                     (unsigned long long)dsize, WS_FATBIN_MAX_PTX >> 20);
            return NULL;
        }
        char *out = malloc((size_t)dsize + 1);
        if (!out) {
            snprintf(err, errlen, "fat binary: out of memory decompressing PTX");
            return NULL;
        }
        size_t r = ZSTD_decompress(out, (size_t)dsize, payload, in);
        if (ZSTD_isError(r)) {
            snprintf(err, errlen, "fat binary: zstd decompression of the PTX failed: %s",
                     ZSTD_getErrorName(r));
            free(out);
            return NULL;
        }
        out[r] = '\0';
        out[strnlen(out, r)] = '\0';  /* drop NUL padding */
        return out;
#endif
    }
    if (flags & FLAG_COMPRESSED_OLD) {
        snprintf(err, errlen,
                 "fat binary: the PTX is compressed with the pre-CUDA-13 scheme, which warpsim "
                 "cannot decode; rebuild with nvcc --no-compress");
        return NULL;
    }
    char *s = copy_text(payload, (size_t)psize);
    if (!s) snprintf(err, errlen, "fat binary: out of memory");
    return s;
}

/* Bounds are checked by comparing each size with the bytes that remain,
   never by forming a pointer past them: sizes come from the file, and a
   huge one would wrap the arithmetic. */
char *ws_fatbin_ptx_from_data(const void *data, size_t len, unsigned *arch, char *err,
                              size_t errlen) {
    const uint8_t *h = data;
    if (!h || (len && len < FATBIN_HEADER)) {
        snprintf(err, errlen, "fat binary: %s", h ? "truncated before the end of its header"
                                                  : "no data");
        return NULL;
    }
    if (rd32(h) != WS_FATBIN_MAGIC) {
        snprintf(err, errlen, "fat binary has magic 0x%08x, expected 0x%08x", rd32(h), WS_FATBIN_MAGIC);
        return NULL;
    }
    uint16_t hsize = rd16(h + 6);
    uint64_t fat_size = rd64(h + 8);
    /* Length unknown (a bare pointer): trust the header up to a sane size. */
    uint64_t avail = len ? (uint64_t)len : (uint64_t)WS_FATBIN_MAX_IMAGE;
    if (hsize < FATBIN_HEADER || hsize > avail || fat_size > avail - hsize) {
        snprintf(err, errlen,
                 "fat binary header is corrupt or the image truncated (header %u bytes, entries "
                 "%llu bytes, image %s%llu bytes)", hsize, (unsigned long long)fat_size,
                 len ? "" : "at most ", (unsigned long long)avail);
        return NULL;
    }
    const uint8_t *body = h + hsize;
    const uint8_t *best = NULL;
    uint32_t best_hsize = 0;
    uint64_t best_psize = 0;
    unsigned best_arch = 0, nelf = 0, elf_arch = 0;
    for (uint64_t off = 0, rem; (rem = fat_size - off) >= ENTRY_MIN_HEADER;) {
        const uint8_t *e = body + off;
        uint16_t kind = rd16(e);
        uint32_t ehsize = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        unsigned a = rd32(e + 28);
        if (ehsize < ENTRY_MIN_HEADER || ehsize > rem || psize > rem - ehsize) {
            snprintf(err, errlen,
                     "fat binary entry at offset %llu is corrupt or truncated (header %u bytes, "
                     "payload %llu bytes, %llu bytes left)",
                     (unsigned long long)(hsize + off), ehsize, (unsigned long long)psize,
                     (unsigned long long)rem);
            return NULL;
        }
        if (kind == KIND_PTX && (!best || a > best_arch)) {
            best = e;
            best_hsize = ehsize;
            best_psize = psize;
            best_arch = a;
        } else if (kind == KIND_ELF) {
            nelf++;
            if (a > elf_arch) elf_arch = a;
        }
        off += ehsize + psize;  /* <= fat_size: checked above */
    }
    if (!best) {
        if (nelf)
            snprintf(err, errlen,
                     "the fat binary holds only machine code (cubin for sm_%u) and no PTX, which "
                     "warpsim needs; rebuild with `-gencode arch=compute_XX,code=compute_XX` "
                     "(e.g. arch=compute_75,code=compute_75) so that PTX is embedded",
                     elf_arch);
        else
            snprintf(err, errlen, "the fat binary holds no PTX entry");
        return NULL;
    }
    if (arch) *arch = best_arch;
    return decode_entry(best, best_hsize, best_psize, err, errlen);
}
