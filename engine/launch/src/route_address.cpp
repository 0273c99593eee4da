#include <arpa/inet.h>
#include <netdb.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/route_address.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace parity::launch {

std::string route_address(const std::string& master_addr, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port > 0 ? port : 29500);
  if (const int rc = ::getaddrinfo(master_addr.c_str(), service.c_str(), &hints, &found); rc != 0)
    throw LaunchError("cannot resolve the main process's address " + master_addr + ": " +
                      ::gai_strerror(rc));
  std::string why = "no address of it";
  for (addrinfo* a = found; a; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    // connect() on a UDP socket only picks the route and the local address: nothing is sent.
    const bool routed = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0 &&
                        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0;
    if (!routed) why = std::strerror(errno);
    ::close(fd);
    if (!routed) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw =
        local.ss_family == AF_INET6
            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr)
            : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&local)->sin_addr);
    if (::inet_ntop(local.ss_family, raw, text, sizeof text)) {
      ::freeaddrinfo(found);
      return text;
    }
  }
  ::freeaddrinfo(found);
  throw LaunchError("no route from this machine to the main process at " + master_addr + ": " +
                    why);
}

std::string gloo_binding(const std::string& master_addr, int port) {
  if (const char* ifname = std::getenv(kGlooInterfaceVar); ifname && *ifname)
    return std::string("interface ") + ifname + " (" + kGlooInterfaceVar + ")";
  return route_address(master_addr, port) + ", the address that routes to " + master_addr;
}

}  // namespace parity::launch
