// The llama.cpp C API, as installed (pkg-config `llama`). Nothing is added here: every
// function ChatEval calls is importable as is.
#include <llama.h>
