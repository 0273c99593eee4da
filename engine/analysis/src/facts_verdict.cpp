// The verdict on runs known by their facts: compare() on configs built from the facts (unknowns
// taken as equal), its rows then read against what is unknown, the data order and the logged
// loss. See facts_verdict.h.
#include <parity/analysis/facts_verdict.h>
#include <parity/config/batch_plan.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace parity::analysis {

namespace {

using config::RunFacts;

std::string num(double v) {
  std::ostringstream s;
  s.precision(7);
  s << v;
  return s.str();
}

// A fact unknown on one side is given the other side's value (or the default when unknown on
// both), so the diagnosis never reads a guess as a difference. Every fact of the table.
RunFacts filled(RunFacts f, RunFacts ref) {
  config::for_each_fact_field([&](const config::FactField&, auto member) {
    auto& a = f.*member;
    auto& b = ref.*member;
    if (a.has_value() && !b.has_value())
      b.value = a.value;
    else if (b.has_value() && !a.has_value())
      a.value = b.value;
  });
  return f;
}

CompareRun with_facts(const FactRun& r, const RunFacts& facts, const config::RunConfig& base) {
  CompareRun out = r.run;
  out.config = base;
  config::apply_facts(facts, out.config);
  // The data is the run's own: with no fact of its size, none of Parity's datasets is assumed
  // (a size <= 0 is unknown to the diagnosis: no padding, no dropped samples, no short group).
  if (facts.train_samples.has_value()) {
    out.train_size = *facts.train_samples;
  } else if (!out.train_size || *out.train_size <= 0) {
    out.train_size = 0;
  }
  if (const auto g = r.facts.global_batch()) {
    for (CurvePoint& p : out.points) {
      if (p.samples <= 0) p.samples = static_cast<double>(p.step * *g);
      if (p.epoch <= 0 && r.facts.train_samples.has_value() && *r.facts.train_samples > 0) {
        p.epoch = p.samples / static_cast<double>(*r.facts.train_samples);
      }
    }
  }
  return out;
}

bool shuffles_unseeded(const RunFacts& f) {
  return f.use_seedable_sampler.has_value() && !*f.use_seedable_sampler &&
         f.num_processes.has_value() && *f.num_processes > 1;
}

std::string processes(const RunFacts& f) {
  const int64_t w = f.num_processes.has_value() ? *f.num_processes : 0;
  return std::to_string(w) + (w == 1 ? " process" : " processes");
}

class FactsReader {
 public:
  FactsReader(const FactRun& ref, const FactRun& run, bool step_axis)
      : ref_(ref), run_(run), step_axis_(step_axis) {}

  void read(RunComparison& row) const {
    if (row.verdict == Verdict::kReference || row.verdict == Verdict::kNotComparable) return;
    const std::vector<Reason> old = row.reasons;
    std::vector<Reason> unknown = unknown_reasons();
    const std::optional<Reason> order = data_order();
    const bool no_cause = only_no_cause(row.reasons);
    if (row.verdict == Verdict::kDifferent) {
      if (no_cause && !order && logged_loss(row)) return;
      if (no_cause && (order || !unknown.empty())) row.reasons.clear();
      // The facts' words for the data order (with the file that said it) replace the config's.
      const auto named = std::find_if(row.reasons.begin(), row.reasons.end(),
                                      [](const Reason& r) { return r.key == "data_order"; });
      if (order && named != row.reasons.end()) {
        named->text = order->text;
      } else if (order) {
        row.reasons.push_back(*order);
      }
      if (row.reasons.empty() || only_no_cause(row.reasons)) {
        // never "possible bug" while a fact that could explain it is unknown
        row.reasons.insert(row.reasons.end(), unknown.begin(), unknown.end());
      } else {
        row.info.insert(row.info.end(), unknown.begin(), unknown.end());
      }
    } else {
      const bool named = std::any_of(row.info.begin(), row.info.end(),
                                     [](const Reason& r) { return r.key == "data_order"; });
      if (order && !named) row.info.push_back(*order);
      row.info.insert(row.info.end(), unknown.begin(), unknown.end());
    }
    if (step_axis_) row.info.insert(row.info.begin(), step_note());
    rewrite_summary(row, old);
  }

 private:
  static bool only_no_cause(const std::vector<Reason>& reasons) {
    for (const Reason& r : reasons)
      if (r.key != "unexplained" && r.key != "rounding" && r.key != "summation_order") return false;
    return true;
  }

  std::vector<Reason> unknown_reasons() const {
    std::vector<Reason> out;
    config::for_each_fact_field([&](const config::FactField& f, auto member) {
      if (!f.named_when_unknown) return;
      const bool here = (run_.facts.*member).has_value(), there = (ref_.facts.*member).has_value();
      if (here && there) return;
      const std::string whose = !here && !there ? "both runs"
                                : !here         ? "this run"
                                                : "the reference";
      std::string text = std::string(f.words) + " unknown (" + whose + "): give `" +
                         std::string(f.flag) + "` (parity-cli set RUN " + std::string(f.flag) +
                         " ...)";
      if (f.key == "use_seedable_sampler" && processes_differ()) {
        // The sampler is the script's own: under Accelerate's default the orders differ, a cause
        // the band of the reference's seeds proves (the data order's key).
        out.push_back({"data_order", "data order unknown (" + whose +
                                         "): under Accelerate's default (use_seedable_sampler "
                                         "False) " +
                                         processes(run_.facts) + " draw another order than " +
                                         processes(ref_.facts) +
                                         " from the first step; `explain` proves it against the "
                                         "reference's seeds, `" +
                                         std::string(f.flag) + "` says which sampler ran"});
        return;
      }
      out.push_back({"unknown", text});
    });
    return out;
  }

  bool processes_differ() const {
    const auto& a = run_.facts.num_processes;
    const auto& b = ref_.facts.num_processes;
    return a.has_value() && b.has_value() && *a != *b;
  }

  std::optional<Reason> data_order() const {
    const RunFacts& a = run_.facts;
    const RunFacts& b = ref_.facts;
    const RunFacts& unseeded = shuffles_unseeded(a) ? a : b;
    if (!shuffles_unseeded(a) && !shuffles_unseeded(b)) return std::nullopt;
    return Reason{"data_order",
                  "data order differs: with use_seedable_sampler False (" +
                      unseeded.use_seedable_sampler.source + "), a run on " + processes(unseeded) +
                      " shuffles with a fresh torch.Generator() that set_seed does not seed, so "
                      "it sees another order than " +
                      (shuffles_unseeded(a) && shuffles_unseeded(b)
                           ? "any other run"
                           : "the " + processes(&unseeded == &a ? b : a) + " run") +
                      " (Accelerator(use_seedable_sampler=True) makes it follow the seed)"};
  }

  // Same samples per step and lr, different accumulation, evaluations equal to 7 digits: the
  // training is the same; the logged loss averages something else.
  bool logged_loss(RunComparison& row) const {
    const RunFacts& a = run_.facts;
    const RunFacts& b = ref_.facts;
    if (!a.global_batch() || !b.global_batch() || *a.global_batch() != *b.global_batch())
      return false;
    if (*a.gradient_accumulation_steps == *b.gradient_accumulation_steps) return false;
    const auto& ea = run_.run.final_eval_loss;
    const auto& eb = ref_.run.final_eval_loss;
    if (!ea || !eb || std::abs(*ea - *eb) > 5e-7 * std::abs(*eb)) return false;
    const RunFacts& acc = *a.gradient_accumulation_steps > *b.gradient_accumulation_steps ? a : b;
    const int64_t micro = *acc.num_processes * *acc.per_device_batch_size;
    const std::string text =
        "same training arithmetic (global batch " + std::to_string(*a.global_batch()) +
        ", evaluations agree to 7 digits: " + num(*ea) + " vs " + num(*eb) +
        "); the logged training loss averages a different thing: with accumulation " +
        std::to_string(*acc.gradient_accumulation_steps) +
        " a script that logs each optimizer step's loss logs its last micro-batch (" +
        std::to_string(micro) + " of the " + std::to_string(*acc.global_batch()) + " samples)";
    row.verdict = Verdict::kEquivalent;
    row.reasons.clear();
    row.info.insert(row.info.begin(), Reason{"logged_loss", text});
    row.summary = text;
    return true;
  }

  Reason step_note() const {
    return {"axis",
            "aligned on steps: the samples each step trains on are unknown (give "
            "--num-processes, --per-device-batch-size and --gradient-accumulation-steps)"};
  }

  void rewrite_summary(RunComparison& row, const std::vector<Reason>& old) const {
    if (row.verdict != Verdict::kDifferent) return;
    std::string prefix = row.summary;
    if (!old.empty()) {
      const auto at = prefix.find("; " + old.front().text);
      if (at != std::string::npos) prefix = prefix.substr(0, at);
    }
    for (const Reason& r : row.reasons) prefix += "; " + r.text;
    row.summary = prefix;
  }

  const FactRun& ref_;
  const FactRun& run_;
  bool step_axis_;
};

}  // namespace

Comparison compare_with_facts(const FactRun& reference, const std::vector<FactRun>& others,
                              CompareOptions options) {
  bool setup_known = reference.facts.setup_known();
  for (const FactRun& r : others) setup_known = setup_known && r.facts.setup_known();
  const bool step_axis = !setup_known && options.axis == Axis::kSamples;
  if (step_axis) options.axis = Axis::kStep;

  // The reference's own facts over its config; each other run's facts over the reference's
  // config, with unknowns on either side taken as equal.
  const CompareRun ref = with_facts(reference, reference.facts, reference.run.config);
  std::vector<CompareRun> runs;
  for (const FactRun& r : others) {
    CompareRun built = with_facts(r, filled(r.facts, reference.facts), ref.config);
    // What the reference does not say is not known of this run either.
    runs.push_back(std::move(built));
  }
  Comparison cmp = compare(ref, runs, options);
  for (size_t i = 0; i < others.size() && i + 1 < cmp.rows.size(); ++i) {
    FactsReader(reference, others[i], step_axis).read(cmp.rows[i + 1]);
  }
  return cmp;
}

}  // namespace parity::analysis
