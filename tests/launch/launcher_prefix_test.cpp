// The prefixes torchrun (--tee) and srun (--label) put before their processes' lines, as each
// writes them (torchrun 1.13's "[default0]:" recorded from Debian's python3-torch; srun 22.05's
// right-aligned labels), and what the command supervisor reads behind them.

#include <gtest/gtest.h>
#include <parity/launch/command_supervisor.h>
#include <parity/launch/launcher_prefix.h>
#include <parity/test_support/temp_dir.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace parity::launch {
namespace {

using test_support::TempDir;

TEST(LauncherPrefix, TorchrunsRoleAndLocalRank) {
  LauncherLine l = strip_launcher_prefixes("[default0]:PARITY {\"step\": 1, \"loss\": 0.5}");
  EXPECT_EQ(l.text, "PARITY {\"step\": 1, \"loss\": 0.5}");
  EXPECT_EQ(l.prefixes, 1);
  EXPECT_TRUE(l.from_rank0);
  l = strip_launcher_prefixes("[default1]:PARITY {\"step\": 1, \"loss\": 0.7}");
  EXPECT_EQ(l.text, "PARITY {\"step\": 1, \"loss\": 0.7}");
  EXPECT_FALSE(l.from_rank0);
  l = strip_launcher_prefixes("[default10]:x");
  EXPECT_EQ(l.text, "x");
  EXPECT_FALSE(l.from_rank0);
}

TEST(LauncherPrefix, TorchTwosRankPrefixWithOrWithoutASpace) {
  EXPECT_TRUE(strip_launcher_prefixes("[rank0]:PARITY {}").from_rank0);
  EXPECT_EQ(strip_launcher_prefixes("[rank0]: PARITY {}").text, "PARITY {}");
  EXPECT_FALSE(strip_launcher_prefixes("[rank3]:PARITY {}").from_rank0);
  EXPECT_EQ(strip_launcher_prefixes("[trainer0]:PARITY {}").prefixes, 1);  // torchrun --role
  EXPECT_EQ(strip_launcher_prefixes("[0]:PARITY {}").prefixes, 1);
}

TEST(LauncherPrefix, SrunsLabelRightAligned) {
  LauncherLine l = strip_launcher_prefixes("0: PARITY {}");
  EXPECT_EQ(l.text, "PARITY {}");
  EXPECT_TRUE(l.from_rank0);
  l = strip_launcher_prefixes(" 0: PARITY {}");  // among 10 tasks or more
  EXPECT_EQ(l.text, "PARITY {}");
  EXPECT_TRUE(l.from_rank0);
  l = strip_launcher_prefixes("11: PARITY {}");
  EXPECT_FALSE(l.from_rank0);
  l = strip_launcher_prefixes("  7: ");
  EXPECT_EQ(l.text, "");
  EXPECT_FALSE(l.from_rank0);
  const auto label = split_srun_label(" 12: S 1 2");
  ASSERT_TRUE(label);
  EXPECT_EQ(label->first, 12);
  EXPECT_EQ(label->second, "S 1 2");
  EXPECT_FALSE(split_srun_label("S 1 2"));
}

TEST(LauncherPrefix, NestedAsSrunAroundTorchrun) {
  LauncherLine l = strip_launcher_prefixes("0: [default0]:PARITY {}");
  EXPECT_EQ(l.text, "PARITY {}");
  EXPECT_EQ(l.prefixes, 2);
  EXPECT_TRUE(l.from_rank0);
  // Task 1's local rank 0 is not rank 0.
  EXPECT_FALSE(strip_launcher_prefixes("1: [default0]:PARITY {}").from_rank0);
  EXPECT_FALSE(strip_launcher_prefixes("0: [default1]:PARITY {}").from_rank0);
}

TEST(LauncherPrefix, OtherLinesAreLeftWhole) {
  for (const std::string line :
       {"PARITY {\"step\": 1}", "[INFO]: starting", "[2024-01-01 10:00:00]: x", "12 : PARITY {}",
        "x0: PARITY {}", "0:PARITY {}", "[default0] PARITY {}", "[default0", "", "  ", "[rank]:a",
        "Epoch 0: loss 0.5"}) {
    const LauncherLine l = strip_launcher_prefixes(line);
    EXPECT_EQ(l.text, line) << line;
    EXPECT_EQ(l.prefixes, 0) << line;
    EXPECT_TRUE(l.from_rank0) << line;
  }
  // Long runs of digits or spaces neither overflow nor read far.
  EXPECT_EQ(strip_launcher_prefixes("[default99999999999999999999]:x").prefixes, 0);
  EXPECT_EQ(strip_launcher_prefixes(std::string(100, ' ') + "0: x").prefixes, 0);
}

class Recorder : public StepSink {
 public:
  void on_step(const StepRecord& r) override { steps.push_back(r); }
  void on_eval(const EvalRecord& r) override { evals.push_back(r); }
  std::vector<StepRecord> steps;
  std::vector<EvalRecord> evals;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Both ranks print every step, as torchrun --tee and srun --label pass them on: rank 0's are
// recorded, once each; the other rank's go to the log.
TEST(LauncherPrefix, TheCommandSupervisorReadsRankZerosLinesOnce) {
  TempDir dir;
  CommandOptions o;
  o.log_path = dir.file("command.log");
  o.hang_timeout_s = 60;
  const std::string script =
      "for s in 1 2 3; do"
      "  echo \"[default1]:PARITY {\\\"step\\\": $s, \\\"loss\\\": 1.$s}\";"
      "  echo \"[default0]:PARITY {\\\"step\\\": $s, \\\"loss\\\": 0.$s}\";"
      "done;"
      "echo '[default0]:PARITY {\"step\": 3, \"eval_loss\": 0.25}';"
      "echo '[default1]:PARITY {\"step\": 3, \"eval_loss\": 0.75}';"
      "echo ' 0: PARITY {\"step\": 4, \"loss\": 0.4}';"
      "echo ' 1: PARITY {\"step\": 4, \"loss\": 1.4}';"
      "echo '0: [default1]:PARITY {\"step\": 5, \"loss\": 1.5}';"
      "echo '[default1]:PARITY {bad'";
  Recorder sink;
  const CommandResult r = CommandSupervisor({"/bin/sh", "-c", script}, o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFinished) << r.message;
  ASSERT_EQ(sink.steps.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(sink.steps[i].step, static_cast<int64_t>(i + 1));
    EXPECT_DOUBLE_EQ(sink.steps[i].loss, 0.1 * static_cast<double>(i + 1));
  }
  ASSERT_EQ(sink.evals.size(), 1u);
  EXPECT_DOUBLE_EQ(sink.evals[0].loss, 0.25);
  EXPECT_EQ(r.other_rank_lines, 7);
  EXPECT_EQ(r.protocol_errors, 0);  // another rank's line is not parsed
  const std::string log = read_file(o.log_path);
  EXPECT_NE(log.find("[default1]:PARITY {\"step\": 2, \"loss\": 1.2}\n"), std::string::npos);
  EXPECT_EQ(log.find("[default0]:PARITY {\"step\": 2"), std::string::npos);  // recorded
}

TEST(LauncherPrefix, OnlyOtherRanksLinesSaySoWhenTheRunFails) {
  TempDir dir;
  CommandOptions o;
  o.log_path = dir.file("command.log");
  Recorder sink;
  const CommandResult r =
      CommandSupervisor({"/bin/sh", "-c", "echo '[default1]:PARITY {\"step\": 1, \"loss\": 1}'"}, o)
          .run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_NE(r.message.find("1 came from other ranks than 0"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace parity::launch
