#pragma once
/// Why a multi-node run lost machine 0, asked of the TCPStore its rank 0 hosts: a machine whose
/// ranks saw another rank's connection close (or hang) connects to the store once (a TCP
/// connection closed at once, nothing sent) to tell "machine 0 is gone" from "the network is
/// down" from "machine 0 is there, another machine is gone". POSIX, torch-free.

#include <optional>
#include <string>

namespace parity::launch {

/// "machine 0 is gone: the store at 10.231.7.1:29561 closed" when the connection is refused or
/// reset; "machine 0 cannot be reached: the store at 10.231.7.1:29561 did not answer within 2 s
/// (the network between the machines is down?)" when nothing answers in `timeout_s` (or no route
/// reaches it); nullopt when the store accepts the connection.
std::optional<std::string> main_machine_gone(const std::string& master_addr, int port,
                                             double timeout_s = 2);

}  // namespace parity::launch
