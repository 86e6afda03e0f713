# docsd build. `make` builds build/docsd; `make asan` the ASan+UBSan build in
# build-asan/; `make unit` builds and runs the C unit tests.
CC      ?= cc
PKGS    := libmicrohttpd jansson sqlite3 libpq libcrypto libcmark-gfm pangocairo cairo-pdf libcurl yaml-0.1 libxml-2.0 libgit2 libsodium xmlsec1-openssl zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
VERSION := 0.1.0
BUILD_DATE := $(shell git log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
	-Isrc $(PKG_CFLAGS) -DDOCSD_VERSION='"$(VERSION)"' -DDOCSD_BUILD_DATE='"$(BUILD_DATE)"' -MMD -MP
OPT     ?= -O2 -g
# cmark-gfm's extensions library (tables, strikethrough, task lists) ships no .pc file.
LIBS    := $(PKG_LIBS) -lcmark-gfm-extensions -lpthread

SRC := $(wildcard src/util/*.c src/http/*.c src/model/*.c src/format/*.c src/json/*.c src/store/*.c src/domain/*.c src/api/*.c src/jobs/*.c src/site/*.c src/translate/*.c src/git/*.c src/runtime/*.c src/app/*.c) src/server.c src/options.c
MAIN := src/main.c
UNIT_SRC := $(wildcard tests/unit/*.c tests/unit/*/*.c)

BUILD ?= build
OBJ := $(SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(MAIN:%.c=$(BUILD)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)

.PHONY: all asan unit unit-asan clean
all: $(BUILD)/docsd

$(BUILD)/docsd: $(OBJ) $(MAIN_OBJ)
	$(CC) $(OPT) $(SAN) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(OPT) $(SAN) -c -o $@ $<

$(BUILD)/unit-tests: $(OBJ) $(UNIT_OBJ)
	$(CC) $(OPT) $(SAN) -o $@ $^ $(LIBS)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" build-asan/docsd

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests

unit-asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" build-asan/unit-tests
	build-asan/unit-tests

clean:
	rm -rf build build-asan build-fuzz

-include $(OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)

# Unit tests live in a folder per layer (tests/unit/<layer>/) and share tests/unit/unit.h.
$(UNIT_OBJ): CFLAGS_BASE += -Itests/unit

# libFuzzer targets, one file per target in fuzz/ with its seed corpus in
# fuzz/corpus/<target>/, built with clang into build-fuzz/ (ASan + UBSan):
# `make fuzz` builds them; `make fuzz FUZZ_SECONDS=N` also runs each for N
# seconds (fuzz/run.sh: one line per target, then "N passed, N failed").
# One target by hand: `build-fuzz/fuzz-html_markdown -max_total_time=180
# fuzz/corpus/html_markdown/` (clang warns of {NULL} table ends that gcc
# accepts: that warning is off there).
FUZZ_SRC := $(wildcard fuzz/*.c)
FUZZ_SECONDS ?=
.PHONY: fuzz
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang OPT="-O1 -g -fno-omit-frame-pointer -Wno-missing-field-initializers" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
		$(FUZZ_SRC:fuzz/%.c=build-fuzz/fuzz-%)
	$(if $(FUZZ_SECONDS),fuzz/run.sh $(FUZZ_SECONDS))

$(BUILD)/fuzz-%: $(BUILD)/fuzz/%.o $(OBJ)
	$(CC) $(OPT) $(SAN) -fsanitize=fuzzer -o $@ $^ $(LIBS)
