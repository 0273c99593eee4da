// The sweep that proves the remedies: a grid of (reference, run) pairs trained on small data, ranks
// as threads over a real FileStore + Gloo on loopback. For every pair judged different, the remedy
// (analysis/remedy.h) is trained and must come out equivalent (within the tolerance, or within
// the band of the reference's seeds where noise is left); no pair judged equivalent may need one.
// The suite runs every third pair; PARITY_SWEEP=full (scripts/remedy_sweep.sh) runs them all.
#include <gtest/gtest.h>
#include <parity/analysis/counterfactual.h>
#include <parity/analysis/remedy.h>
#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using analysis::CompareRun;
using analysis::Verdict;

// The experiment both sides share: synthetic regression, an MLP, plain SGD, one epoch.
config::RunConfig experiment(const std::string& variant, bool seedable, int64_t samples) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.synthetic_samples = samples;
  c.model = config::ModelKind::kMlp;
  c.hidden = {8};
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.05;
  c.epochs = 1;
  c.eval_every_epoch = false;
  c.use_seedable_sampler = seedable;
  c.num_processes = 1;
  c.per_device_batch_size = 16;
  if (variant == "batch-norm") c.batch_norm = true;
  if (variant == "dropout") c.dropout = 0.2;
  if (variant == "schedule") {
    c.scheduler = config::SchedulerKind::kLinear;
    c.warmup_steps = 2;
  }
  return c;
}

struct Shape {
  int w;
  int64_t b;
  int k;
};

std::string describe(const config::RunConfig& c) {
  std::string s = std::to_string(c.num_processes) + "x" + std::to_string(c.per_device_batch_size);
  if (c.gradient_accumulation_steps > 1) s += " acc" + std::to_string(c.gradient_accumulation_steps);
  if (c.lr_scaling != config::LrScaling::kNone) s += " " + config::to_string(c.lr_scaling);
  if (c.mixed_precision != config::MixedPrecision::kNo) s += " bf16";
  if (c.sync_batch_norm) s += " sync-bn";
  if (c.batch_norm) s += " bn";
  if (c.dropout > 0) s += " dropout";
  if (c.scheduler != config::SchedulerKind::kConstant) s += " sched";
  if (!c.use_seedable_sampler) s += " default-sampler";
  s += " n" + std::to_string(c.synthetic_samples);
  return s;
}

struct Pair {
  config::RunConfig reference, run;
};

// The grid: per experiment variant, sampler and training-set size (even, and one whose last
// batch is short), the run's shape x lr scaling, plus bf16 and sync batch norm runs.
std::vector<Pair> grid() {
  const std::vector<Shape> shapes = {{1, 16, 1}, {2, 8, 1}, {4, 4, 1}, {2, 16, 1},
                                     {4, 8, 1},  {1, 8, 2}, {2, 4, 2}, {1, 32, 1}};
  std::vector<Pair> out;
  for (const std::string variant : {"plain", "batch-norm", "dropout", "schedule"}) {
    for (const bool seedable : {true, false}) {
      for (const int64_t n : {192, 200}) {
        if (n == 200 && variant != "plain" && variant != "schedule") continue;
        const config::RunConfig ref = experiment(variant, seedable, n);
        for (const Shape& s : shapes) {
          for (const auto scaling :
               {config::LrScaling::kNone, config::LrScaling::kLinear, config::LrScaling::kSqrt}) {
            if (s.w == 1 && scaling != config::LrScaling::kNone) continue;
            config::RunConfig run = ref;
            run.num_processes = s.w;
            run.per_device_batch_size = s.b;
            run.gradient_accumulation_steps = s.k;
            run.lr_scaling = scaling;
            out.push_back({ref, run});
          }
        }
        config::RunConfig bf16 = ref;
        bf16.num_processes = 2;
        bf16.per_device_batch_size = 8;
        bf16.mixed_precision = config::MixedPrecision::kBf16;
        out.push_back({ref, bf16});
        if (variant == "batch-norm") {
          config::RunConfig synced = bf16;
          synced.mixed_precision = config::MixedPrecision::kNo;
          synced.sync_batch_norm = true;
          out.push_back({ref, synced});
        }
      }
    }
  }
  return out;
}

// Trains a config once per sweep (threads as ranks) and keeps its curve.
class Trainer {
 public:
  const CompareRun& run(const config::RunConfig& c) {
    const std::string key = config::to_json(c);
    auto it = runs_.find(key);
    if (it != runs_.end()) return it->second;
    const testing::ThreadedRun trained = testing::train_threaded(c);
    CompareRun r;
    r.id = static_cast<int64_t>(runs_.size()) + 1;
    r.label = describe(c);
    r.config = c;
    r.train_size = c.synthetic_samples;
    for (const launch::StepRecord& s : trained.sink.steps) {
      r.points.push_back({s.step, static_cast<double>(s.samples), s.epoch, s.time_s, s.loss});
    }
    ++trainings;
    return runs_.emplace(key, std::move(r)).first->second;
  }
  int trainings = 0;

 private:
  std::map<std::string, CompareRun> runs_;
};

analysis::CompareOptions no_groups() {
  analysis::CompareOptions o;
  o.use_seed_groups = false;
  return o;
}

// The remedy's run judged against the reference: within the tolerance, or with noise left no
// further from the reference than its own kBandSeeds more seeds (judge_seed_band).
bool judge(Trainer& t, const analysis::Remedy& remedy, const config::RunConfig& reference,
           const config::RunConfig& run, std::string* why) {
  const CompareRun& fixed = t.run(remedy.needed() ? remedy.config : run);
  if (remedy.noise.empty()) {
    const auto row = analysis::compare(t.run(reference), {fixed}, no_groups()).rows.at(1);
    *why = row.summary;
    return row.verdict == Verdict::kEquivalent;
  }
  std::vector<CompareRun> band;
  for (const config::RunConfig& seed : analysis::remedy_counterfactual(remedy, reference).seeds)
    band.push_back(t.run(seed));
  band.push_back(fixed);
  const analysis::ProofResult proof =
      analysis::judge_seed_band(analysis::compare(t.run(reference), band, no_groups()));
  *why = proof.text;
  return proof.proof == analysis::Proof::kConfirmed;
}

TEST(RemedySweep, EveryRemedyTrainedComesOutEquivalent) {
  const bool full = std::getenv("PARITY_SWEEP") && std::string(std::getenv("PARITY_SWEEP")) == "full";
  const std::vector<Pair> all = grid();
  ASSERT_GE(all.size(), 200u);
  const auto started = std::chrono::steady_clock::now();
  Trainer t;
  int pairs = 0, equivalent = 0, different = 0, fixed = 0, by_band = 0;
  std::vector<std::string> misses;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!full && i % 3 != 0) continue;
    const Pair& p = all[i];
    ++pairs;
    const analysis::RunComparison row =
        analysis::compare(t.run(p.reference), {t.run(p.run)}, no_groups()).rows.at(1);
    const analysis::Remedy remedy = analysis::remedy(
        p.run, p.reference, p.run.synthetic_samples, p.reference.synthetic_samples);
    const std::string what = describe(p.run) + " vs " + describe(p.reference);
    if (row.verdict == Verdict::kEquivalent) {
      ++equivalent;
      // A remedy moves only what the diagnosis names: one with no cause behind it is false.
      if (remedy.needed() && analysis::diagnose(p.run, p.reference, p.run.synthetic_samples,
                                                p.reference.synthetic_samples)
                                 .causes.empty())
        misses.push_back(what + ": equivalent, yet a remedy (" + remedy.changes_text() + ")");
      continue;
    }
    ++different;
    if (!remedy.exact()) {
      misses.push_back(what + ": no exact remedy (" + remedy.left.at(0).text + ")");
      continue;
    }
    std::string why;
    by_band += !remedy.noise.empty();
    if (judge(t, remedy, p.reference, p.run, &why)) {
      ++fixed;
    } else {
      misses.push_back(what + ": remedy " + remedy.changes_text() + " -> " + why);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "remedy sweep: " << pairs << " pairs of " << all.size() << " (" << t.trainings
            << " trainings, " << seconds << " s): " << equivalent << " equivalent, " << different
            << " different, " << fixed << " remedies trained equivalent (" << by_band
            << " judged by the seeds' band), " << misses.size() << " missed\n";
  for (const std::string& m : misses) std::cout << "  missed: " << m << "\n";
  EXPECT_GE(pairs, full ? 200 : 60);
  EXPECT_TRUE(misses.empty()) << misses.size() << " pairs missed; first: " << misses.front();
}

}  // namespace
}  // namespace parity::train
