# ChatEval — two commands for a newcomer: `make run` and `make test`.
# Every target does the set-up it needs (scripts/setup.sh: system packages, llama.cpp, the default
# model), cached under $(CHATEVAL_CACHE) and keyed by version, so the second run is fast.
SHELL := /bin/bash
export CHATEVAL_CACHE ?= $(HOME)/.cache/chateval
ENV_MK := $(CHATEVAL_CACHE)/env.mk
-include $(ENV_MK)

# What the build needs from set-up: pkg-config finds llama.pc; the rpath lets the binaries find
# libllama without LD_LIBRARY_PATH (SwiftPM drops -rpath from .pc files).
export PKG_CONFIG_PATH := $(LLAMA_PKG_CONFIG_PATH)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
export CHATEVAL_LLAMA_BUILD := $(LLAMA_BUILD)
RPATH := $(if $(LLAMA_LIBDIR),-Xlinker -rpath -Xlinker $(LLAMA_LIBDIR))
# Binaries without DWARF: 23 of chateval's 39 MB were debug sections no run reads. None is
# compiled (-debug-info-format none: 4-18% less build CPU in four paired fresh builds, README
# "A fresh start", 2026-12-01; no object of this package has a .debug section now), and
# --strip-debug still drops any that something linked in brings. Symbols stay, so Swift's
# backtracer still names every function of a crash; `make build DEBUG_INFO=1` keeps file and line
# numbers too (switching it compiles the whole tree again: the compile flags differ).
DEBUG_FORMAT := $(if $(DEBUG_INFO),,-debug-info-format none)
LINK := $(RPATH) $(if $(DEBUG_INFO),,-Xlinker --strip-debug)
# The tests find the two shipped models, llama-server and MLX (mlx_lm.server's Python and the chat model
# converted for it) here (make run takes its model from chateval.yaml).
TEST_ENV := CHATEVAL_MODEL=$(MODEL) CHATEVAL_GEMMA_MODEL=$(GEMMA_MODEL) CHATEVAL_LLAMA_SERVER=$(LLAMA_TOOLS)/llama-server \
	CHATEVAL_MLX_PYTHON=$(MLX_PYTHON) CHATEVAL_MLX_MODEL=$(MLX_MODEL)
RUN_ARGS ?= --repeat 1
# One build for run, test and bench: release, with testability. The tests' @testable imports need
# -enable-testing, and with the same flags everywhere `make test` reuses every module `make run`
# compiled instead of building the tree again in debug (README, "A fresh start").
SWIFT_FLAGS := -c release $(DEBUG_FORMAT) -Xswiftc -enable-testing $(LINK)

FUZZ_SECONDS ?= 300
# What the tests need and nothing more: the test bundle, the `chateval` binary the command-line
# tests run, and the fuzzer's smoke run (`--build-tests` would build the two benches too).
BUILD_FOR_TESTS := (for product in ChatEvalPackageTests chateval chateval-fuzz; do swift build $(SWIFT_FLAGS) --product $$product || exit 1; done)

.PHONY: all setup build run mtif test test-html bench bench-gate fuzz format format-check clean
all: run

setup:
	@bash scripts/setup.sh all

build: setup
	@$(MAKE) --no-print-directory _build
_build:
	swift build $(SWIFT_FLAGS) --product chateval

run: setup
	@$(MAKE) --no-print-directory _run
_run: _build
	.build/release/chateval run $(RUN_ARGS)

# The multi-turn instruction-following family (suites/multi-turn-if, not a default suite: about
# 300 turns) on the default model, with its HTML report (survival curve) in reports/mtif.html.
MTIF_ARGS ?= --repeat 1
mtif: setup
	@$(MAKE) --no-print-directory _mtif
_mtif: _build
	.build/release/chateval run suites/multi-turn-if $(MTIF_ARGS) --output reports/mtif.html

# The second model, llama-server, the report checkers, the Punkt model's source and MLX are set up while
# the tests compile (downloads and one C++ build beside one Swift build); their log is shown if they fail.
# The fuzzer's smoke run (30 s of its own CPU time, one thread) comes next, while set-up may still be
# building llama-server: the two share the cores, where the tests used to wait for the build and the
# fuzzer ran after them (README, "A fresh start", 2026-12-01). The tests run whatever the fuzzer
# found; `make test` then fails with the fuzzer's status.
FUZZ_SMOKE := .build/release/chateval-fuzz --seconds 30
RUN_TESTS := $(TEST_ENV) swift test $(SWIFT_FLAGS) --skip-build
test: setup
	@$(MAKE) --no-print-directory _test
_test: format-check
	@echo "[setup] the second model, llama-server, the report checkers, the Punkt model's source and MLX, beside the build (log: $(CHATEVAL_CACHE)/test-extras.log)"
	@mkdir -p $(CHATEVAL_CACHE); bash scripts/setup.sh test-extras > $(CHATEVAL_CACHE)/test-extras.log 2>&1 & extras=$$!; \
	$(BUILD_FOR_TESTS); built=$$?; fuzzed=0; \
	if [ $$built = 0 ]; then echo "$(FUZZ_SMOKE)"; $(FUZZ_SMOKE); fuzzed=$$?; fi; \
	wait $$extras || { echo "set-up for the tests failed:"; tail -n 40 $(CHATEVAL_CACHE)/test-extras.log; exit 1; }; \
	[ $$built = 0 ] || exit $$built; \
	echo "$(RUN_TESTS)"; $(RUN_TESTS) || exit $$?; \
	[ $$fuzzed = 0 ] || { echo "the tests passed, but the fuzzer's smoke run above did not (exit $$fuzzed)"; exit $$fuzzed; }

# The HTML reports opened in headless Chromium (Debian's package, installed on first use): the
# DOM checked, screenshots left in .build/report-screenshots/ to look at. (make test runs these
# too where Chromium is installed, and leaves them out where it is not.)
test-html: setup
	@bash scripts/setup.sh chromium
	@$(MAKE) --no-print-directory _test-html
_test-html:
	$(BUILD_FOR_TESTS)
	CHATEVAL_CHROMIUM=$$(command -v chromium) swift test $(SWIFT_FLAGS) --skip-build --filter BrowserTests
	@echo "screenshots: $$(pwd)/.build/report-screenshots/"

# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of every format ChatEval reads — suites,
# answers files, project files, result files, journals, the index, promptfoo configs, git notes,
# Multi-IF CSV, IFBench JSONL and bisection journals — FUZZ_SECONDS per target; any crash or input over 5 s stops it with the input saved.
# The sanitised build keeps its debug information, so that AddressSanitizer's reports name file and line.
fuzz: setup
	@$(MAKE) --no-print-directory _fuzz
_fuzz:
	@mkdir -p .build-fuzz
	@printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$$(dirname "$$(readlink -f "$$(command -v swift)")")/ld.lld" > .build-fuzz/toolset.json
	swift build -c release --scratch-path .build-fuzz --toolset .build-fuzz/toolset.json -Xswiftc -sanitize=fuzzer,address \
		-Xswiftc -DCHATEVAL_LIBFUZZER $(RPATH) --product chateval-fuzz
	swift build $(SWIFT_FLAGS) --product chateval-fuzz
	.build/release/chateval-fuzz --seeds .build-fuzz/corpus
	for target in suite answers project result journal index promptfoo notes multi-if ifbench bisect-journal; do \
		CHATEVAL_FUZZ_TARGET=$$target .build-fuzz/release/chateval-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=5 \
			-rss_limit_mb=4096 -artifact_prefix=.build-fuzz/$$target- .build-fuzz/corpus/$$target || exit 1; \
	done
# Let nothing else run meanwhile: every figure is a ratio measured side by side, but a compile on
# the same cores still drowns them.
bench: setup
	@bash scripts/setup.sh gemma-model
	@bash scripts/setup.sh llama-tools
	@$(MAKE) --no-print-directory _bench
_bench:
	swift build $(SWIFT_FLAGS) --product chateval-bench
	swift build $(SWIFT_FLAGS) --product chateval-grading-bench
	swift build $(SWIFT_FLAGS) --product chateval
	.build/release/chateval-bench throughput --llama-bench $(LLAMA_TOOLS)/llama-bench --model $(GEMMA_MODEL) --chat-template gemma
	.build/release/chateval-bench throughput --llama-bench $(LLAMA_TOOLS)/llama-bench --model $(MODEL)
	@# The harness's memory in `chateval run` itself: the bench's process above links neither
	@# libgit2 (and the 16 libraries it loads) nor the command line's code.
	.build/release/chateval run suites/smoke.yaml --model $(MODEL) --memory-attribution --reports .build/bench-reports
	.build/release/chateval-bench reuse --model $(GEMMA_MODEL) --chat-template gemma
	.build/release/chateval-bench served --llama-server $(LLAMA_TOOLS)/llama-server --model $(MODEL)
	.build/release/chateval-bench gate
	.build/release/chateval-bench history --chateval .build/release/chateval
	.build/release/chateval-grading-bench
	python3 scripts/grading-reference.py $(CHATEVAL_CACHE)/grading-reference/verdicts
	.build/release/chateval-grading-bench --agreement $(CHATEVAL_CACHE)/grading-reference/verdicts

# The gate: seeded synthetic calibration, then on the real model 20 comparisons of identical
# builds and 20 with a slower head, each a whole `chateval run --baseline` (about 20 minutes;
# BENCH_GATE_ARGS="--repetition-counts 1 3 0" for the README's fixed-count rows, --beside CMD
# with a compile as CMD for a busy runner).
bench-gate: setup
	@$(MAKE) --no-print-directory _bench-gate
_bench-gate:
	swift build $(SWIFT_FLAGS) --product chateval-bench
	swift build $(SWIFT_FLAGS) --product chateval
	.build/release/chateval-bench gate --model $(MODEL) --chateval .build/release/chateval --real-comparisons 20 $(BENCH_GATE_ARGS)

# The code as swift-format (shipped with the toolchain) writes it, with .swift-format's settings
# (140 columns, 4 spaces): make test fails on anything else; make format fixes it. swift-format
# cannot break a long string literal, so format-check also fails on any line over 140 columns
# (characters: awk counts bytes under LC_ALL=C, less the UTF-8 continuation bytes); split such a
# literal with + or a \ continuation in a multi-line one.
FORMATTED := Sources Tests Package.swift
MAX_COLUMNS := 140
format:
	swift format --in-place --recursive --parallel $(FORMATTED)
format-check:
	@rm -rf .build/format-check && mkdir -p .build/format-check && cp -r $(FORMATTED) .swift-format .build/format-check/
	@cd .build/format-check && swift format --in-place --recursive --parallel $(FORMATTED)
	@diff -r -q Sources .build/format-check/Sources && diff -r -q Tests .build/format-check/Tests \
		&& cmp -s Package.swift .build/format-check/Package.swift \
		|| { echo "the files above are not formatted as swift-format writes them: run make format"; exit 1; }
	@LC_ALL=C awk '{ line = $$0; gsub(/[\200-\277]/, "", line) } \
		length(line) > $(MAX_COLUMNS) { print FILENAME ":" FNR ": " length(line) " columns"; long = 1 } END { exit long }' \
		$$(find Sources Tests -name '*.swift' | sort) \
		|| { echo "the lines above are over $(MAX_COLUMNS) columns, which swift-format cannot shorten: split their string literals"; exit 1; }
	@python3 scripts/long-functions.py --check >/dev/null \
		|| { python3 scripts/long-functions.py; echo "a body above is over 80 lines without a reason: split it, or write // Longer than 80 lines because … above it"; exit 1; }

clean:
	rm -rf .build
