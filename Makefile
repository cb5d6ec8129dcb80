# ctrun: one GNU make file. `make demo` and `make check` are all the set-up a user needs.
PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    ?= build
VERSION  := 0.1.0
# ctrun's own binary links musl (below): what building musl, yajl and libseccomp
# from Debian's source packages takes (dpkg-source, the archive key that signs the source
# lists; gperf for libseccomp's syscall table; the kernel's headers, which musl-gcc is given),
# and readelf, with which .ci/run checks that the binary it tested is the static one.
MUSL_PKGS := gperf dpkg-dev xz-utils debian-archive-keyring linux-libc-dev binutils
DEB_PKGS := gcc libc6-dev libyajl-dev libseccomp-dev libcriterion-dev pkg-config \
            busybox-static python3-jsonschema util-linux qemu-system-x86 cpio procps \
            uidmap strace runc crun criu tar iproute2 iptables dbus python3-dbus python3-gi $(MUSL_PKGS)
# What make check-e2e drives ctrun with: the real clients, as Debian ships them (iproute2:
# the Podman suite sets up a network namespace of its own; docker.io brings docker-init, the
# tini that `docker run --init` binds in; gRPC for Python: the CRI suite's client of the
# Kubernetes CRI, compiled from its api.proto at test time).
E2E_PKGS := podman conmon catatonit containernetworking-plugins containerd iproute2 docker.io buildah \
            python3-grpcio python3-grpc-tools

CC       ?= gcc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers -Wno-format-truncation \
            -D_GNU_SOURCE= -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE -I. -MMD -MP
# The build id is the seccomp cache's guard against changed code (libct/seccomp/seccomp_key.h): never
# left to the toolchain's default.
LDFLAGS  += -pie -Wl,-z,relro,-z,now -Wl,--build-id=sha1
LIBS     := -lyajl -lseccomp
# ctrun itself is a static PIE: no dynamic loader, no relocations of five shared objects at
# every command (docs/performance.md). --fatal-warnings turns
# glibc's "getpwuid in statically linked applications" (NSS) warnings into errors.
CTRUN_LDFLAGS := $(filter-out -pie,$(LDFLAGS)) -static-pie -Wl,--fatal-warnings
CTRUN_LIBS    := -lyajl_s -lseccomp
TEST_LIBS := -lcriterion

LIB_SRCS  := $(wildcard oci/*.c libct/*/*.c hooks/*.c)
RT_SRCS   := $(wildcard runtime/*.c)
UNIT_SRCS := $(wildcard tests/unit/*.c)
INTG_SRCS := $(wildcard tests/integration/*.c tests/lib/*.c)
HELPER_SRCS := $(wildcard tests/helpers/*.c)

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
RT_OBJS   := $(RT_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
INTG_OBJS := $(INTG_SRCS:%.c=$(BUILD)/%.o)
HELPERS   := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)

# ctrun links musl, not glibc: glibc's static start-up probes the CPU caches with cpuid
# loops, each a trap to the hypervisor in a VM (at every command; musl's start-up has
# none; docs/performance.md). So the sources are compiled twice: by gcc into $(BUILD)/
# (libctrun.a for the unit and integration tests and helpers, glibc) and by musl-gcc into
# $(MUSL_DIR)/obj/ for $(BUILD)/ctrun-musl. musl itself (with its older malloc), yajl
# and libseccomp are built from Debian's source packages into $(MUSL_PREFIX)
# (contrib/musl/build-deps.sh, from pinned versions with pinned checksums). $(BUILD)/ctrun is
# $(BUILD)/ctrun-musl; when musl cannot be built the build fails, saying why. It is
# $(BUILD)/ctrun-glibc only when asked for: make LIBC=glibc (contrib/musl/libc.sh chooses,
# and says so).
LIBC          ?= musl
MUSL_DIR      := $(BUILD)/musl
MUSL_PREFIX   := $(MUSL_DIR)/prefix
MUSL_CC       := $(MUSL_PREFIX)/bin/musl-gcc
MUSL_CFLAGS   := $(CFLAGS) -isystem $(MUSL_PREFIX)/include
# musl-gcc's specs link a dynamic PIE even when asked for -static-pie: ours come after them.
MUSL_LINK     := gcc -specs=$(MUSL_PREFIX)/lib/musl-gcc.specs -B$(MUSL_PREFIX)/lib/ \
                 -specs=contrib/musl/static-pie.specs
MUSL_OBJS     := $(LIB_SRCS:%.c=$(MUSL_DIR)/obj/%.o) $(RT_SRCS:%.c=$(MUSL_DIR)/obj/%.o)
LIBC_SH       := contrib/musl/libc.sh
CHOOSE_LIBC    = $(LIBC_SH) $(MUSL_DIR) $(LIBC)

# Fuzzing (make fuzz): libFuzzer harnesses built by clang with ASan and UBSan, from their own
# objects under $(BUILD)/fuzz/ (never the gcc ones), of the whole library: the linker takes
# from it only what each harness uses.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_PKGS    := clang libclang-rt-14-dev
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers \
                -D_GNU_SOURCE= -I. -MMD -MP $(FUZZ_SAN)
FUZZ_LIB_SRCS := $(LIB_SRCS)
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_DIR)/%.o)
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

.PHONY: all deps deps-e2e fuzz-deps check check-libc check-vm check-criu check-systemd check-e2e layers unit integration fuzz fuzz-run demo bench bench-libc bench-profile install format clean
all: $(BUILD)/ctrun

# Installs what is missing of the packages $(1) (Debian); quick when everything is there.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "make deps: missing packages (run as root): $$missing" >&2; exit 1; fi; \
		echo "make deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

# ... then builds ctrun's libraries with musl (or fails, saying why), unless LIBC=glibc.
deps:
	$(call install_missing,$(DEB_PKGS))
	@$(CHOOSE_LIBC) >/dev/null

deps-e2e:
	$(call install_missing,$(DEB_PKGS) $(E2E_PKGS))

fuzz-deps:
	$(call install_missing,$(DEB_PKGS) $(FUZZ_PKGS))

# The commit is baked in only when it changes, so a rebuild stays incremental.
$(BUILD)/version.h: FORCE
	@mkdir -p $(@D)
	@c=$$(git rev-parse --verify -q HEAD 2>/dev/null || echo unknown); \
	printf '#define CTRUN_VERSION "%s"\n#define CTRUN_COMMIT "%s"\n' "$(VERSION)" "$$c" > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:

$(BUILD)/runtime/cmd_version.o: $(BUILD)/version.h
$(BUILD)/runtime/cmd_version.o: CFLAGS += -I$(BUILD)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libctrun.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The runtime's commands without main(), so unit tests reach them too.
$(BUILD)/libctrun-cli.a: $(filter-out $(BUILD)/runtime/main.o,$(RT_OBJS))
	@rm -f $@
	ar rcs $@ $^

# $@ is a hard link to $@-musl or $@-glibc, as contrib/musl/libc.sh decides; asked at every
# make (quick once decided), the sub-make relinks only what changed. When the chosen libc
# cannot be had, $@ goes too: no binary of the other libc is left under its name.
define link_chosen_libc
	+@libc=$$($(CHOOSE_LIBC)) || { rm -f $@; exit 1; }; $(MAKE) --no-print-directory $@-$$libc && \
		{ [ $@-$$libc -ef $@ ] || ln -f $@-$$libc $@; }
endef

$(BUILD)/ctrun: FORCE
	$(link_chosen_libc)

$(BUILD)/ctrun-glibc: $(BUILD)/runtime/main.o $(BUILD)/libctrun-cli.a $(BUILD)/libctrun.a
	$(CC) $(CTRUN_LDFLAGS) -o $@ $^ $(CTRUN_LIBS)

$(MUSL_DIR)/obj/runtime/cmd_version.o: $(BUILD)/version.h
$(MUSL_DIR)/obj/runtime/cmd_version.o: MUSL_CFLAGS += -I$(BUILD)

$(MUSL_DIR)/obj/%.o: %.c | $(MUSL_PREFIX)/.complete
	@mkdir -p $(@D)
	$(MUSL_CC) $(MUSL_CFLAGS) -c -o $@ $<

$(BUILD)/ctrun-musl: $(MUSL_OBJS) contrib/musl/static-pie.specs $(MUSL_PREFIX)/.complete
	$(MUSL_LINK) $(filter-out -static-pie,$(CTRUN_LDFLAGS)) -o $@ $(MUSL_OBJS) \
		-L$(MUSL_PREFIX)/lib -lyajl -lseccomp

# Built by libc.sh (whatever LIBC says: a musl target asked for by name needs it).
$(MUSL_PREFIX)/.complete:
	@$(LIBC_SH) $(MUSL_DIR) musl >/dev/null

$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/tests/lib/difftable.o $(BUILD)/libctrun-cli.a $(BUILD)/libctrun.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(BUILD)/integration-tests: $(INTG_OBJS) $(BUILD)/libctrun.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(BUILD)/helpers/%: tests/helpers/%.c $(BUILD)/libctrun.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libctrun.a $(LIBS)

# Run inside the busybox rootfs, which has no libc: static, and none of libct.
STATIC_HELPERS := sysprobe hook_recorder exe_attack diffprobe lock_holder
$(STATIC_HELPERS:%=$(BUILD)/helpers/%): $(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static-pie -o $@ $<

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --jobs 2

# The source folders' order (libct/LAYERS): an include or a call against it, or files that
# depend on each other in a circle, fail; the checker's own tests run first.
layers: $(LIB_OBJS) $(RT_OBJS)
	python3 tests/layers/test_check_layers.py
	python3 tests/layers/check_layers.py . --objects $(BUILD)

# Integration tests run in a private mount namespace so a failure leaves no mount on the host,
# with a cache directory of their own (a tmpfs): the kept views of the binaries they run
# (libct/parent/exe_bind.h) and their mount points stay out of the host's.
INTEGRATION_RUN = CTRUN=$(CURDIR)/$(BUILD)/ctrun CTRUN_SRC=$(CURDIR) \
	CTRUN_HELPERS=$(CURDIR)/$(BUILD)/helpers \
	unshare -m --propagation private sh -c 'mkdir -p /run/ctrun-cache && \
	mount -t tmpfs -o mode=0700,nosuid,nodev ctrun-cache /run/ctrun-cache && exec "$$0" "$$@"' \
	$(BUILD)/integration-tests --jobs 1

integration: $(BUILD)/ctrun $(BUILD)/integration-tests $(HELPERS)
	$(INTEGRATION_RUN)

# The vm suite alone (Linux 6.1 with cgroup v2 in qemu); make integration runs it too.
check-vm: deps $(BUILD)/ctrun $(BUILD)/integration-tests $(HELPERS)
	$(INTEGRATION_RUN) --filter 'vm/*'

# Checkpoint and restore with CRIU, in that guest (Debian's criu 3.17 needs a kernel of its
# time: it fails on newer ones); its cases boot with the whole vm suite's.
check-criu: deps $(BUILD)/ctrun $(BUILD)/integration-tests $(HELPERS)
	$(INTEGRATION_RUN) --filter 'vm/criu*'

# The systemd driver's suite: Debian 12 with systemd as PID 1 in qemu (tests/vm-systemd/run.sh),
# against runc's --systemd-cgroup and ctrun's. Skipped, saying why, where qemu, the kernel
# or the packages cannot be had; fails when a case fails.
check-systemd: deps $(BUILD)/ctrun
	@rc=0; tests/vm-systemd/run.sh $(BUILD)/ctrun $(BUILD)/vm-systemd || rc=$$?; \
	if [ $$rc = 77 ]; then echo "check-systemd: skipped (the reason is above)"; exit 0; fi; \
	exit $$rc

# The choice of libc for ctrun and the checks around it (fast: it links copies of these
# objects, with fake musl builds).
check-libc: $(BUILD)/runtime/main.o $(BUILD)/libctrun-cli.a $(BUILD)/libctrun.a
	tests/build/libc_choice.sh $(BUILD)

check: deps
	$(MAKE) check-libc
	$(MAKE) layers
	$(MAKE) unit
	$(MAKE) integration
	$(MAKE) check-systemd

# End to end: Podman (conmon), containerd (runc shim) and Kubernetes' CRI (containerd's CRI
# plugin) with ctrun as their runtime.
check-e2e: deps-e2e $(BUILD)/ctrun
	tests/e2e/run-all.sh $(BUILD)

# The objects only take coverage hooks (fuzzer-no-link); the harness link adds libFuzzer.
$(FUZZ_LIB_OBJS): $(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/libctrun-fuzz.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/libctrun-fuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/libctrun-fuzz.a $(LIBS)

# Each harness runs FUZZ_SECONDS on the checked-in seeds (read only) plus what it found
# before in $(FUZZ_DIR)/corpus; the first crash, leak or sanitizer report fails, and its
# input is kept in $(FUZZ_DIR)/crashes/<harness>/.
fuzz: fuzz-deps
	$(MAKE) fuzz-run

fuzz-run: $(FUZZ_BINS)
	@for h in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$h $(FUZZ_DIR)/crashes/$$h; \
		echo "make fuzz: $$h for $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
			-dict=tests/fuzz/$$h.dict -artifact_prefix=$(FUZZ_DIR)/crashes/$$h/ \
			$(FUZZ_DIR)/corpus/$$h tests/fuzz/corpus/$$h 2>$(FUZZ_DIR)/$$h.log || \
			{ tail -n 60 $(FUZZ_DIR)/$$h.log; echo "make fuzz: $$h failed, input in" \
			  "$(FUZZ_DIR)/crashes/$$h/"; exit 1; }; \
		grep -E '^stat::(number_of_executed_units|new_units_added)' $(FUZZ_DIR)/$$h.log; \
	done

demo: deps $(BUILD)/ctrun
	contrib/demo.sh $(BUILD)

# The bench's own tools: the floor launcher, the peak-RSS meter and the timing launcher (plain C, no libraries;
# static, as ctrun is, so that the floor pays no dynamic loader either). The floor links the
# libc ctrun links: the same start-up cost on both sides of the ratio.
BENCH_TOOLS := $(BUILD)/bench/floor $(BUILD)/bench/maxrss $(BUILD)/bench/launch
BENCH_CFLAGS := -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE= -static
$(BUILD)/bench/maxrss $(BUILD)/bench/launch: $(BUILD)/bench/%: contrib/bench/%.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $<

$(BUILD)/bench/floor: FORCE
	$(link_chosen_libc)

$(BUILD)/bench/floor-glibc: contrib/bench/floor.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $<

$(BUILD)/bench/floor-musl: contrib/bench/floor.c $(MUSL_PREFIX)/.complete
	@mkdir -p $(@D)
	$(MUSL_CC) $(BENCH_CFLAGS) -isystem $(MUSL_PREFIX)/include -o $@ $<

bench: deps $(BUILD)/ctrun $(BENCH_TOOLS)
	contrib/bench/bench.sh $(BUILD)

# ctrun and the floor linked with musl against both linked with glibc (docs/performance.md).
bench-libc: deps $(BUILD)/ctrun $(BUILD)/ctrun-musl $(BUILD)/ctrun-glibc $(BUILD)/bench/maxrss $(BUILD)/bench/launch \
		$(BUILD)/bench/floor-musl $(BUILD)/bench/floor-glibc
	contrib/bench/bench.sh $(BUILD) libc_ab.py

# One `ctrun run` cut into its steps under strace (docs/performance.md).
bench-profile: deps $(BUILD)/ctrun $(BENCH_TOOLS)
	contrib/bench/bench.sh $(BUILD) profile.py

install: $(BUILD)/ctrun
	install -D -m 0755 $(BUILD)/ctrun $(DESTDIR)$(PREFIX)/sbin/ctrun
	install -D -m 0644 contrib/man/ctrun.8 $(DESTDIR)$(PREFIX)/share/man/man8/ctrun.8
	install -D -m 0644 contrib/completion/ctrun.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctrun

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(RT_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(INTG_OBJS:.o=.d) \
	$(MUSL_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d)
