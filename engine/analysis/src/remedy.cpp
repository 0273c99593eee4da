// The remedy: the whole setup of the run's shape with the reference's arithmetic. RemedyBuilder
// reads as the steps: the experiment's keys, the shape (batch, accumulation, sync batch norm),
// the lr, the sampler, the tail, the schedule, then what is left as noise or as a gap. Every
// value is set through the config's own field table, the parser the command line uses.

#include <parity/analysis/remedy.h>
#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "alignments.h"
#include "setups.h"
#include "verdict_util.h"

namespace parity::analysis {

using namespace verdict_detail;

namespace {

// Keys of the run's own shape or its template: the builder sets them by rule, never by copying.
bool shaped_key(const std::string& key) {
  static const char* const kShaped[] = {
      "num_processes",    "per_device_batch_size", "gradient_accumulation_steps",
      "split_batches",    "lr",                    "lr_scaling",
      "sync_batch_norm",  "use_seedable_sampler",  "data_seed",
      "threads_per_rank", "loss_normalization",    "even_batches",
      "scheduler",        "warmup_steps",          "num_training_steps",
      "scheduler_step_size", "scheduler_gamma",    "pct_start",
      "div_factor",       "final_div_factor",      "command",
      "workdir",          "command_env",           "capture"};
  return std::any_of(std::begin(kShaped), std::end(kShaped),
                     [&](const char* k) { return key == k; });
}

// The placeholder that carries a field into a command template ("" for none).
std::string placeholder_of(const std::string& field) {
  if (field == "lr" || field == "lr_scaling") return "{learning_rate}";
  for (const char* f : {"num_processes", "per_device_batch_size", "gradient_accumulation_steps",
                        "seed", "mixed_precision"}) {
    if (field == f) return "{" + field + "}";
  }
  return "";
}

std::string lr_rule(const config::RunConfig& c) {
  switch (c.lr_scaling) {
    case config::LrScaling::kLinear:
      return "linear in the processes";
    case config::LrScaling::kSqrt:
      return "sqrt in the processes";
    case config::LrScaling::kNone:
      break;
  }
  return "not scaled";
}

class RemedyBuilder {
 public:
  RemedyBuilder(const config::RunConfig& run, const config::RunConfig& reference,
                std::optional<int64_t> n, std::optional<int64_t> n_ref,
                const std::optional<config::ModelSummary>& model,
                const std::optional<config::ModelSummary>& reference_model)
      : run_(run),
        ref_(reference),
        n_(train_size_of(run, n)),
        n_ref_(train_size_of(reference, n_ref)),
        given_n_(n),
        given_n_ref_(n_ref),
        model_(model),
        ref_model_(reference_model),
        command_(!run.command.empty()) {
    out_.config = run;
  }

  Remedy build() {
    experiment_keys();
    shape();
    learning_rate();
    sampler();
    tail();
    schedule();
    threads();
    what_is_left();
    return std::move(out_);
  }

 private:
  config::RunConfig& c() { return out_.config; }

  // Sets one field as the command line does and records the change (once per key, the last
  // value winning). A field the command's template does not carry is not set.
  bool set(const std::string& key, const std::string& text, std::string words = "") {
    if (!template_moves(run_, key)) return false;
    const std::string before = config::field_text(c(), key);
    try {
      config::set_field_from_text(c(), key, text);
    } catch (const config::ConfigError& e) {
      out_.left.push_back({key, e.what()});
      return false;
    }
    const std::string after = config::field_text(c(), key);
    if (after == before) return true;
    if (words.empty()) words = key + " " + before + " -> " + after;
    auto it = std::find_if(out_.changes.begin(), out_.changes.end(),
                           [&](const RemedyChange& ch) { return ch.key == key; });
    if (it == out_.changes.end()) {
      out_.changes.push_back({key, before, after, words});
    } else {
      it->to = after;
      it->words = words;
    }
    if (config::field_text(run_, key) == after) {  // back to the run's own value
      out_.changes.erase(std::find_if(out_.changes.begin(), out_.changes.end(),
                                      [&](const RemedyChange& ch) { return ch.key == key; }));
    }
    return true;
  }

  // The experiment and the keys that are one value each (seed, precision, device, drop_last,
  // the dataset, the model, the optimizer, the run's length): the reference's.
  void experiment_keys() {
    for (const ConfigDiff& d : config_diff(run_, ref_)) {
      if (shaped_key(d.key) || d.key.find('.') != std::string::npos) continue;
      // The training set's size: 0 is "all"; the same samples, or a size only one side knows
      // (a log's own data), is nothing to change.
      if (d.key == "train_samples") {
        const auto mine = train_size_of(run_, given_n_), theirs = train_size_of(ref_, given_n_ref_);
        if (!mine || !theirs || *mine == *theirs) continue;
      }
      if (d.key == "seed") {
        set("seed", config::field_text(ref_, "seed"),
            "seed " + num(run_.seed) + " -> " + num(ref_.seed));
        continue;
      }
      set(d.key, config::field_text(ref_, d.key));
    }
  }

  // The batch-norm batch a shape gives, and whether both models normalise over their batch.
  bool both_batch_norm() const {
    const Layers a = layers_of(run_, model_), b = layers_of(ref_, ref_model_);
    return a.batch_norm && b.batch_norm;
  }

  // Whether the epoch's last accumulation group is short in `t` as in the reference (a short
  // group is under-weighted); true when a size is unknown.
  bool short_group_as_reference(const config::RunConfig& t) const {
    const auto plan = plan_or_none(t, n_), plan_ref = plan_or_none(ref_, n_ref_);
    return !plan || !plan_ref ||
           plan->short_last_accumulation == plan_ref->short_last_accumulation;
  }

  // A per-device batch and accumulation (and sync batch norm) of the run's processes that give
  // the reference's global batch; among them the one that keeps the batch-norm batch, then the
  // run's accumulation, then its sync batch norm.
  void shape() {
    const int w = run_.num_processes;
    const int64_t g_ref = config::global_batch_size(ref_);
    const bool bn = both_batch_norm() && !command_;
    const int64_t bn_ref = config::batch_norm_batch(ref_);
    using Score = std::tuple<int, int, int64_t, int>;
    std::optional<std::tuple<Score, int64_t, int, bool>> best;
    for (int k = 1; k <= std::min<int64_t>(g_ref, 64); ++k) {
      int64_t b = 0;
      if (run_.split_batches) {
        if (g_ref % k != 0 || (g_ref / k) % w != 0) continue;
        b = g_ref / k;
      } else {
        if (g_ref % (static_cast<int64_t>(w) * k) != 0) continue;
        b = g_ref / (static_cast<int64_t>(w) * k);
      }
      if (k != run_.gradient_accumulation_steps &&
          !template_moves(run_, "gradient_accumulation_steps"))
        continue;
      if (b != run_.per_device_batch_size && !template_moves(run_, "per_device_batch_size"))
        continue;
      for (const bool sync : {c().sync_batch_norm, !c().sync_batch_norm}) {
        if (sync != c().sync_batch_norm && (!bn || w < 2)) continue;
        config::RunConfig t = c();
        t.per_device_batch_size = b;
        t.gradient_accumulation_steps = k;
        t.sync_batch_norm = sync;
        const bool bn_ok = !bn || config::batch_norm_batch(t) == bn_ref;
        const Score score{(bn_ok ? 0 : 2) + (short_group_as_reference(t) ? 0 : 1),
                          k == run_.gradient_accumulation_steps ? 0 : 1,
                          std::abs(k - run_.gradient_accumulation_steps),
                          sync == run_.sync_batch_norm ? 0 : 1};
        if (!best || score < std::get<0>(*best)) best = std::make_tuple(score, b, k, sync);
      }
    }
    if (!best) {
      out_.left.push_back({"global_batch", "no per-device batch on " + processes(w) + " gives " +
                                               num(g_ref) + " (the reference's global batch)"});
      return;
    }
    const auto [score, b, k, sync] = *best;
    set("per_device_batch_size", num(b),
        "per-device batch " + num(run_.per_device_batch_size) + " -> " + num(b));
    set("gradient_accumulation_steps", num(int64_t{k}),
        "accumulation " + num(int64_t{run_.gradient_accumulation_steps}) + " -> " +
            num(int64_t{k}));
    if (sync != c().sync_batch_norm) {
      set("sync_batch_norm", sync ? "true" : "false",
          std::string("sync batch norm ") + (sync ? "on" : "off") + ": statistics over " +
              num(bn_ref) + " samples, as the reference's");
    }
  }

  // The lr each step uses: the reference's effective lr. The run keeps its scaling rule when
  // a base lr reproduces that number exactly; else none, with the number itself.
  void learning_rate() {
    const double want = config::effective_lr(ref_);
    const double before = config::effective_lr(c());
    if (close(before, want)) return;
    config::RunConfig t = c();
    const double factor = t.lr != 0 ? before / t.lr : 0;
    t.lr = factor > 0 ? want / factor : want;
    const bool keep_rule = factor > 0 && std::isfinite(t.lr) && config::effective_lr(t) == want;
    if (!keep_rule) set("lr_scaling", "none");
    set("lr", num(keep_rule ? t.lr : want, 17),
        "lr " + num(before) + " -> " + num(want) + " after scaling (" + lr_rule(c()) +
            (keep_rule && c().lr_scaling != config::LrScaling::kNone ? ": --lr " + num(t.lr)
                                                                      : ": --lr " + num(want)) +
            ")");
  }

  // On the reference's processes the intra-op threads are the rest of the summation order: the
  // reference's, when both recorded them. On other processes the allreduce sums in another order
  // anyway, and the threads stay the setup's own (its fair share of the cores).
  void threads() {
    if (run_.num_processes != ref_.num_processes || ref_.threads_per_rank <= 0 ||
        c().threads_per_rank <= 0 || command_)
      return;
    set("threads_per_rank", config::field_text(ref_, "threads_per_rank"),
        "threads per rank " + num(int64_t{c().threads_per_rank}) + " -> " +
            num(int64_t{ref_.threads_per_rank}) + " (the summation order)");
  }

  // The reference's data order. A command's sampler is its script's own: across process
  // counts its order may differ, which no value of the template moves (noise, judged by the
  // band). Accelerate's default draws orders on one process that several never draw (noise too).
  void sampler() {
    if (command_) {
      if (run_.num_processes != ref_.num_processes) {
        out_.noise.push_back(
            {"data_order", "the data order is your script's own sampler: under Accelerate's "
                           "default (use_seedable_sampler False) " +
                               processes(run_.num_processes) + " draw another order than " +
                               processes(ref_.num_processes)});
      }
      return;
    }
    const config::DataOrder theirs = config::data_order(ref_);
    config::RunConfig t = c();
    t.use_seedable_sampler = ref_.use_seedable_sampler;
    if (config::data_order(t) != theirs) {
      out_.noise.push_back({"data_order", "data order: " + config::describe(theirs) + " on " +
                                              processes(ref_.num_processes) + ", which " +
                                              processes(run_.num_processes) + " never draw"});
      return;
    }
    set("use_seedable_sampler", config::field_text(ref_, "use_seedable_sampler"),
        "sampler " + config::describe(config::data_order(c())) + " -> " +
            config::describe(theirs));
    if (c().effective_data_seed() != ref_.effective_data_seed()) {
      set("data_seed", num(ref_.effective_data_seed()),
          "data_seed " + num(c().effective_data_seed()) + " -> " +
              num(ref_.effective_data_seed()));
    }
  }

  // The epoch's tail: samples repeated by even_batches only in the run are removed (even_batches
  // off, every item weighted alike: the single device's short batch); token data cut into other
  // micro-batches is weighted per item where the reference has one micro-batch a step.
  void tail() {
    const bool tokens = c().token_data() && ref_.token_data();
    const bool one_micro_ref = ref_.num_processes == 1 && ref_.gradient_accumulation_steps == 1;
    const bool split_differs = config::per_rank_micro_batch(c()) !=
                                   config::per_rank_micro_batch(ref_) ||
                               c().num_processes != ref_.num_processes ||
                               c().gradient_accumulation_steps != ref_.gradient_accumulation_steps;
    if (c().even_batches != ref_.even_batches && !command_)
      set("even_batches", config::field_text(ref_, "even_batches"));
    if (tokens && split_differs && one_micro_ref && !command_) {
      intended_.push_back("loss_normalization");
      set("loss_normalization", "global",
          "loss normalisation global (every token of the step weighs the same, as the "
          "reference's one micro-batch a step)");
    } else if (!command_ && !split_differs && c().loss_normalization != ref_.loss_normalization) {
      set("loss_normalization", config::field_text(ref_, "loss_normalization"));
    }
    const auto plan = plan_or_none(c(), n_), plan_ref = plan_or_none(ref_, n_ref_);
    if (!plan || !plan_ref || command_) return;
    if (plan->padded_samples > 0 && plan_ref->padded_samples == 0 && c().even_batches) {
      // The reference's one micro-batch a step weighs its short last batch by its real size:
      // so does every item weighing alike on the run's ranks.
      if (one_micro_ref) intended_.insert(intended_.end(), {"even_batches", "loss_normalization"});
      set("even_batches", "false", "even_batches false (no repeated samples)");
      set("loss_normalization", "global",
          "loss normalisation global (the short last batch weighs its real size on every rank)");
    }
  }

  // The reference's schedule in this run's scheduler steps (the reference's lr at equal samples).
  void schedule() {
    if (command_) return;
    const bool scheduled = ref_.scheduler != config::SchedulerKind::kConstant ||
                           ref_.warmup_steps > 0 ||
                           c().scheduler != config::SchedulerKind::kConstant ||
                           c().warmup_steps > 0;
    if (!scheduled) return;
    const Change change = align_schedule(AlignInput{c(), ref_, n_, n_ref_}, "lr_schedule");
    if (!change.config) {
      out_.left.push_back({"lr_schedule", change.why_not});
      return;
    }
    // Only what the lr at equal samples reads: the kind, the length where it is not already the
    // run's (a default length may be the same number), the warm-up, and the kind's own keys.
    const config::RunConfig& aligned = *change.config;
    set("scheduler", config::field_text(aligned, "scheduler"));
    if (!n_ || config::schedule_length(c(), *n_) != aligned.num_training_steps)
      set("num_training_steps", config::field_text(aligned, "num_training_steps"));
    set("warmup_steps", config::field_text(aligned, "warmup_steps"));
    if (aligned.scheduler == config::SchedulerKind::kStep) {
      for (const char* key : {"scheduler_step_size", "scheduler_gamma"})
        set(key, config::field_text(aligned, key));
    }
    if (aligned.scheduler == config::SchedulerKind::kOneCycle) {
      for (const char* key : {"pct_start", "div_factor", "final_div_factor"})
        set(key, config::field_text(aligned, key));
    }
  }

  // What the diagnosis still finds between the remedy and the reference: noise (dropout masks)
  // or a gap no setup of this shape closes. Threads and the summation order are the setup's own.
  void what_is_left() {
    const Diagnosis d = diagnose(c(), ref_, given_n_, given_n_ref_, model_, ref_model_);
    for (const Reason& r : d.causes) {
      if (r.key == "threads_per_rank" || r.key == "num_processes") continue;
      const auto named = [&](const std::vector<Reason>& list) {
        return std::any_of(list.begin(), list.end(),
                           [&](const Reason& x) { return x.key == r.key; });
      };
      if (named(out_.noise) || named(out_.left)) continue;
      if (std::find(intended_.begin(), intended_.end(), r.key) != intended_.end()) continue;
      // With the global batch unaligned, what follows from it (the lr's rule, the schedule's
      // pace, the epoch's tail) is that same gap.
      {
        static const char* const kFollow[] = {"effective_lr", "lr_schedule", "scheduler_pace",
                                              "padding", "dropped"};
        const bool batch_left = std::any_of(out_.left.begin(), out_.left.end(),
                                            [](const Reason& x) { return x.key == "global_batch"; });
        if (batch_left && std::any_of(std::begin(kFollow), std::end(kFollow),
                                      [&](const char* k) { return r.key == k; }))
          continue;
      }
      if (r.key == "dropout" || (r.key == "data_order" && command_)) {
        out_.noise.push_back(r);
      } else if (!(command_ && !template_moves(run_, r.key))) {
        out_.left.push_back(r);
      }
    }
  }

  const config::RunConfig& run_;
  const config::RunConfig& ref_;
  std::optional<int64_t> n_, n_ref_;              ///< as the diagnosis reads them
  std::optional<int64_t> given_n_, given_n_ref_;  ///< as given (diagnose() reads them again)
  const std::optional<config::ModelSummary>& model_;
  const std::optional<config::ModelSummary>& ref_model_;
  const bool command_;
  std::vector<std::string> intended_;  ///< keys set apart from the reference's on purpose
  Remedy out_;
};

}  // namespace

bool template_moves(const config::RunConfig& config, const std::string& field) {
  if (config.command.empty()) return true;
  const std::string placeholder = placeholder_of(field);
  return !placeholder.empty() && config.command.find(placeholder) != std::string::npos;
}

Remedy remedy(const config::RunConfig& run, const config::RunConfig& reference,
              std::optional<int64_t> train_size, std::optional<int64_t> reference_train_size,
              const std::optional<config::ModelSummary>& model,
              const std::optional<config::ModelSummary>& reference_model) {
  return RemedyBuilder(run, reference, train_size, reference_train_size, model, reference_model)
      .build();
}

std::string Remedy::setup_text() const {
  const config::RunConfig& c = config;
  std::string s = processes(c.num_processes) + " x " + num(config::per_rank_micro_batch(c)) +
                  " per device, accumulation " + num(int64_t{c.gradient_accumulation_steps}) +
                  " (global batch " + num(config::global_batch_size(c)) + "), lr " +
                  num(config::effective_lr(c)) + " after scaling";
  if (!c.command.empty()) return s + ", " + precision_name(c.mixed_precision) + ", seed " +
                                 num(c.seed) + " (your command's own sampler and schedule)";
  s += ", " + config::describe(config::data_order(c)) + ", " + precision_name(c.mixed_precision) +
       ", sync batch norm " + (c.sync_batch_norm ? "on" : "off") + ", even_batches " +
       (c.even_batches ? "true" : "false") + ", schedule " + to_string(c.scheduler);
  if (c.scheduler != config::SchedulerKind::kConstant || c.warmup_steps > 0) {
    s += c.num_training_steps > 0 ? " over " + num(c.num_training_steps) + " scheduler steps"
                                  : " over the default length";
    if (c.warmup_steps > 0) s += " (warm-up " + num(c.warmup_steps) + ")";
  }
  return s + ", seed " + num(c.seed);
}

std::string Remedy::changes_text() const {
  std::string s;
  for (const RemedyChange& ch : changes) s += (s.empty() ? "" : "; ") + ch.words;
  return s;
}

std::string Remedy::flags() const {
  std::string s;
  for (const RemedyChange& ch : changes) {
    std::string flag = ch.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    s += (s.empty() ? "--" : " --") + flag + " " + (ch.to.empty() ? "''" : ch.to);
  }
  return s;
}

}  // namespace parity::analysis
