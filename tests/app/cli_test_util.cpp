#include "cli_test_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace parity::cli::testing {

namespace fs = std::filesystem;

pid_t start_cli(const std::vector<std::string>& args, const std::string& data_home,
                const std::string& out_path, const std::string& err_path,
                const std::vector<std::string>& extra_env) {
  std::vector<std::string> argv_s{PARITY_CLI};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> set = extra_env;
  set.push_back("XDG_DATA_HOME=" + data_home);
  auto replaced = [&](const std::string& entry) {
    for (const auto& s : set)
      if (entry.compare(0, s.find('=') + 1, s, 0, s.find('=') + 1) == 0) return true;
    return false;
  };
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e)
    if (!replaced(*e)) env_s.push_back(*e);
  env_s.insert(env_s.end(), set.begin(), set.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  return pid;
}

int wait_cli(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

CliResult run_cli(const std::vector<std::string>& args, const std::string& data_home,
                  const std::vector<std::string>& extra_env) {
  TempDir io;
  CliResult r;
  r.exit_code = wait_cli(start_cli(args, data_home, io.file("out"), io.file("err"), extra_env));
  r.out = read_file(io.file("out"));
  r.err = read_file(io.file("err"));
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> fake_run(const std::string& db, const std::string& label, int processes,
                                  int steps) {
  return {"run",
          "--db",
          db,
          "--worker",
          PARITY_FAKE_WORKER,
          "--label",
          label,
          "--dataset",
          "synthetic-regression",
          "--model",
          "linear",
          "--num-processes",
          std::to_string(processes),
          "--per-device-batch-size",
          "8",
          "--max-steps",
          std::to_string(steps),
          "--quiet"};
}

config::RunConfig tiny_config(const std::string& label, int processes, int64_t batch) {
  config::RunConfig c;
  c.label = label;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.init = config::Init::kZeros;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  c.synthetic_samples = 256;
  return c;
}

int64_t add_finished_run(storage::Database& db, const config::RunConfig& config, int steps,
                         double loss_scale) {
  const int64_t id =
      db.create_run(config.label, config::to_json(config), storage::RunStatus::kQueued);
  db.set_started(id, steps);
  std::vector<storage::StepRow> rows;
  const int64_t global =
      config.per_device_batch_size * config.num_processes * config.gradient_accumulation_steps;
  for (int s = 1; s <= steps; ++s) {
    storage::StepRow row;
    row.run_id = id;
    row.step = s;
    row.samples = s * global;
    row.epoch = static_cast<double>(row.samples) / 256.0;
    row.loss = loss_scale / static_cast<double>(row.samples);
    row.lr = config.lr;
    row.time_s = 0.01 * s;
    rows.push_back(row);
    for (int r = 0; r < config.num_processes; ++r) {
      row.rank = r;
      rows.push_back(row);
      row.rank = -1;
    }
  }
  db.append_steps(rows);
  storage::EvalRow eval;
  eval.run_id = id;
  eval.epoch = 1;
  eval.step = steps;
  eval.samples = steps * global;
  eval.loss = 0.5 * loss_scale;
  db.append_evals({eval});
  db.finish_run(id, storage::RunStatus::kFinished, "", 1000.0);
  return id;
}

std::vector<std::string> row_starting_with(const std::string& text, const std::string& prefix) {
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line.compare(first, prefix.size(), prefix) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream words(line);
    std::string w;
    while (words >> w) cells.push_back(w);
    return cells;
  }
  return {};
}

}  // namespace parity::cli::testing
