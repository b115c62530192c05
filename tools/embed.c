/* embed NAME FILE.ptx [FILE.ptxinfo]: writes C source defining
 *   const char ws_bench_NAME_ptx[];       the PTX text, NUL-terminated
 *   const char ws_bench_NAME_ptxinfo[];   the ptxas -v output ("" if none)
 * Used by the Makefile to compile bundled workloads' PTX into the binaries. */
#include <stdio.h>
#include <stdlib.h>

static int emit(const char *name, const char *suffix, const char *path) {
    printf("const char ws_bench_%s_%s[] = {\n", name, suffix);
    if (path) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "embed: cannot open %s\n", path);
            return 1;
        }
        int c, n = 0;
        while ((c = fgetc(f)) != EOF) {
            printf("%d,", c);
            if (++n % 32 == 0) putchar('\n');
        }
        fclose(f);
    }
    printf("0};\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: embed NAME FILE.ptx [FILE.ptxinfo]\n");
        return 2;
    }
    if (emit(argv[1], "ptx", argv[2])) return 1;
    return emit(argv[1], "ptxinfo", argc > 3 ? argv[3] : NULL);
}
