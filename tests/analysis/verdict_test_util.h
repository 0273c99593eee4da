#pragma once
// Hand-made runs for the verdict tests: a config and a loss curve as a function of samples seen.

#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>

#include <cmath>
#include <functional>

namespace parity::analysis::test {

/// The regression of issue 2's equivalence test: synthetic data (1024 samples), linear model with
/// zero init, plain SGD.
inline config::RunConfig regression(int processes, int64_t per_device, int accumulation = 1) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.init = config::Init::kZeros;
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.05;
  c.synthetic_samples = 1024;
  c.num_processes = processes;
  c.per_device_batch_size = per_device;
  c.gradient_accumulation_steps = accumulation;
  return c;
}

inline double default_loss(double samples) { return std::exp(-samples / 500.0); }

/// One point per optimizer step up to `samples_total`, loss = f(samples), time = samples / speed.
inline CompareRun make_run(int64_t id, const config::RunConfig& config,
                           const std::function<double(double)>& loss = default_loss,
                           int64_t samples_total = 1024, double samples_per_s = 1000) {
  CompareRun run;
  run.id = id;
  run.label = "run " + std::to_string(id);
  run.config = config;
  run.train_size = 1024;
  const int64_t g = config::global_batch_size(config);
  int64_t step = 0;
  for (int64_t s = g; s <= samples_total; s += g) {
    CurvePoint p;
    p.step = ++step;
    p.samples = static_cast<double>(s);
    p.epoch = static_cast<double>(s) / 1024.0;
    p.time_s = static_cast<double>(s) / samples_per_s;
    p.loss = loss(static_cast<double>(s));
    run.points.push_back(p);
  }
  run.samples_per_s = samples_per_s;
  return run;
}

inline bool has_key(const std::vector<Reason>& reasons, const std::string& key) {
  for (const Reason& r : reasons) {
    if (r.key == key) return true;
  }
  return false;
}

inline std::string text_of(const std::vector<Reason>& reasons, const std::string& key) {
  for (const Reason& r : reasons) {
    if (r.key == key) return r.text;
  }
  return "";
}

}  // namespace parity::analysis::test
