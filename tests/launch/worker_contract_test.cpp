// The worker contract both ways: what the supervisor formats is what a worker parses back, under
// the names torchrun uses (spelled out here on purpose: they are an outside contract).
#include <gtest/gtest.h>
#include <parity/launch/worker_contract.h>
#include <stdlib.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parity::launch {
namespace {

const std::vector<std::string> kAllNames = {
    "RANK",           "WORLD_SIZE",      "LOCAL_RANK",           "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",    "MASTER_PORT",     "PARITY_CONFIG",        "PARITY_STATUS_FD",
    "PARITY_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
    "PARITY_STORE"};

// Clears every contract variable, sets `vars`, and puts the old environment back on destruction.
class ScopedEnv {
 public:
  explicit ScopedEnv(const EnvVars& vars) {
    for (const auto& name : kAllNames) {
      const char* v = ::getenv(name.c_str());
      saved_[name] = v ? std::optional<std::string>(v) : std::nullopt;
      ::unsetenv(name.c_str());
    }
    for (const auto& [name, value] : vars) ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value)
        ::setenv(name.c_str(), value->c_str(), 1);
      else
        ::unsetenv(name.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

std::string what_of(void (*f)()) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

DistEnv sample_env() {
  DistEnv e;
  e.rank = 3;
  e.world_size = 4;
  e.local_rank = 1;
  e.local_world_size = 2;
  e.master_addr = "10.1.2.3";
  e.master_port = 29555;
  e.store_path = "/tmp/parity-run-x/store";
  e.threads = 5;
  return e;
}

TEST(WorkerContract, SupervisorWritesTorchrunsNames) {
  std::vector<std::string> names;
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : to_environment(sample_env(), "/tmp/c.json", 3)) {
    names.push_back(name);
    values[name] = value;
  }
  EXPECT_EQ(names, kAllNames);
  EXPECT_EQ(values["RANK"], "3");
  EXPECT_EQ(values["WORLD_SIZE"], "4");
  EXPECT_EQ(values["LOCAL_RANK"], "1");
  EXPECT_EQ(values["LOCAL_WORLD_SIZE"], "2");
  EXPECT_EQ(values["MASTER_ADDR"], "10.1.2.3");
  EXPECT_EQ(values["MASTER_PORT"], "29555");
  EXPECT_EQ(values["PARITY_CONFIG"], "/tmp/c.json");
  EXPECT_EQ(values["PARITY_STATUS_FD"], "3");
  for (const char* threads :
       {"PARITY_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"})
    EXPECT_EQ(values[threads], "5") << threads;
  EXPECT_EQ(values["PARITY_STORE"], "/tmp/parity-run-x/store");
}

TEST(WorkerContract, NoStoreAndNoThreadsLeaveTheirVariablesOut) {
  DistEnv e = sample_env();
  e.store_path.clear();
  e.threads = 0;
  for (const auto& [name, value] : to_environment(e, "/tmp/c.json", 3)) {
    EXPECT_NE(name, "PARITY_STORE");
    EXPECT_NE(name, "PARITY_THREADS");
    EXPECT_NE(name, "OMP_NUM_THREADS");
  }
}

TEST(WorkerContract, WorkerReadsBackWhatTheSupervisorWrote) {
  const DistEnv sent = sample_env();
  ScopedEnv scope(to_environment(sent, "/tmp/c.json", 7));
  const DistEnv got = DistEnv::from_environment();
  EXPECT_EQ(got.rank, sent.rank);
  EXPECT_EQ(got.world_size, sent.world_size);
  EXPECT_EQ(got.local_rank, sent.local_rank);
  EXPECT_EQ(got.local_world_size, sent.local_world_size);
  EXPECT_EQ(got.master_addr, sent.master_addr);
  EXPECT_EQ(got.master_port, sent.master_port);
  EXPECT_EQ(got.store_path, sent.store_path);
  EXPECT_EQ(got.threads, sent.threads);
  EXPECT_EQ(config_path_from_environment(), "/tmp/c.json");
  EXPECT_EQ(status_fd_from_environment(), 7);
}

TEST(WorkerContract, WorkerDefaultsFollowTorchrun) {
  ScopedEnv scope(EnvVars{{"RANK", "1"}, {"WORLD_SIZE", "2"}});
  const DistEnv got = DistEnv::from_environment();
  EXPECT_EQ(got.local_rank, 1);
  EXPECT_EQ(got.local_world_size, 2);
  EXPECT_EQ(got.master_addr, "127.0.0.1");
  EXPECT_EQ(got.master_port, 29500);
  EXPECT_TRUE(got.store_path.empty());
  EXPECT_EQ(got.threads, 0);
  EXPECT_EQ(status_fd_from_environment(), -1);
}

TEST(WorkerContract, MissingOrMalformedVariablesAreNamed) {
  {
    ScopedEnv scope(EnvVars{{"WORLD_SIZE", "2"}});
    EXPECT_EQ(what_of([] { DistEnv::from_environment(); }), "environment variable RANK is not set");
    EXPECT_EQ(what_of([] { config_path_from_environment(); }), "PARITY_CONFIG is not set");
  }
  {
    ScopedEnv scope(EnvVars{{"RANK", "one"}, {"WORLD_SIZE", "2"}});
    EXPECT_EQ(what_of([] { DistEnv::from_environment(); }),
              "environment variable RANK='one' is not an integer");
  }
  {
    ScopedEnv scope(EnvVars{{"RANK", "2"}, {"WORLD_SIZE", "2"}});
    EXPECT_EQ(what_of([] { DistEnv::from_environment(); }), "RANK=2 is outside WORLD_SIZE=2");
  }
}

// PARITY_TRANSPORT (a user's choice, not the supervisor's): unset is kAuto, gloo and shm are read,
// anything else is refused by name.
TEST(WorkerContract, TheGradientTransportIsReadFromParityTransport) {
  ScopedEnv env({{"RANK", "0"}, {"WORLD_SIZE", "2"}});
  const char* saved = ::getenv("PARITY_TRANSPORT");
  const std::optional<std::string> old = saved ? std::optional<std::string>(saved) : std::nullopt;
  ::unsetenv("PARITY_TRANSPORT");
  EXPECT_EQ(DistEnv::from_environment().transport, TransportKind::kAuto);
  ::setenv("PARITY_TRANSPORT", "gloo", 1);
  EXPECT_EQ(DistEnv::from_environment().transport, TransportKind::kGloo);
  ::setenv("PARITY_TRANSPORT", "shm", 1);
  EXPECT_EQ(DistEnv::from_environment().transport, TransportKind::kShm);
  ::setenv("PARITY_TRANSPORT", "tcp", 1);
  EXPECT_EQ(what_of([] { DistEnv::from_environment(); }),
            "PARITY_TRANSPORT='tcp' is not gloo or shm");
  if (old) {
    ::setenv("PARITY_TRANSPORT", old->c_str(), 1);
  } else {
    ::unsetenv("PARITY_TRANSPORT");
  }
}

}  // namespace
}  // namespace parity::launch
