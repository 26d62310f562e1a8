// libmicrohttpd (Debian libmicrohttpd-dev) for `glmap serve`. MHD_start_daemon is variadic, which
// Swift cannot call, so the daemon is started here with glmap's fixed set of options.
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Starts a daemon on an IPv4 ("127.0.0.1", "0.0.0.0") or IPv6 ("::1"; "::" listens on every
/// interface, IPv4 too where the system allows dual-stack sockets) address and a port (0: an
/// ephemeral one): one internal polling thread for every connection (epoll where the system has it),
/// connections that may be suspended while their image renders and resumed from another thread, at
/// most `connection_limit` connections, idle or slow connections closed after
/// `connection_timeout` seconds, at most `memory_limit` bytes per connection for the request line
/// and headers. NULL on failure (an address that is neither, or the socket could not be bound).
static inline struct MHD_Daemon *glmap_mhd_start(const char *address, uint16_t port,
        unsigned int connection_limit, unsigned int connection_timeout, size_t memory_limit,
        MHD_AccessHandlerCallback handler, void *handler_cls,
        MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct sockaddr_in addr;
    struct sockaddr_in6 addr6;
    struct sockaddr *bound;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    memset(&addr, 0, sizeof addr);
    memset(&addr6, 0, sizeof addr6);
    if (inet_pton(AF_INET, address, &addr.sin_addr) == 1) {
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        bound = (struct sockaddr *)&addr;
    } else if (inet_pton(AF_INET6, address, &addr6.sin6_addr) == 1) {
        addr6.sin6_family = AF_INET6;
        addr6.sin6_port = htons(port);
        bound = (struct sockaddr *)&addr6;
        flags |= IN6_IS_ADDR_UNSPECIFIED(&addr6.sin6_addr) ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    } else {
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, bound,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_END);
}

/// The port a started daemon listens on (0 if unknown).
static inline uint16_t glmap_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// A response holding a copy of `size` bytes.
static inline struct MHD_Response *glmap_mhd_response(const void *bytes, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

/// A request header's value, or NULL.
static inline const char *glmap_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}
