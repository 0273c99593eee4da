#include "environment.h"

#include <parity/version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <thread>

#ifndef PARITY_REPORT_TORCH_VERSION
#define PARITY_REPORT_TORCH_VERSION ""
#endif

namespace parity::report {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string count_of(const config::Fact<int64_t>& fact, const char* one, const char* many) {
  if (!fact.has_value()) return std::string("? ") + many;
  return std::to_string(*fact) + " " + (*fact == 1 ? one : many);
}

}  // namespace

Environment environment_of(const std::string& database,
                           const std::vector<const stored_runs::LoadedRun*>& runs) {
  Environment env;
  env.parity_version = kVersion;
  env.torch_version = PARITY_REPORT_TORCH_VERSION;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.host = host;
  utsname u{};
  if (uname(&u) == 0) env.system = std::string(u.sysname) + " " + u.release + " " + u.machine;
  env.cpu_cores = std::thread::hardware_concurrency();
  env.made_at = utc_now();
  env.database = database;
  for (const auto* r : runs) {
    std::string text;
    try {
      const config::RunFacts facts = stored_runs::stored_facts(r->row, r->run.config);
      text = count_of(facts.num_processes, "process", "processes") + " x " +
             count_of(facts.threads_per_rank, "thread", "threads");
    } catch (const std::exception&) {
      text = "not recorded";
    }
    env.processes_and_threads.emplace_back(r->row.id, text);
  }
  return env;
}

}  // namespace parity::report
