# warpsim build.
#   make            release build: build/warpsim, build/lib/libcudart.so.13, build/lib/libcuda.so.1
#   make test       build and run the test suite (release build)
#   make asan       the test suite under AddressSanitizer + UBSan, built by clang (build-asan/)
#   make test-tools the experiment tools' tests (tests/tools, Python; part of `make test`)
#   make fuzz       run every fuzz harness (tests/fuzz) for FUZZ_SECONDS each: libFuzzer on
#                   the fat binary reader, PTX front end, config reader and functional
#                   engine (needs clang), then the sweep-spec reader (not a test)
#   make pgo        build-pgo/warpsim and shim libraries, profile-guided and link-time optimised
#                   (needs gcc; same results, checked on its training runs; tools/speed.py --bin)
#   make bench-speed  simulation speed: matmul 256 functional and timing, two memory-bound runs (not a test)
#   make ptx        regenerate bundled workloads' PTX + ptxas info (needs nvcc)
#   make install [PREFIX=/usr/local] [DESTDIR=]   warpsim on PATH: PREFIX/bin/warpsim, the shim
#                   libraries and the experiment tools in PREFIX/lib/warpsim (where an installed
#                   warpsim looks for them), example sweep specs in PREFIX/share/warpsim
#   make uninstall  remove what `make install` put there

BUILD   ?= build
CC      ?= cc
# for `make asan` and `make fuzz`
CLANG   ?= clang
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
ifeq ($(WERROR),1)
WARN    += -Werror
endif
CPPFLAGS = -Iinclude -Isrc -Ibench -Itests -D_GNU_SOURCE $(CPPFLAGS_EXTRA)
ALLCFLAGS = -std=c11 $(WARN) -fPIC $(CPPFLAGS) $(CFLAGS)
LDLIBS  := -lzstd -lm -lpthread -ldl
# NO_ZSTD=1: build without libzstd (zstd-compressed fat binaries are then refused
# with a message; --no-compress ones and bundled workloads still run)
ifeq ($(NO_ZSTD),1)
CPPFLAGS_EXTRA := -DWARPSIM_NO_ZSTD
LDLIBS  := -lm -lpthread -ldl
endif
# Debian's python3 has python3-matplotlib; a pyenv python3 first on PATH may not.
PYTHON  ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
TOOLS_TESTS ?= 1

SHIM_SRC := src/runtime/cudart.c src/runtime/cuda.c
LIB_SRC  := $(filter-out $(SHIM_SRC) src/cli/%,$(shell find src -name '*.c' | sort))
CLI_SRC  := $(shell find src/cli -name '*.c' | sort)
BENCH_C  := $(shell find bench -name '*.c' | sort)
BENCH_PTX := $(shell find bench -name 'kernel.ptx' | sort)
TEST_SRC := tests/main.c $(shell find tests/unit tests/func -name '*.c' 2>/dev/null | sort)

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_C:%.c=$(BUILD)/obj/%.o)
EMBED_OBJ := $(BENCH_PTX:%.ptx=$(BUILD)/obj/embed/%.o)
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

LIBWS    := $(BUILD)/libwarpsim.a
WARPSIM  := $(BUILD)/warpsim
CUDART   := $(BUILD)/lib/libcudart.so.13
CUDADRV  := $(BUILD)/lib/libcuda.so.1
TESTBIN  := $(BUILD)/run_tests

.PHONY: all test test-tools asan clean pgo bench-speed ptx check-ptx fuzz fuzz-spec install uninstall
all: $(WARPSIM) $(CUDART) $(CUDADRV) $(TESTBIN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -c $< -o $@

# Bundled PTX and ptxas info are compiled into the binary so that workloads
# run from any directory and without CUDA.
$(BUILD)/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -o $@ $<
$(BUILD)/obj/embed/%.c: %.ptx $(BUILD)/embed
	@mkdir -p $(dir $@)
	$(BUILD)/embed $(subst /,_,$(patsubst bench/%/kernel,%,$*)) $< $(wildcard $(dir $<)kernel.ptxinfo) > $@
$(BUILD)/obj/embed/%.o: $(BUILD)/obj/embed/%.c
	$(CC) -c $< -o $@

$(LIBWS): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(WARPSIM): $(CLI_OBJ) $(BENCH_OBJ) $(EMBED_OBJ) $(LIBWS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BENCH_OBJ) $(EMBED_OBJ) $(LIBWS) $(LDLIBS)

$(CUDART): $(BUILD)/obj/src/runtime/cudart.o $(LIBWS) src/runtime/cudart.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/runtime/cudart.map \
	    -o $@ $(filter %.o %.a,$^) $(LDLIBS)
	ln -sf libcudart.so.13 $(BUILD)/lib/libcudart.so

$(CUDADRV): $(BUILD)/obj/src/runtime/cuda.o $(LIBWS) src/runtime/cuda.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=src/runtime/cuda.map \
	    -o $@ $(filter %.o %.a,$^) $(LDLIBS)
	ln -sf libcuda.so.1 $(BUILD)/lib/libcuda.so

$(TESTBIN): $(TEST_OBJ) $(BENCH_OBJ) $(EMBED_OBJ) $(LIBWS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(BENCH_OBJ) $(EMBED_OBJ) $(LIBWS) $(LDLIBS)

test: all
	WARPSIM_ROOT=$(CURDIR) WARPSIM_BUILD=$(CURDIR)/$(BUILD) $(TESTBIN) $(T)
ifeq ($(TOOLS_TESTS),1)
	$(MAKE) --no-print-directory test-tools
endif

# Sweeps (local and a one-node SLURM cluster), results database, report.
test-tools: $(WARPSIM)
	WARPSIM_BIN=$(CURDIR)/$(WARPSIM) PYTHONDONTWRITEBYTECODE=1 $(PYTHON) tests/tools/run_tests.py $(T)

# clang: its UBSan has float-cast-overflow and implicit-conversion (a value
# changed by an implicit integer conversion); any report fails the run.
# The sanitizer runtimes are shared libraries (as with gcc) so that the shim
# libraries can be linked into and preloaded by programs built without them.
ASAN_SAN := -fsanitize=address,undefined,float-cast-overflow,implicit-conversion \
            -fno-sanitize-recover=all
ASAN_RT   = $(dir $(shell $(CLANG) -print-file-name=libclang_rt.asan-x86_64.so))
asan:
	$(MAKE) CC=$(CLANG) BUILD=build-asan OPT=-O1 TOOLS_TESTS=0 \
	    CFLAGS="-O1 -g $(ASAN_SAN) -fno-omit-frame-pointer" \
	    LDFLAGS="-shared-libsan -Wl,-rpath,$(ASAN_RT)" test

# Profile-guided and link-time optimised build (gcc): an instrumented build runs
# tools/pgo_train.py's training set (bundled workloads that tools/speed.py does
# not time), every object is compiled again with its profile, and the training
# set runs once more on the result, which fails unless every statistic matches
# the instrumented build's. Always from scratch: stale profiles would mislead.
PGO_DIR   ?= build-pgo
PGO_FLAGS := $(OPT) -g -flto=auto
pgo:
	rm -rf $(PGO_DIR)
	$(MAKE) BUILD=$(PGO_DIR) AR=gcc-ar CFLAGS="$(PGO_FLAGS) -fprofile-generate -fprofile-update=prefer-atomic" \
	    LDFLAGS="-flto=auto -fprofile-generate" $(PGO_DIR)/warpsim
	$(PYTHON) tools/pgo_train.py --bin $(PGO_DIR)/warpsim --out $(PGO_DIR)/train/instrumented
	find $(PGO_DIR)/obj -name '*.o' -delete
	rm -f $(PGO_DIR)/libwarpsim.a $(PGO_DIR)/warpsim
	$(MAKE) BUILD=$(PGO_DIR) AR=gcc-ar \
	    CFLAGS="$(PGO_FLAGS) -fprofile-use -fprofile-partial-training -Wno-missing-profile" \
	    LDFLAGS="-flto=auto" $(PGO_DIR)/warpsim $(PGO_DIR)/lib/libcudart.so.13 $(PGO_DIR)/lib/libcuda.so.1
	$(PYTHON) tools/pgo_train.py --bin $(PGO_DIR)/warpsim --out $(PGO_DIR)/train/optimised \
	    --check $(PGO_DIR)/train/instrumented

bench-speed: $(WARPSIM)
	./tools/bench_speed.sh

# libFuzzer harnesses (tests/fuzz/fuzz_*.c; needs clang): the fat binary
# reader, the PTX front end, the config/.icnt reader, PTX run on the
# functional engine and the CPU core's LLC trace reader, each for FUZZ_SECONDS, one after the other, then the
# sweep-spec reader (tests/fuzz/fuzz_spec.py, Python). Seeds: tests/data/fatbin,
# the committed PTX (bench/*/*/kernel.ptx, tests/data/ptx) and configs
# (tests/data/gpgpusim-configs); new inputs go to $(BUILD)/fuzz/corpus/NAME and
# crashes to $(BUILD)/fuzz/crashes. The library is built again with
# -fsanitize=fuzzer-no-link,address,undefined under $(BUILD)/fuzz/obj. The
# malloc limit sits above the 256 MiB caps (decompressed or read PTX), so a
# bigger allocation is a finding.
FUZZ_SECONDS ?= 60
# FUZZ_SEED=N repeats a run's mutations (CI sets one, so a pass or a failure
# does not depend on the clock); unset: a new seed each run
FUZZ_SEED    ?=
FUZZ_NAMES   := fatbin ptx config exec cputrace
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -std=c11 -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(WARN) -fPIC $(CPPFLAGS)
FUZZ_OBJ     := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_LIB     := $(BUILD)/fuzz/libwarpsim.a
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_RUN      = -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -malloc_limit_mb=512 \
                -timeout=20 -artifact_prefix=$(BUILD)/fuzz/crashes/ $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED))
FUZZ_SEEDS_ptx    = $(BUILD)/fuzz/seeds/ptx tests/data/ptx
FUZZ_SEEDS_exec   = $(FUZZ_SEEDS_ptx)
FUZZ_SEEDS_config = $(wildcard tests/data/gpgpusim-configs/*/)
FUZZ_SEEDS_fatbin = tests/data/fatbin
FUZZ_SEEDS_cputrace = tests/data/cputrace
# the biggest bench kernels take seconds each on the engine
FUZZ_OPTS_exec    = -max_len=16384

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(FUZZ_LIB): $(FUZZ_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(LDLIBS)
# bench PTX seeds under one folder, named after their workload
$(BUILD)/fuzz/seeds/ptx: $(BENCH_PTX)
	@mkdir -p $@
	for f in $(BENCH_PTX); do cp $$f $@/$$(echo $$f | tr / _); done
	@touch $@

# one harness: make fuzz-ptx (fuzz-fatbin, fuzz-config, fuzz-exec, fuzz-cputrace, fuzz-spec)
fuzz-%: $(BUILD)/fuzz/fuzz_% $(BUILD)/fuzz/seeds/ptx
	@mkdir -p $(BUILD)/fuzz/crashes $(BUILD)/fuzz/corpus/$*
	$< $(FUZZ_RUN) $(FUZZ_OPTS_$*) $(BUILD)/fuzz/corpus/$* $(FUZZ_SEEDS_$*)
fuzz-spec:
	@mkdir -p $(BUILD)/fuzz/crashes
	$(PYTHON) tests/fuzz/fuzz_spec.py --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz/crashes \
	    $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))
# one after the other (each harness has the machine to itself), even under -j
fuzz: $(FUZZ_BINS) $(BUILD)/fuzz/seeds/ptx
	set -e; for n in $(FUZZ_NAMES) spec; do $(MAKE) --no-print-directory fuzz-$$n; done

ptx:
	./tools/gen_ptx.sh

check-ptx:
	./tools/gen_ptx.sh --check

clean:
	rm -rf build build-asan build-pgo

# The layout src/cli/main.c looks for beside an installed binary:
# PREFIX/bin/warpsim, PREFIX/lib/warpsim/{libcudart.so.13,libcuda.so.1,tools/}.
PREFIX  ?= /usr/local
INSTDIR  = $(DESTDIR)$(PREFIX)
TOOLS_PY := $(wildcard tools/warpsim_tools/*.py)
install: $(WARPSIM) $(CUDART) $(CUDADRV)
	install -d $(INSTDIR)/bin $(INSTDIR)/lib/warpsim/tools/warpsim_tools $(INSTDIR)/share/warpsim/examples
	install -m 755 $(WARPSIM) $(INSTDIR)/bin/warpsim
	install -m 755 $(CUDART) $(CUDADRV) $(INSTDIR)/lib/warpsim/
	ln -sf libcudart.so.13 $(INSTDIR)/lib/warpsim/libcudart.so
	ln -sf libcuda.so.1 $(INSTDIR)/lib/warpsim/libcuda.so
	install -m 755 tools/warpsim-tools $(INSTDIR)/lib/warpsim/tools/
	install -m 644 $(TOOLS_PY) $(INSTDIR)/lib/warpsim/tools/warpsim_tools/
	install -m 644 tools/examples/*.toml $(INSTDIR)/share/warpsim/examples/

uninstall:
	rm -f $(INSTDIR)/bin/warpsim
	rm -rf $(INSTDIR)/lib/warpsim $(INSTDIR)/share/warpsim

-include $(shell find $(BUILD)/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)

# Bundled workloads on a CUDA driver (not a test): `make hwcheck` links them
# with warpsim's own libcuda.so.1; on a machine with a GPU,
# `make hwcheck CUDA_LIBS=-lcuda` runs them on the hardware.
ifeq ($(origin CUDA_LIBS),undefined)
CUDA_LIBS := -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD))/lib -l:libcuda.so.1
HWCHECK_SHIM := $(CUDADRV)
endif
HWCHECK_OBJ := $(BUILD)/obj/tools/hwcheck/main.o $(BUILD)/obj/tools/hwcheck/cuda_backend.o
$(BUILD)/hwcheck: $(HWCHECK_OBJ) $(BENCH_OBJ) $(EMBED_OBJ) | $(HWCHECK_SHIM)
	$(CC) $(CFLAGS) -o $@ $^ $(CUDA_LIBS) -lm
.PHONY: hwcheck
hwcheck: $(BUILD)/hwcheck

# Bundled workloads as ordinary CUDA programs (needs nvcc; not a test): the
# same kernel.cu and host.c over the CUDA runtime, for a GPU, warpsim's shim
# or GPGPU-Sim (tools/oracle.py). CUDA_APPS: SUITE/NAME list (default: all).
.PHONY: cuda-apps
cuda-apps:
	./tools/cuda_apps/build.sh $(BUILD)/cuda-apps $(CUDA_APPS)

# Accept a change of the timing model's golden statistics (review the diff).
.PHONY: golden
golden: all
	WARPSIM_UPDATE_GOLDEN=1 WARPSIM_ROOT=$(CURDIR) $(TESTBIN) golden

# Every bundled workload on its paper input, functionally (minutes; not a test).
.PHONY: check-paper
check-paper: $(WARPSIM)
	./tools/run_all.sh --functional --input paper
