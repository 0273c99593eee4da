#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/route_address.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

namespace parity::launch {
namespace {

// The numeric text of an IPv4 or IPv6 socket address.
std::string numeric(const sockaddr* addr) {
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw =
      addr->sa_family == AF_INET6
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr)
          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(addr)->sin_addr);
  return ::inet_ntop(addr->sa_family, raw, text, sizeof text) ? text : "";
}

}  // namespace

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
    if (std::string text = numeric(reinterpret_cast<const sockaddr*>(&local)); !text.empty()) {
      ::freeaddrinfo(found);
      return text;
    }
  }
  ::freeaddrinfo(found);
  throw LaunchError("no route from this machine to the main process at " + master_addr + ": " +
                    why);
}

std::string interface_address(const std::string& ifname) {
  ifaddrs* all = nullptr;
  if (::getifaddrs(&all) != 0)
    throw LaunchError("cannot list this machine's network interfaces: " +
                      std::string(std::strerror(errno)));
  std::string v4, v6;
  std::set<std::string> names;
  for (const ifaddrs* i = all; i; i = i->ifa_next) {
    names.insert(i->ifa_name);
    if (ifname != i->ifa_name || !i->ifa_addr) continue;
    if (i->ifa_addr->sa_family == AF_INET && v4.empty()) v4 = numeric(i->ifa_addr);
    if (i->ifa_addr->sa_family == AF_INET6 && v6.empty()) v6 = numeric(i->ifa_addr);
  }
  ::freeifaddrs(all);
  if (!v4.empty()) return v4;  // Gloo's createDeviceForInterface prefers IPv4 too
  if (!v6.empty()) return v6;
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  if (!names.count(ifname))
    throw LaunchError("no network interface " + ifname + " on this machine (it has " + known + ")");
  throw LaunchError("the network interface " + ifname + " has no address");
}

std::string gloo_binding(const std::string& master_addr, int port, const std::string& ifname,
                         const std::string& named_by) {
  std::string name = ifname, source = named_by;
  if (name.empty()) {
    if (const char* env = std::getenv(kGlooInterfaceVar); env && *env) {
      name = env;
      source = kGlooInterfaceVar;
    }
  }
  if (!name.empty()) {
    try {
      return interface_address(name) + " on interface " + name + " (" + source + ")";
    } catch (const LaunchError& e) {
      throw LaunchError(source + " " + name + ": " + e.what());
    }
  }
  return route_address(master_addr, port) + ", the address that routes to " + master_addr;
}

}  // namespace parity::launch
