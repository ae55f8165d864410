// libcurl loaded on first use (see ccurl.h for why). Each function pointer is resolved once, under
// pthread_once, and only read afterwards.

#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    // Variadic in libcurl, so called through variadic pointers: the arguments are passed as a
    // call to the C function itself would pass them.
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_message[512];

static int resolve(void *library, const char *name, void **slot) {
    dlerror();
    void *symbol = dlsym(library, name);
    const char *error = dlerror();
    if (error != NULL || symbol == NULL) {
        snprintf(load_message, sizeof load_message, "%s has no %s: %s", CCURL_LIBRARY, name, error ? error : "NULL");
        return -1;
    }
    *slot = symbol;
    return 0;
}

static void load(void) {
    // RTLD_LOCAL: libcurl's symbols (and its TLS libraries') stay out of the global namespace.
    void *library = dlopen(CCURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *error = dlerror();
        snprintf(load_message, sizeof load_message, "%s", error ? error : "dlopen(" CCURL_LIBRARY ") failed");
        return;
    }
    // The library stays loaded for the life of the process: handles and the global state live in it.
    if (resolve(library, "curl_global_init", (void **)&api.global_init) != 0
        || resolve(library, "curl_easy_init", (void **)&api.easy_init) != 0
        || resolve(library, "curl_easy_cleanup", (void **)&api.easy_cleanup) != 0
        || resolve(library, "curl_easy_reset", (void **)&api.easy_reset) != 0
        || resolve(library, "curl_easy_perform", (void **)&api.easy_perform) != 0
        || resolve(library, "curl_easy_strerror", (void **)&api.easy_strerror) != 0
        || resolve(library, "curl_slist_append", (void **)&api.slist_append) != 0
        || resolve(library, "curl_slist_free_all", (void **)&api.slist_free_all) != 0
        || resolve(library, "curl_easy_setopt", (void **)&api.easy_setopt) != 0
        || resolve(library, "curl_easy_getinfo", (void **)&api.easy_getinfo) != 0) {
        return;
    }
    load_status = 0;
}

const char *ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_status == 0 ? NULL : load_message;
}

CURLcode ccurl_global_init(long flags) { return api.global_init(flags); }
CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { api.easy_reset(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) { return api.slist_append(list, string); }
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_set_offset(CURL *handle, CURLoption option, curl_off_t value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) { return api.easy_setopt(handle, option, value); }

CURLcode ccurl_set_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode ccurl_set_progress_callback(CURL *handle, ccurl_progress_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ccurl_get_long(CURL *handle, CURLINFO info, long *value) { return api.easy_getinfo(handle, info, value); }
