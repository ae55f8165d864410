// See engine_crash.h. Written in C because a signal handler may only do async-signal-safe work:
// Swift code may allocate, retain or take locks at any call, which a handler must never do.
#define _GNU_SOURCE
#include "engine_crash.h"

#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define TEXT_SIZE 2048
#define MAX_RANGES 64
#define MAX_NAMES 8

static const int handled_signals[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
#define SIGNAL_COUNT (sizeof handled_signals / sizeof handled_signals[0])
static struct sigaction previous_actions[SIGNAL_COUNT];

// Texts the handler writes. Each has two slots: a writer fills the slot not in use and then
// publishes it, so a signal arriving mid-update reads a whole text, the old or the new.
typedef struct {
    char slots[2][TEXT_SIZE];
    atomic_int current;
} shared_text;
static shared_text engine_text, activity_text, recovery_text;

static void set_text(shared_text *text, const char *value) {
    int next = 1 - atomic_load(&text->current);
    size_t length = value ? strlen(value) : 0;
    if (length >= TEXT_SIZE) length = TEXT_SIZE - 1;
    if (length) memcpy(text->slots[next], value, length);
    text->slots[next][length] = 0;
    atomic_store(&text->current, next);
}

static const char *get_text(shared_text *text) { return text->slots[atomic_load(&text->current)]; }

// Where the engine's code is mapped: [start, end) of each executable segment.
static struct { uintptr_t start, end; } ranges[MAX_RANGES];
static atomic_int range_count;
static char library_names[MAX_NAMES][64];
static int name_count;

static atomic_int engine_depth;
static atomic_long engine_thread;
static atomic_int installed;
static int chain_to_previous;
// The exit status the command earned once it is known (-1 before): an engine crash after it
// (freeing the engine, the libraries' destructors at exit) ends the process with it.
static atomic_int finished_status = -1;

static int names_match(const char *path) {
    for (int i = 0; i < name_count; i++)
        if (strstr(path, library_names[i])) return 1;
    return 0;
}

static int note_ranges(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    if (!info->dlpi_name || !names_match(info->dlpi_name)) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
        int index = atomic_load(&range_count);
        if (index >= MAX_RANGES) return 1;
        ranges[index].start = info->dlpi_addr + segment->p_vaddr;
        ranges[index].end = ranges[index].start + segment->p_memsz;
        atomic_store(&range_count, index + 1);
    }
    return 0;
}

static uintptr_t faulting_instruction(void *context) {
    ucontext_t *machine = context;
    if (!machine) return 0;
#if defined(__x86_64__)
    return (uintptr_t)machine->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)machine->uc_mcontext.pc;
#else
    return 0;
#endif
}

static int inside_engine(uintptr_t address) {
    int count = atomic_load(&range_count);
    for (int i = 0; i < count; i++)
        if (address >= ranges[i].start && address < ranges[i].end) return 1;
    return 0;
}

static void put(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void put_number(long value) {
    char digits[24];
    int at = sizeof digits - 1;
    digits[at] = 0;
    do {
        digits[--at] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && at > 0);
    put(digits + at);
}

static const char *signal_name(int signal) {
    switch (signal) {
        case SIGILL: return "SIGILL (illegal instruction)";
        case SIGSEGV: return "SIGSEGV (invalid memory access)";
        case SIGBUS: return "SIGBUS (bus error)";
        case SIGFPE: return "SIGFPE (arithmetic exception)";
        case SIGABRT: return "SIGABRT (the engine aborted)";
        default: return "a fatal signal";
    }
}

// Restores the handler that was there before ours (or the default) for `signal`.
static void restore(int signal, int to_default) {
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        if (handled_signals[i] != signal) continue;
        if (to_default) {
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_handler = SIG_DFL;
            sigemptyset(&action.sa_mask);
            sigaction(signal, &action, NULL);
        } else {
            sigaction(signal, &previous_actions[i], NULL);
        }
    }
}

// Hands `signal` to the handler that was there before ours, so that it sees it as if we were not
// here, and makes sure the process ends by it. A fault the kernel raised happens again when this
// returns, now into the previous handler. A signal sent by raise, abort or kill does not: the
// previous handler is called here (Swift's backtracer returns from a sent signal, and the
// program would go on), and then the default action ends the process.
static void hand_on(int signal, siginfo_t *info, void *context) {
    if (info && info->si_code > 0) {
        restore(signal, 0);
        return;
    }
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        if (handled_signals[i] != signal) continue;
        struct sigaction *previous = &previous_actions[i];
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction)
            previous->sa_sigaction(signal, info, context);
        else if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN)
            previous->sa_handler(signal);
    }
    restore(signal, 1);
    raise(signal);  // blocked while this handler runs: delivered, by the default action, when it returns
}

static void on_fatal_signal(int signal, siginfo_t *info, void *context) {
    long thread = syscall(SYS_gettid);
    int in_call = atomic_load(&engine_depth) > 0;
    int engine = inside_engine(faulting_instruction(context))
                 || (in_call && (thread == atomic_load(&engine_thread) || signal == SIGABRT));
    if (!engine) {
        hand_on(signal, info, context);  // not the engine's: Swift's backtracer reports it, as before
        return;
    }
    put("\nchateval: the inference engine crashed: ");
    put(signal_name(signal));
    put(" inside llama.cpp\n");
    put(get_text(&engine_text));
    const char *activity = get_text(&activity_text);
    if (*activity) {
        put("  during      ");
        put(activity);
        put("\n");
    }
    const char *recovery = get_text(&recovery_text);
    if (*recovery) {
        put("  kept        ");
        put(recovery);
        put("\n");
    }
    if (signal == SIGILL)
        put("  likely      an instruction this CPU lacks or refuses: an engine built for another CPU, or a fault\n"
            "              in llama.cpp's kernels for this one; `bash scripts/setup.sh engine-check` runs the\n"
            "              engine alone, and CHATEVAL_LLAMA_NATIVE=OFF make setup builds it without this CPU's extensions\n");
    int finished = atomic_load(&finished_status);
    if (finished >= 0 && !chain_to_previous) {
        // The command had finished: what it measured and decided stands, and so does its exit.
        put("  exit        the command had finished: the process ends with the exit status it earned (");
        put_number(finished);
        put("), not the signal; CHATEVAL_ENGINE_BACKTRACE=1 adds the native backtrace\n");
        _exit(finished);
    }
    put("  exit        the process ends by this signal (status ");
    put_number(128 + signal);
    put(chain_to_previous ? "); the native backtrace follows\n"
                          : "); CHATEVAL_ENGINE_BACKTRACE=1 adds the native backtrace\n");
    if (chain_to_previous) {
        hand_on(signal, info, context);
        return;
    }
    restore(signal, 1);
    raise(signal);  // blocked while this handler runs: delivered, by the default action, when it returns
}

void chateval_crash_install(const char *engine, const char *library_list, int chain_backtrace) {
    set_text(&engine_text, engine);
    int expected = 0;
    if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return;
    chain_to_previous = chain_backtrace;
    name_count = 0;
    const char *at = library_list ? library_list : "";
    while (*at && name_count < MAX_NAMES) {
        const char *end = strchr(at, ':');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (length > 0 && length < sizeof library_names[0]) {
            memcpy(library_names[name_count], at, length);
            library_names[name_count][length] = 0;
            name_count++;
        }
        at += length + (end ? 1 : 0);
    }
    dl_iterate_phdr(note_ranges, NULL);
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(handled_signals[i], &action, &previous_actions[i]);
    }
}

void chateval_crash_set_activity(const char *activity) { set_text(&activity_text, activity); }

void chateval_crash_set_recovery(const char *recovery) { set_text(&recovery_text, recovery); }

void chateval_crash_set_finished(int status) { atomic_store(&finished_status, status); }

void chateval_crash_engine_enter(void) {
    // Called around every llama_decode (once a token): the thread's id is asked of the kernel once.
    static _Thread_local long this_thread;
    if (!this_thread) this_thread = syscall(SYS_gettid);
    atomic_store(&engine_thread, this_thread);
    atomic_fetch_add(&engine_depth, 1);
}

void chateval_crash_engine_leave(void) { atomic_fetch_sub(&engine_depth, 1); }

typedef struct {
    const char *name;
    char *buffer;
    size_t size;
    int found;
} library_search;

static int find_library(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    library_search *search = data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, search->name)) return 0;
    size_t length = strlen(info->dlpi_name);
    if (length + 1 > search->size) return 1;
    memcpy(search->buffer, info->dlpi_name, length + 1);
    search->found = 1;
    return 1;
}

int chateval_crash_loaded_library(const char *name, char *buffer, size_t size) {
    library_search search = {name, buffer, size, 0};
    dl_iterate_phdr(find_library, &search);
    return search.found ? 0 : -1;
}
