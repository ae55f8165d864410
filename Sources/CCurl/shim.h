#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

// `curl_easy_setopt` and `curl_easy_getinfo` are C-variadic, which Swift cannot call. These
// wrappers take one argument type each; every one returns libcurl's result code.

static inline CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The write and header callbacks' type: (bytes, 1, count, user data) -> bytes taken.
typedef size_t (*ccurl_data_callback)(char *, size_t, size_t, void *);

static inline CURLcode ccurl_set_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// The progress callback's type: (user data, download total, downloaded, upload total, uploaded) -> non-zero aborts.
typedef int (*ccurl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode ccurl_set_progress_callback(CURL *handle, ccurl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ccurl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
