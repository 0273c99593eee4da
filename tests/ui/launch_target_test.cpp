// The window's side of Slurm batch jobs (#37): the flags Launch adds for a target, and a waiting
// job's state in the Runs table.
#include <gtest/gtest.h>
#include <parity/ui/runs/launch_target.h>
#include <parity/ui/runs/runs_model.h>

#include <QSignalSpy>

namespace parity::ui {
namespace {

TEST(LaunchTarget, ThisComputerAddsNoFlagAndSlurmPassesOnlyWhatIsGiven) {
  LaunchTarget here;
  here.partition = "gpu";  // ignored: not a Slurm target
  EXPECT_TRUE(here.cliArgs().isEmpty());
  LaunchTarget slurm;
  slurm.slurm = true;
  EXPECT_EQ(slurm.cliArgs(), (QStringList{"--launcher", "slurm", "--submit"}));
  slurm.partition = " gpu ";
  slurm.time = "1:00:00";
  slurm.account = "";
  slurm.gres = "gpu:2";
  EXPECT_EQ(slurm.cliArgs(), (QStringList{"--launcher", "slurm", "--submit", "--partition", "gpu",
                                          "--time", "1:00:00", "--gres", "gpu:2"}));
}

storage::RunRow job(storage::RunStatus status, const std::string& state) {
  storage::RunRow r;
  r.id = 7;
  r.label = "j";
  r.status = status;
  r.config_json = R"({"num_processes": 2, "per_device_batch_size": 32})";
  r.job_id = "4242";
  r.job_state = state;
  return r;
}

TEST(RunsModelJobs, AWaitingJobSaysWhyInSlurmsWordsAndItsStateChangeIsAnUpdate) {
  RunsModel model;
  model.setRuns({job(storage::RunStatus::kQueued, "PENDING (Resources)")});
  const QModelIndex status = model.index(0, RunsModel::kStatus);
  EXPECT_EQ(status.data().toString(), "PENDING (Resources)");
  EXPECT_EQ(status.data(Qt::ToolTipRole).toString(), "Slurm job 4242: PENDING (Resources)");
  EXPECT_EQ(status.data(RunsModel::kStatusRole).toString(), "queued");  // filters, tests

  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setRuns({job(storage::RunStatus::kQueued, "PENDING (Priority)")});
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(status.data().toString(), "PENDING (Priority)");
  model.setRuns({job(storage::RunStatus::kRunning, "RUNNING")});
  EXPECT_EQ(status.data().toString(), "running");
  model.setRuns({job(storage::RunStatus::kStopped, "CANCELLED")});
  EXPECT_EQ(status.data().toString(), "stopped");
}

}  // namespace
}  // namespace parity::ui
