// A fatal signal inside the inference engine, named for the person who sees it.
//
// llama.cpp runs in ChatEval's process: an engine built for instructions the CPU lacks dies with
// SIGILL, a bad kernel with SIGSEGV, a failed GGML_ASSERT with SIGABRT. The handler installed here
// writes one plain message — which engine, which signal, what the run was doing, where its
// finished turns are kept — and ends the process by the same signal (status 128 + signal).
// A signal that is not the engine's (ChatEval's own traps) goes to the handler that was there
// before, Swift's backtracer, untouched.
//
// Only async-signal-safe work happens in the handler: the texts it writes are copied into fixed
// buffers beforehand, and it calls write, sigaction, raise and syscall only.
#ifndef CHATEVAL_ENGINE_CRASH_H
#define CHATEVAL_ENGINE_CRASH_H

#include <stddef.h>

/// Installs the handlers for SIGILL, SIGSEGV, SIGBUS, SIGFPE and SIGABRT (once; later calls only
/// replace the engine's description) and notes where the engine's libraries (names containing
/// one of `library_names`, separated by ':') are mapped. `engine` is printed as it is (lines).
/// `chain_backtrace`: after the message, hand the signal to the previous handler (a native
/// backtrace) instead of ending the process at once.
void chateval_crash_install(const char *engine, const char *library_names, int chain_backtrace);

/// What the run is doing, e.g. "suite smoke, conversation greet, turn 2 (repetition 1)".
void chateval_crash_set_activity(const char *activity);

/// Where the finished turns are kept and how to get them back; empty when nothing is recorded.
void chateval_crash_set_recovery(const char *recovery);

/// The command has finished and earned exit `status` (its results written, its verdict known):
/// an engine crash from now on (freeing the engine, destructors at exit) still prints its message,
/// then ends the process with `status` instead of the signal. -1 undoes it.
void chateval_crash_set_finished(int status);

/// Marks an engine call in progress on this thread (calls nest). A fatal signal on this thread
/// meanwhile, or SIGABRT on any thread (ggml aborts from its workers), is the engine's, wherever
/// the faulting instruction lies; otherwise only an instruction inside the engine's libraries is.
void chateval_crash_engine_enter(void);
void chateval_crash_engine_leave(void);

/// The path of the first loaded library whose name contains `name` (e.g. "libllama.so"), copied
/// into `buffer`; returns 0, or -1 when none is loaded or it does not fit.
int chateval_crash_loaded_library(const char *name, char *buffer, size_t size);

#endif
