#include <parity/launch/launch_error.h>
#include <parity/launch/slurm.h>

#include <cstdlib>
#include <stdexcept>

namespace parity::launch {
namespace {

// A whole non-negative decimal number, or nullopt.
std::optional<long> whole(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stol(s);
}

// Splits at the commas outside brackets.
std::vector<std::string> split_top(const std::string& list) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// "prefix[01-03,7]suffix" -> prefix01suffix, ...; a part without brackets is itself.
void expand_part(const std::string& part, const std::string& list, std::vector<std::string>& out) {
  const auto bad = [&] { return LaunchError("malformed Slurm host list '" + list + "'"); };
  const auto open = part.find('[');
  if (open == std::string::npos) {
    if (part.empty() || part.find(']') != std::string::npos) throw bad();
    out.push_back(part);
    return;
  }
  const auto close = part.find(']', open);
  if (open == 0 || close == std::string::npos) throw bad();
  const std::string prefix = part.substr(0, open), suffix = part.substr(close + 1);
  if (suffix.find_first_of("[]") != std::string::npos) throw bad();
  for (const std::string& range : split_top(part.substr(open + 1, close - open - 1))) {
    const auto dash = range.find('-');
    const std::string lo = range.substr(0, dash);
    const std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
    const auto a = whole(lo), b = whole(hi);
    if (!a || !b || *a > *b || *b - *a > 100000) throw bad();
    for (long n = *a; n <= *b; ++n) {
      std::string digits = std::to_string(n);
      if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');
      out.push_back(prefix + digits + suffix);
    }
  }
}

const char* need(const EnvLookup& get, const char* name) {
  const char* v = get(name);
  if (!v || !*v)
    throw std::runtime_error(std::string("environment variable ") + name +
                             " is not set (srun sets it for every task)");
  return v;
}

int need_int(const EnvLookup& get, const char* name) {
  const char* v = need(get, name);
  const auto n = whole(v);
  if (!n)
    throw std::runtime_error(std::string("environment variable ") + name + "='" + v +
                             "' is not a whole number");
  return static_cast<int>(*n);
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& list) {
  std::vector<std::string> hosts;
  for (const std::string& part : split_top(list)) expand_part(part, list, hosts);
  return hosts;
}

int tasks_on_node(const std::string& tasks_per_node, int node_id) {
  const auto bad = [&] {
    return LaunchError("malformed SLURM_TASKS_PER_NODE '" + tasks_per_node + "'");
  };
  int node = 0;
  for (const std::string& item : split_top(tasks_per_node)) {
    const auto paren = item.find("(x");
    const auto count = whole(item.substr(0, paren));
    long repeat = 1;
    if (paren != std::string::npos) {
      if (item.back() != ')') throw bad();
      const auto r = whole(item.substr(paren + 2, item.size() - paren - 3));
      if (!r) throw bad();
      repeat = *r;
    }
    if (!count) throw bad();
    if (node_id < node + repeat) return static_cast<int>(*count);
    node += static_cast<int>(repeat);
  }
  throw LaunchError("SLURM_TASKS_PER_NODE '" + tasks_per_node + "' has no node " +
                    std::to_string(node_id));
}

std::optional<DistEnv> dist_env_from_slurm(const EnvLookup& get) {
  const char* procid = get("SLURM_PROCID");
  if (!procid || !*procid) return std::nullopt;
  DistEnv e;
  e.rank = need_int(get, "SLURM_PROCID");
  e.world_size = need_int(get, "SLURM_NTASKS");
  e.local_rank = need_int(get, "SLURM_LOCALID");
  const int node = need_int(get, "SLURM_NODEID");
  if (const char* per = get("SLURM_STEP_TASKS_PER_NODE"); per && *per) {
    e.local_world_size = tasks_on_node(per, node);
  } else {
    e.local_world_size = tasks_on_node(need(get, "SLURM_TASKS_PER_NODE"), node);
  }
  if (const char* addr = get(kEnvMasterAddr); addr && *addr) {
    e.master_addr = addr;
  } else {
    const char* nodes = get("SLURM_STEP_NODELIST");
    if (!nodes || !*nodes) nodes = need(get, "SLURM_JOB_NODELIST");
    e.master_addr = expand_hostlist(nodes).front();
  }
  if (const char* port = get(kEnvMasterPort); port && *port) {
    e.master_port = need_int(get, kEnvMasterPort);
  } else {
    const std::string job = need(get, "SLURM_JOB_ID");
    const auto tail = whole(job.substr(job.size() > 4 ? job.size() - 4 : 0));
    if (!tail)
      throw std::runtime_error("environment variable SLURM_JOB_ID='" + job +
                               "' is not a whole number");
    e.master_port = 15000 + static_cast<int>(*tail);
  }
  if (e.world_size < 1 || e.rank >= e.world_size || e.local_rank >= e.local_world_size)
    throw std::runtime_error("SLURM_PROCID=" + std::to_string(e.rank) +
                             " / SLURM_LOCALID=" + std::to_string(e.local_rank) +
                             " is outside SLURM_NTASKS=" + std::to_string(e.world_size) + " / " +
                             std::to_string(e.local_world_size) + " tasks on the node");
  return e;
}

std::vector<std::string> srun_argv(const SrunOptions& o, const std::string& worker) {
  std::vector<std::string> argv = {o.srun,         "--ntasks=" + std::to_string(o.tasks),
                                   "--label",      "--kill-on-bad-exit=1",
                                   "--export=ALL", "--quiet"};
  if (!o.job_name.empty()) argv.push_back("--job-name=" + o.job_name);
  if (!o.partition.empty()) argv.push_back("--partition=" + o.partition);
  if (!o.time.empty()) argv.push_back("--time=" + o.time);
  argv.push_back(worker);
  return argv;
}

}  // namespace parity::launch
