# ctrun: one GNU make file. `make demo` and `make check` are all the set-up a user needs.
PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    ?= build
VERSION  := 0.1.0
DEB_PKGS := gcc libyajl-dev libcap-dev libseccomp-dev libcriterion-dev pkg-config \
            busybox-static python3-jsonschema util-linux qemu-system-x86 cpio

CC       ?= gcc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers -Wno-format-truncation \
            -D_GNU_SOURCE= -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE -I. -MMD -MP
LDFLAGS  += -pie -Wl,-z,relro,-z,now
LIBS     := -lyajl -lcap -lseccomp
TEST_LIBS := -lcriterion

LIB_SRCS  := $(wildcard oci/*.c libct/*.c libct/cgroup/*.c hooks/*.c)
RT_SRCS   := $(wildcard runtime/*.c)
UNIT_SRCS := $(wildcard tests/unit/*.c)
INTG_SRCS := $(wildcard tests/integration/*.c tests/lib/*.c)
HELPER_SRCS := $(wildcard tests/helpers/*.c)

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
RT_OBJS   := $(RT_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
INTG_OBJS := $(INTG_SRCS:%.c=$(BUILD)/%.o)
HELPERS   := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)

.PHONY: all deps check unit integration demo bench install format clean
all: $(BUILD)/ctrun

# Installs what is missing (Debian); quick when everything is there.
deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "make deps: missing packages (run as root): $$missing" >&2; exit 1; fi; \
		echo "make deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

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

$(BUILD)/ctrun: $(BUILD)/runtime/main.o $(BUILD)/libctrun-cli.a $(BUILD)/libctrun.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/libctrun-cli.a $(BUILD)/libctrun.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(BUILD)/integration-tests: $(INTG_OBJS) $(BUILD)/libctrun.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(BUILD)/helpers/%: tests/helpers/%.c $(BUILD)/libctrun.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libctrun.a $(LIBS)

# Runs inside the busybox rootfs, which has no libc: static, and none of libct.
$(BUILD)/helpers/sysprobe: tests/helpers/sysprobe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static-pie -o $@ $<

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --jobs 2

# Integration tests run in a private mount namespace so a failure leaves no mount on the host.
integration: $(BUILD)/ctrun $(BUILD)/integration-tests $(HELPERS)
	CTRUN=$(CURDIR)/$(BUILD)/ctrun CTRUN_SRC=$(CURDIR) CTRUN_HELPERS=$(CURDIR)/$(BUILD)/helpers \
		unshare -m --propagation private $(BUILD)/integration-tests --jobs 1

check: deps
	$(MAKE) unit
	$(MAKE) integration

demo: deps $(BUILD)/ctrun
	contrib/demo.sh $(BUILD)

bench: deps $(BUILD)/ctrun
	contrib/bench/bench.sh $(BUILD)

install: $(BUILD)/ctrun
	install -D -m 0755 $(BUILD)/ctrun $(DESTDIR)$(PREFIX)/sbin/ctrun
	install -D -m 0644 contrib/man/ctrun.8 $(DESTDIR)$(PREFIX)/share/man/man8/ctrun.8
	install -D -m 0644 contrib/completion/ctrun.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctrun

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(RT_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(INTG_OBJS:.o=.d)
