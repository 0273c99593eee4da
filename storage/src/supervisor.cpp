#include <parity/storage/supervisor.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <fstream>
#include <sstream>

namespace parity::storage {
namespace {

std::string read_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

bool pid_exists(int64_t pid) {
  if (pid <= 0 || pid > INT_MAX) return false;
  // EPERM: it exists but belongs to someone else.
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

struct ProcStat {
  char state = '?';        // field 3: R, S, D, Z (zombie: dead, not yet reaped), ...
  int64_t start_time = 0;  // field 22
};

ProcStat read_proc_stat(int64_t pid) {
  ProcStat st;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return st;
  // The command name (field 2) is in parentheses and may itself hold spaces and ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return st;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  fields >> st.state;
  for (int i = 4; i <= 21; ++i) fields >> field;
  long long start = 0;
  if (fields >> start) st.start_time = start;
  return st;
}

}  // namespace

int64_t process_start_time(int64_t pid) { return read_proc_stat(pid).start_time; }

SupervisorIdentity SupervisorIdentity::current() {
  SupervisorIdentity id;
  id.pid = ::getpid();
  id.host = host_name();
  id.boot_id = read_boot_id();
  id.start_time = process_start_time(id.pid);
  return id;
}

std::string SupervisorIdentity::to_text() const {
  return std::to_string(pid) + " " + std::to_string(start_time) + " " +
         (host.empty() ? "-" : host) + " " + (boot_id.empty() ? "-" : boot_id);
}

SupervisorIdentity SupervisorIdentity::parse(const std::string& text) {
  std::istringstream in(text);
  SupervisorIdentity id;
  if (!(in >> id.pid >> id.start_time >> id.host >> id.boot_id) || id.pid <= 0) return {};
  if (id.host == "-") id.host.clear();
  if (id.boot_id == "-") id.boot_id.clear();
  return id;
}

bool supervisor_gone(const SupervisorIdentity& who, double heartbeat_at, double now,
                     double stale_after_s) {
  if (who.pid <= 0) return false;
  const SupervisorIdentity self = SupervisorIdentity::current();
  if (who.host != self.host) return now - heartbeat_at > stale_after_s;
  // Same host: a different boot means the machine restarted since, and the process with it.
  if (!who.boot_id.empty() && !self.boot_id.empty() && who.boot_id != self.boot_id) return true;
  if (!pid_exists(who.pid)) return true;
  const ProcStat st = read_proc_stat(who.pid);
  if (st.state == 'Z') return true;  // killed, and its parent has not reaped it yet
  // The pid is alive: it is ours only if it started when ours did (else the pid was reused).
  return who.start_time > 0 && st.start_time > 0 && st.start_time != who.start_time;
}

}  // namespace parity::storage
