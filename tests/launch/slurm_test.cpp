// Slurm as Parity's engine meets it: host lists, tasks per node, a task's place from its SLURM_*
// variables (as Lightning and submitit map them), and the srun line.
#include <gtest/gtest.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/slurm.h>

#include <map>
#include <stdexcept>

namespace parity::launch {
namespace {

using Vars = std::map<std::string, std::string>;

EnvLookup lookup(const Vars& vars) {
  return [&vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Slurm, HostListsExpandWithTheirPadding) {
  using V = std::vector<std::string>;
  EXPECT_EQ(expand_hostlist("gpu7"), V{"gpu7"});
  EXPECT_EQ(expand_hostlist("node[01-03,7],login"),
            (V{"node01", "node02", "node03", "node7", "login"}));
  EXPECT_EQ(expand_hostlist("a[9-10]-ib"), (V{"a9-ib", "a10-ib"}));
  EXPECT_EQ(expand_hostlist("rack1-[08-09]"), (V{"rack1-08", "rack1-09"}));
  for (const char* bad : {"", "node[", "node[3-1]", "node[a-b]", "[1-2]", "x,,y", "n[1]]"})
    EXPECT_THROW(expand_hostlist(bad), LaunchError) << bad;
}

TEST(Slurm, TasksPerNodeReadsItsRepeats) {
  EXPECT_EQ(tasks_on_node("4", 0), 4);
  EXPECT_EQ(tasks_on_node("2(x3),1", 0), 2);
  EXPECT_EQ(tasks_on_node("2(x3),1", 2), 2);
  EXPECT_EQ(tasks_on_node("2(x3),1", 3), 1);
  EXPECT_THROW(tasks_on_node("2(x3),1", 4), LaunchError);
  EXPECT_THROW(tasks_on_node("2(x", 0), LaunchError);
  EXPECT_THROW(tasks_on_node("two", 0), LaunchError);
}

TEST(Slurm, ATasksPlaceIsWhatItsVariablesSay) {
  Vars v = {{"SLURM_PROCID", "5"},
            {"SLURM_NTASKS", "8"},
            {"SLURM_LOCALID", "1"},
            {"SLURM_NODEID", "1"},
            {"SLURM_TASKS_PER_NODE", "4(x2)"},
            {"SLURM_JOB_NODELIST", "gpu[03-04]"},
            {"SLURM_JOB_ID", "123456"}};
  DistEnv e = *dist_env_from_slurm(lookup(v));
  EXPECT_EQ(e.rank, 5);
  EXPECT_EQ(e.world_size, 8);
  EXPECT_EQ(e.local_rank, 1);
  EXPECT_EQ(e.local_world_size, 4);
  EXPECT_EQ(e.master_addr, "gpu03");       // the first host: rank 0's
  EXPECT_EQ(e.master_port, 15000 + 3456);  // Lightning's default from the job id
  // The step's own list and torchrun's variables win.
  v["SLURM_STEP_NODELIST"] = "gpu04";
  v["MASTER_PORT"] = "29511";
  e = *dist_env_from_slurm(lookup(v));
  EXPECT_EQ(e.master_addr, "gpu04");
  EXPECT_EQ(e.master_port, 29511);
  v["MASTER_ADDR"] = "10.0.0.9";
  EXPECT_EQ(dist_env_from_slurm(lookup(v))->master_addr, "10.0.0.9");
}

TEST(Slurm, NotATaskOrABrokenOneIsSaidByName) {
  EXPECT_FALSE(dist_env_from_slurm(lookup({})).has_value());
  Vars v = {{"SLURM_PROCID", "0"},         {"SLURM_NTASKS", "2"},        {"SLURM_NODEID", "0"},
            {"SLURM_TASKS_PER_NODE", "2"}, {"SLURM_JOB_NODELIST", "n1"}, {"SLURM_JOB_ID", "7"}};
  try {
    dist_env_from_slurm(lookup(v));
    FAIL() << "SLURM_LOCALID is missing";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("SLURM_LOCALID"), std::string::npos) << e.what();
  }
  v["SLURM_LOCALID"] = "x1";
  EXPECT_THROW(dist_env_from_slurm(lookup(v)), std::runtime_error);
  v["SLURM_LOCALID"] = "0";
  v["SLURM_PROCID"] = "2";  // outside the 2 tasks
  EXPECT_THROW(dist_env_from_slurm(lookup(v)), std::runtime_error);
}

TEST(Slurm, TheSrunLineStartsOneLabelledTaskPerRank) {
  SrunOptions o;
  o.tasks = 4;
  o.partition = "gpu";
  o.time = "1:00:00";
  o.job_name = "parity-1";
  const std::vector<std::string> expected = {"srun",
                                             "--ntasks=4",
                                             "--label",
                                             "--kill-on-bad-exit=1",
                                             "--export=ALL",
                                             "--quiet",
                                             "--job-name=parity-1",
                                             "--partition=gpu",
                                             "--time=1:00:00",
                                             "/opt/parity-worker"};
  EXPECT_EQ(srun_argv(o, "/opt/parity-worker"), expected);
}

}  // namespace
}  // namespace parity::launch
