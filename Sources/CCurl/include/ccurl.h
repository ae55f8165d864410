#ifndef CCURL_H
#define CCURL_H

// libcurl for the served runtime, loaded when the first request is made rather than when the
// process starts: a run against the in-process engine never loads libcurl and the 28 libraries
// it pulls in (TLS, Kerberos, LDAP, SSH, HTTP/2...), 4.1 MiB of resident code pages measured in
// the throughput bench on 2026-11-30.
//
// <curl/curl.h> gives the types and constants; no function declared there may be called from
// Swift (the executables are not linked with libcurl, so the link would fail). Call the
// `ccurl_` functions below after `ccurl_load` has succeeded.
//
// `curl_easy_setopt` and `curl_easy_getinfo` are C-variadic, which Swift cannot call: the
// `ccurl_set_` and `ccurl_get_` wrappers take one argument type each. Every function returning
// CURLcode returns libcurl's result code.

#include <curl/curl.h>
#include <stddef.h>

/// The library loaded: libcurl's soname since 7.16 (its install name on macOS).
#ifdef __APPLE__
#define CCURL_LIBRARY "libcurl.4.dylib"
#else
#define CCURL_LIBRARY "libcurl.so.4"
#endif

/// Loads libcurl and resolves every function used here, once per process (later calls return
/// the first call's result; safe from any thread). Returns NULL on success; otherwise why not
/// (dlopen's or dlsym's message, naming the library or symbol), and no other `ccurl_` function
/// may then be called.
const char *ccurl_load(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
/// Accepts NULL, as `curl_slist_free_all` does.
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_set_list(CURL *handle, CURLoption option, struct curl_slist *value);

/// The write and header callbacks' type: (bytes, 1, count, user data) -> bytes taken.
typedef size_t (*ccurl_data_callback)(char *, size_t, size_t, void *);
CURLcode ccurl_set_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);

/// The progress callback's type: (user data, download total, downloaded, upload total, uploaded) -> non-zero aborts.
typedef int (*ccurl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
CURLcode ccurl_set_progress_callback(CURL *handle, ccurl_progress_callback callback);

CURLcode ccurl_get_long(CURL *handle, CURLINFO info, long *value);

#endif
