#include <fcntl.h>
#include <netdb.h>
#include <parity/launch/store_probe.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace parity::launch {
namespace {

enum class Answer { kAccepted, kRefused, kSilent };

// One non-blocking connect to `a`, waited for up to `deadline`.
Answer try_connect(const addrinfo* a, std::chrono::steady_clock::time_point deadline, int* error) {
  const int fd =
      ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
  if (fd < 0) {
    *error = errno;
    return Answer::kSilent;
  }
  int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
  int err = rc == 0 ? 0 : errno;
  while (err == EINPROGRESS || err == EINTR) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) < 0 && errno == EINTR) continue;
    if (p.revents == 0) continue;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    break;
  }
  ::close(fd);
  *error = err;
  if (err == 0) return Answer::kAccepted;
  return err == ECONNREFUSED || err == ECONNRESET ? Answer::kRefused : Answer::kSilent;
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

std::optional<std::string> main_machine_gone(const std::string& master_addr, int port,
                                             double timeout_s) {
  const std::string store = "the store at " + master_addr + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(master_addr.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
    return "machine 0 cannot be reached: " + store + " cannot be resolved any more";
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  Answer answer = Answer::kSilent;
  int error = ETIMEDOUT;
  for (const addrinfo* a = found; a && answer != Answer::kAccepted; a = a->ai_next) {
    const Answer got = try_connect(a, deadline, &error);
    if (got != Answer::kSilent || answer == Answer::kSilent) answer = got;
  }
  ::freeaddrinfo(found);
  if (answer == Answer::kAccepted) return std::nullopt;
  if (answer == Answer::kRefused) return "machine 0 is gone: " + store + " closed";
  const std::string why = error == ETIMEDOUT || error == EINPROGRESS
                              ? "did not answer within " + format_seconds(timeout_s) + " s"
                              : std::string("is unreachable (") + std::strerror(error) + ")";
  return "machine 0 cannot be reached: " + store + " " + why +
         " (the network between the machines is down?)";
}

}  // namespace parity::launch
