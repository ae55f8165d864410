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
export CHATEVAL_MODEL := $(MODEL)
export CHATEVAL_LLAMA_BUILD := $(LLAMA_BUILD)
LINK := $(if $(LLAMA_LIBDIR),-Xlinker -rpath -Xlinker $(LLAMA_LIBDIR))
TEMPLATE ?= gemma
SUITES ?= suites
RUN_ARGS ?=

.PHONY: all setup build run test bench clean
all: run

setup:
	@bash scripts/setup.sh all

build: setup
	@$(MAKE) --no-print-directory _build
_build:
	swift build -c release $(LINK) --product chateval

run: setup
	@$(MAKE) --no-print-directory _run
_run: _build
	.build/release/chateval run $(SUITES) --chat-template $(TEMPLATE) $(RUN_ARGS)

test: setup
	@$(MAKE) --no-print-directory _test
_test:
	swift build --build-tests $(LINK)
	swift test --skip-build $(LINK)

bench: setup
	@bash scripts/setup.sh llama-tools
	@$(MAKE) --no-print-directory _bench
_bench:
	swift build -c release $(LINK) --product chateval-bench
	swift build -c release $(LINK) --product chateval-grading-bench
	.build/release/chateval-bench --llama-bench $(LLAMA_TOOLS)/llama-bench --model $(MODEL) --chat-template $(TEMPLATE)
	.build/release/chateval-grading-bench
	python3 scripts/grading-reference.py $(CHATEVAL_CACHE)/grading-reference/verdicts
	.build/release/chateval-grading-bench --agreement $(CHATEVAL_CACHE)/grading-reference/verdicts

clean:
	rm -rf .build
