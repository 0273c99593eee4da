// A run's steps file, as a batch job writes it and a follower reads it while it grows: every
// record round-trips exactly, a line cut short is left for the next read, and a reader polling
// while the writer appends gets every record once, in order.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/slurm_job.h>
#include <parity/launch/steps_file.h>
#include <parity/test_support/temp_dir.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <thread>

namespace parity::launch {
namespace {

using test_support::TempDir;

void append_raw(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << text;
}

StepRecord step(int64_t n, double loss) {
  StepRecord s;
  s.step = n;
  s.epoch = 0.1 * static_cast<double>(n);
  s.samples = 32 * n;
  s.loss = loss;
  s.lr = 0.05;
  s.time_s = 1.0 / 3.0;
  s.rank_losses = {loss * 0.9, loss * 1.1};
  return s;
}

TEST(StepsFile, EveryRecordRoundTripsExactly) {
  RunStart start;
  start.total_steps = 12;
  start.train_samples = 6400;
  start.effective_lr = 0.1;
  const StepRecord s = step(3, 0.1 + 0.2);
  EvalRecord e;
  e.epoch = 1;
  e.step = 3;
  e.loss = 1.0 / 7.0;
  e.accuracy = 0.5;
  RunEnd end;
  end.outcome = RunOutcome::kStopped;
  end.message = "stopped: the job was signalled\n(twice)";
  end.samples_per_s = 1234.5;
  for (const StepsFileEntry& entry :
       {StepsFileEntry(start), StepsFileEntry(s), StepsFileEntry(e), StepsFileEntry(end),
        StepsFileEntry(StepsFileNote{"the command logged seed 1, the setup says 42"}),
        StepsFileEntry(StepsFileCommand{"python3 'a b.py' --x \"y\"\n"})}) {
    const std::string line = encode_steps_line(entry);
    ASSERT_EQ(line.find('\n'), line.size() - 1) << line;  // one line
    const auto back = decode_steps_line(line);
    ASSERT_TRUE(back) << line;
    EXPECT_EQ(back->index(), entry.index()) << line;
  }
  const auto back = decode_steps_line(encode_steps_line(s));
  const StepRecord& r = std::get<StepRecord>(*back);
  EXPECT_EQ(r.loss, s.loss);  // bit for bit
  EXPECT_EQ(r.time_s, s.time_s);
  EXPECT_EQ(r.rank_losses, s.rank_losses);
  const auto nan = decode_steps_line(encode_steps_line(step(4, std::nan(""))));
  EXPECT_TRUE(std::isnan(std::get<StepRecord>(*nan).loss));
  EXPECT_EQ(std::get<RunEnd>(*decode_steps_line(encode_steps_line(end))).message, end.message);
  EXPECT_EQ(
      std::get<StepsFileCommand>(*decode_steps_line(encode_steps_line(StepsFileCommand{"a\n'b'"})))
          .text,
      "a\n'b'");
  EXPECT_FALSE(decode_steps_line("H 0 3"));  // a heartbeat is no record of the run
  EXPECT_FALSE(decode_steps_line("N not json"));
  EXPECT_FALSE(decode_steps_line("Z 1"));
}

TEST(StepsFile, ALineCutShortIsLeftForTheNextRead) {
  TempDir dir;
  const std::string path = dir.file("steps");
  StepsFileReader reader(path);
  EXPECT_TRUE(reader.poll().empty());  // not there yet: the job has not started
  EXPECT_FALSE(reader.exists());
  const std::string one = encode_steps_line(step(1, 0.5));
  const std::string two = encode_steps_line(step(2, 0.25));
  append_raw(path, one + two.substr(0, 7));
  auto got = reader.poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<StepRecord>(got[0]).step, 1);
  EXPECT_EQ(reader.offset(), static_cast<int64_t>(one.size()));
  EXPECT_TRUE(reader.poll().empty());  // still cut short
  append_raw(path, two.substr(7, 5));
  EXPECT_TRUE(reader.poll().empty());
  append_raw(path, two.substr(12) + "garbage line\n" + "\n");
  got = reader.poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<StepRecord>(got[0]).loss, 0.25);
  EXPECT_EQ(reader.bad_lines(), 1);
  // A second reader from the start reads the same records (a follower started again).
  StepsFileReader again(path);
  EXPECT_EQ(again.poll().size(), 2u);
}

TEST(StepsFile, AReaderPollingWhileTheWriterAppendsGetsEveryRecordOnceInOrder) {
  TempDir dir;
  const std::string path = dir.file("steps");
  constexpr int kSteps = 3000;
  std::thread writer([&] {
    StepsFileWriter w(path, 0.01);
    RunStart start;
    start.total_steps = kSteps;
    w.on_start(start);
    for (int i = 1; i <= kSteps; ++i) w.on_step(step(i, 1.0 / i));
    RunEnd end;
    end.samples_per_s = 10;
    w.on_end(end);
    w.end(end);
  });
  StepsFileReader reader(path);
  std::vector<StepsFileEntry> all;
  bool ended = false;
  for (int polls = 0; !ended && polls < 100000; ++polls) {
    for (auto& e : reader.poll()) {
      ended = ended || std::holds_alternative<RunEnd>(e);
      all.push_back(std::move(e));
    }
  }
  writer.join();
  ASSERT_TRUE(ended);
  ASSERT_EQ(all.size(), static_cast<size_t>(kSteps + 2));
  EXPECT_TRUE(std::holds_alternative<RunStart>(all.front()));
  for (int i = 1; i <= kSteps; ++i) {
    const StepRecord& s = std::get<StepRecord>(all[static_cast<size_t>(i)]);
    EXPECT_EQ(s.step, i);
    EXPECT_EQ(s.loss, 1.0 / i);
  }
  EXPECT_EQ(reader.bad_lines(), 0);
}

TEST(StepsFile, TheWriterAppendsAndIsPrivate) {
  TempDir dir;
  const std::string path = dir.file("steps");
  {
    StepsFileWriter w(path);
    w.on_step(step(1, 1));
    w.note("n");
  }
  {
    StepsFileWriter w(path);  // a second writer appends, never truncates
    w.on_step(step(2, 1));
  }
  StepsFileReader reader(path);
  EXPECT_EQ(reader.poll().size(), 3u);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ::symlink(path.c_str(), dir.file("link").c_str());
  EXPECT_THROW(StepsFileWriter(dir.file("link")), LaunchError);  // never through a symlink
}

TEST(SlurmJob, SbatchGetsTheSetupsResourcesAndTheUsersFlags) {
  SbatchOptions o;
  o.job_name = "parity-run-3";
  o.ntasks = 4;
  o.cpus_per_task = 2;
  o.partition = "gpu";
  o.time = "1:00:00";
  o.account = "proj7";
  o.gres = "gpu:2";
  o.output = "/shared/run 3/job.out";
  const std::vector<std::string> argv = sbatch_argv(o, "/shared/run 3/job.sh");
  const std::vector<std::string> want = {"sbatch",
                                         "--parsable",
                                         "--no-requeue",
                                         "--export=ALL",
                                         "--job-name=parity-run-3",
                                         "--ntasks=4",
                                         "--cpus-per-task=2",
                                         "--partition=gpu",
                                         "--time=1:00:00",
                                         "--account=proj7",
                                         "--gres=gpu:2",
                                         "--output=/shared/run 3/job.out",
                                         "/shared/run 3/job.sh"};
  EXPECT_EQ(argv, want);
  o.partition = "gpu\n#SBATCH --uid=0";
  EXPECT_THROW(sbatch_argv(o, "x"), LaunchError);
  o.partition = "a b";
  EXPECT_THROW(sbatch_argv(o, "x"), LaunchError);
}

TEST(SlurmJob, TheScriptExecsTheSupervisorWithEveryWordQuoted) {
  SbatchOptions o;
  o.ntasks = 2;
  const std::string script =
      job_script(o, "/s/job.sh", {"/opt/parity cli", "job-step", "/s/run-1", "--run-id", "1"},
                 "Parity run 1 (x; $(touch y))\nsecond line\x01");
  EXPECT_EQ(script.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(script.find("\n# Parity run 1 (x; $(touch y))\n# second line\n"), std::string::npos)
      << script;
  EXPECT_NE(script.find("\nexec '/opt/parity cli' job-step /s/run-1 --run-id 1\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("#   sbatch --parsable --no-requeue --export=ALL --ntasks=2 /s/job.sh"),
            std::string::npos)
      << script;
}

TEST(SlurmJob, StatesSayWhetherTheJobEnded) {
  JobState s;
  s.in_queue = true;
  s.state = "PENDING";
  s.reason = "Resources";
  EXPECT_FALSE(s.ended());
  EXPECT_EQ(s.text(), "PENDING (Resources)");
  s.state = "RUNNING";
  s.reason.clear();
  EXPECT_FALSE(s.ended());
  EXPECT_EQ(s.text(), "RUNNING");
  for (const char* end :
       {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED"}) {
    s.state = end;
    EXPECT_TRUE(s.ended()) << end;
  }
  EXPECT_FALSE(JobState{}.ended());  // gone from the queue: not a state squeue gave
}

}  // namespace
}  // namespace parity::launch
