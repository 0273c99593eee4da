#include "series.h"

#include <parity/ingest/ingest_error.h>

#include <cmath>
#include <initializer_list>
#include <unordered_map>

namespace parity::ingest::detail {

namespace {

const TagSeries* pick(const std::map<std::string, TagSeries>& scalars, const std::string& chosen,
                      std::initializer_list<const char*> defaults, std::string* tag) {
  if (!chosen.empty()) {
    const auto it = scalars.find(chosen);
    if (it == scalars.end()) return nullptr;
    *tag = chosen;
    return &it->second;
  }
  for (const char* name : defaults) {
    const auto it = scalars.find(name);
    if (it != scalars.end() && !it->second.values.empty()) {
      *tag = name;
      return &it->second;
    }
  }
  return nullptr;
}

std::unordered_map<int64_t, double> by_step(const TagSeries* s) {
  std::unordered_map<int64_t, double> out;
  if (!s) return out;
  out.reserve(s->steps.size());
  for (size_t i = 0; i < s->steps.size(); ++i) out[s->steps[i]] = s->values[i];
  return out;
}

std::string tag_list(const std::map<std::string, TagSeries>& scalars) {
  std::string out;
  for (const auto& [tag, s] : scalars) out += (out.empty() ? "" : ", ") + tag;
  return out.empty() ? "none" : out;
}

}  // namespace

void build_points(ImportedRun& run, const std::map<std::string, TagSeries>& scalars,
                  const ImportOptions& options) {
  std::string loss_tag, lr_tag, eval_tag, acc_tag, epoch_tag;
  const TagSeries* loss = pick(scalars, options.loss_tag,
                               {"train/loss", "train_loss", "loss", "train/train_loss",
                                "training_loss", "Loss/train", "train/loss_step"},
                               &loss_tag);
  if (!loss) {
    if (!options.loss_tag.empty()) {
      throw IngestError("no series '" + options.loss_tag + "' in " + run.source_path +
                        " (its series: " + tag_list(scalars) + ")");
    }
    run.notes.push_back("no training loss series (its series: " + tag_list(scalars) +
                        "; --loss-tag names one)");
    return;
  }
  run.loss_tag = loss_tag;
  const auto lr =
      by_step(pick(scalars, options.lr_tag,
                   {"train/lr", "train/learning_rate", "lr", "learning_rate"}, &lr_tag));
  const auto epoch = by_step(pick(scalars, "", {"train/epoch", "epoch"}, &epoch_tag));
  const size_t n = loss->values.size();
  bool all_zero = n > 1;
  for (int64_t s : loss->steps) all_zero = all_zero && s == 0;
  if (all_zero) {
    run.notes.push_back("every " + loss_tag +
                        " point has step 0 (the script logged no step): steps numbered in the "
                        "order written");
  }
  run.points.reserve(n);
  const double t0 = loss->wall_times.empty() ? 0 : loss->wall_times.front();
  int64_t backwards = 0, duplicates = 0, nans = 0;
  for (size_t i = 0; i < n; ++i) {
    ImportedPoint p;
    p.step = all_zero ? static_cast<int64_t>(i + 1) : loss->steps[i];
    p.loss = loss->values[i];
    p.time_s = loss->wall_times.empty() ? 0 : loss->wall_times[i] - t0;
    if (const auto it = lr.find(loss->steps[i]); it != lr.end()) p.lr = it->second;
    if (const auto it = epoch.find(loss->steps[i]); it != epoch.end()) p.epoch = it->second;
    if (!run.points.empty() && !all_zero) {
      if (p.step < run.points.back().step) {
        if (backwards++ == 0) {
          run.notes.push_back("step goes backwards at point " + std::to_string(i + 1) + " (" +
                              std::to_string(p.step) + " after " +
                              std::to_string(run.points.back().step) +
                              "): a resumed run, kept as written; the later value of a step "
                              "replaces the earlier one where stored");
        }
      } else if (p.step == run.points.back().step) {
        ++duplicates;
      }
    }
    if (!std::isfinite(p.loss)) ++nans;
    run.points.push_back(p);
  }
  if (duplicates > 0) {
    run.notes.push_back(std::to_string(duplicates) + " duplicate step(s) in " + loss_tag +
                        ": the last value of each step is kept");
  }
  if (nans > 0) {
    run.notes.push_back(std::to_string(nans) + " NaN or infinite loss value(s), kept");
  }
  const auto* eval =
      pick(scalars, options.eval_loss_tag,
           {"eval/loss", "eval_loss", "val/loss", "val_loss", "validation/loss"}, &eval_tag);
  if (eval) {
    const auto acc =
        by_step(pick(scalars, options.eval_accuracy_tag,
                     {"eval/accuracy", "eval_accuracy", "val/accuracy", "val_acc"}, &acc_tag));
    for (size_t i = 0; i < eval->values.size(); ++i) {
      ImportedEval e;
      e.step = eval->steps[i];
      e.loss = eval->values[i];
      if (const auto it = acc.find(e.step); it != acc.end()) e.accuracy = it->second;
      run.evals.push_back(e);
    }
  }
}

void derive_lr_scaling(ImportedRun& run) {
  auto& f = run.facts;
  if (f.lr_scaling.has_value() || !f.learning_rate.has_value() || run.points.empty()) return;
  const double first = run.points.front().lr;
  if (std::isfinite(first) && std::abs(first - *f.learning_rate) <= 1e-6 * std::abs(first)) {
    f.lr_scaling = config::Fact<std::string>::derived(
        "none", "the first logged lr equals learning_rate (" + f.learning_rate.source + ")");
  }
}

}  // namespace parity::ingest::detail
