// libcurl (Debian libcurl4-openssl-dev): glmap's HTTP client (ResourceLoader). curl_easy_setopt
// and curl_easy_getinfo are variadic, which Swift cannot call, so each argument type glmap passes
// has a typed wrapper here.
#include <curl/curl.h>

/// curl_easy_setopt with a long argument.
static inline CURLcode glmap_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

/// curl_easy_setopt with a string argument (copied by libcurl).
static inline CURLcode glmap_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

/// curl_easy_setopt with a pointer argument (user data, a header list).
static inline CURLcode glmap_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

/// The callbacks glmap installs: body and header data.
typedef size_t (*glmap_curl_write_callback)(char *data, size_t size, size_t count, void *user);

/// curl_easy_setopt with a write or header callback.
static inline CURLcode glmap_curl_set_callback(CURL *curl, CURLoption option, glmap_curl_write_callback value) {
    return curl_easy_setopt(curl, option, value);
}

/// curl_easy_getinfo for a long (e.g. CURLINFO_RESPONSE_CODE); 0 on failure.
static inline long glmap_curl_info_long(CURL *curl, CURLINFO info) {
    long value = 0;
    if (curl_easy_getinfo(curl, info, &value) != CURLE_OK) return 0;
    return value;
}
