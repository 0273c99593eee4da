#pragma once
/// Which of this machine's addresses a multi-node rank binds Gloo to and advertises to the
/// others. The address the host name resolves to is no answer: on an ordinary host it is
/// 127.0.0.1 (or Debian's 127.0.1.1), and a rank on another machine told to connect there is
/// refused. The answer is the local address of the route to the master (a UDP socket connected
/// to it, which sends nothing, says which); PyTorch's GLOO_SOCKET_IFNAME names an interface
/// instead. POSIX, torch-free.

#include <string>

namespace parity::launch {

/// The numeric local address ("10.231.7.2", "fd00::2") of the route to `master_addr` (a name or
/// an address) and `port`. Throws LaunchError naming the master when it cannot be resolved or no
/// route reaches it.
std::string route_address(const std::string& master_addr, int port);

/// The environment variable that names a network interface for Gloo, as PyTorch reads it.
inline constexpr const char* kGlooInterfaceVar = "GLOO_SOCKET_IFNAME";

/// The address Gloo binds to on the interface `ifname` (as createDeviceForInterface: its first
/// IPv4 address, else IPv6). Throws LaunchError when there is no such interface (naming those
/// there are) or it has no address.
std::string interface_address(const std::string& ifname);

/// What a multi-node rank on this machine binds to, in words, for the launcher to print:
/// "10.231.7.2 on interface eth1 (--network-interface)" when `ifname` is given (`named_by` says
/// by whom), else GLOO_SOCKET_IFNAME's interface, else "10.231.7.2, the address that routes to
/// 10.231.7.1". Throws LaunchError as route_address() and interface_address() do, naming what
/// chose the interface.
std::string gloo_binding(const std::string& master_addr, int port, const std::string& ifname = "",
                         const std::string& named_by = "");

}  // namespace parity::launch
