#include <parity/plot/decimation.h>
#include <parity/report/report.h>
#include <parity/storage/run_origin.h>
#include <parity/stored_runs/compare_runs.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "environment.h"

namespace parity::report {
namespace {

// The report's headline: which setups are asked about, in the reference's terms.
std::string question_of(const analysis::Comparison& cmp) {
  std::string others;
  for (size_t i = 1; i < cmp.rows.size(); ++i) {
    if (i > 1) others += i + 1 == cmp.rows.size() ? " and " : ", ";
    others += "#" + std::to_string(cmp.rows[i].id) + " " + cmp.rows[i].label;
  }
  const std::string ref = "#" + std::to_string(cmp.reference_id) + " " + cmp.rows[0].label;
  if (cmp.rows.size() == 1) return "What does run " + ref + " show on its own?";
  return std::string(cmp.rows.size() == 2 ? "Does " : "Do ") + others + " train as " + ref +
         " does, and if not, why?";
}

std::vector<std::string> answer_of(const analysis::Comparison& cmp) {
  std::vector<std::string> lines;
  for (size_t i = 1; i < cmp.rows.size(); ++i) {
    const auto& r = cmp.rows[i];
    lines.push_back("#" + std::to_string(r.id) + " " + r.label + ": " + r.summary);
  }
  return lines;
}

template <class T>
std::string value_text(const config::Fact<T>& f) {
  if (!f.has_value()) return "";
  return config::fact_text(f);
}

RunFactsView facts_view(const stored_runs::LoadedRun& loaded) {
  RunFactsView v;
  v.id = loaded.row.id;
  v.label = loaded.row.label;
  v.origin = std::string(storage::to_string(loaded.row.origin));
  v.source_path = loaded.row.source_path;
  v.parity_version = loaded.row.parity_version;
  try {
    const config::RunFacts facts = stored_runs::stored_facts(loaded.row, loaded.run.config);
    config::for_each_fact_field([&](const config::FactField& field, auto member) {
      const auto& fact = facts.*member;
      FactLine line;
      line.key = std::string(field.key);
      line.words = std::string(field.words);
      line.value = value_text(fact);
      line.provenance = fact.has_value() ? fact.provenance : config::Provenance::kUnknown;
      line.source = fact.has_value() ? fact.source : "";
      v.facts.push_back(std::move(line));
    });
  } catch (const std::exception& e) {
    v.facts_error = e.what();
  }
  return v;
}

EquivalentBatches equivalent_of(const std::vector<const stored_runs::LoadedRun*>& runs) {
  EquivalentBatches eq;
  std::vector<config::RunConfig> setups;
  for (const auto* r : runs) setups.push_back(r->run.config);
  eq.shapes = config::equivalent_shapes(setups);
  eq.reference_batch = runs.empty() ? 0 : config::global_batch_size(runs.front()->run.config);
  std::vector<int64_t> batches{256, 128, 64, 32};
  for (const auto* r : runs) {
    const int64_t b = config::global_batch_size(r->run.config);
    if (b > 0 && std::find(batches.begin(), batches.end(), b) == batches.end())
      batches.push_back(b);
  }
  std::sort(batches.rbegin(), batches.rend());
  eq.rows = config::equivalent_table(batches, eq.shapes);
  return eq;
}

analysis::Series drawn(const analysis::Series& whole, int pixel_width) {
  if (whole.empty()) return whole;
  plot::DecimateOptions o;
  o.pixel_width = std::max(1, pixel_width);
  return plot::decimate_min_max(whole, o);
}

// A band thinned to about one point per pixel column (its x are the first member's points):
// the envelope's extremes of each column kept, so the shading is never narrower than the data.
analysis::Band drawn_band(const analysis::Band& b, int pixel_width) {
  const size_t n = b.x.size();
  const size_t columns = static_cast<size_t>(std::max(1, pixel_width));
  if (n <= 2 * columns) return b;
  analysis::Band out;
  const double lo_x = b.x.front(), span = b.x.back() - b.x.front();
  size_t i = 0;
  while (i < n) {
    const size_t column =
        span > 0 ? static_cast<size_t>((b.x[i] - lo_x) / span * (columns - 1)) : 0;
    double lo = b.lo[i], hi = b.hi[i], mean = 0;
    size_t count = 0, first = i;
    for (; i < n; ++i) {
      const size_t c = span > 0 ? static_cast<size_t>((b.x[i] - lo_x) / span * (columns - 1)) : 0;
      if (c != column) break;
      lo = std::min(lo, b.lo[i]);
      hi = std::max(hi, b.hi[i]);
      mean += b.mean[i];
      ++count;
    }
    out.x.push_back(b.x[first]);
    out.lo.push_back(lo);
    out.hi.push_back(hi);
    out.mean.push_back(mean / static_cast<double>(count));
  }
  return out;
}

}  // namespace

std::string format_g(double value, int precision) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, value);
  return buf;
}

std::vector<int64_t> compared_ids(const storage::Database& db, int64_t reference,
                                  const std::vector<int64_t>& others) {
  if (!others.empty()) return others;
  std::vector<int64_t> with_steps;
  for (const auto& row : db.list_runs()) {
    if (row.id != reference && row.steps_done > 0) with_steps.push_back(row.id);
  }
  return with_steps;
}

Report build_report(const storage::Database& db, int64_t reference,
                    const std::vector<int64_t>& others, const ReportOptions& options) {
  auto load = [&](int64_t id) {
    if (!db.get_run(id)) throw ReportError("no run " + std::to_string(id) + " in " + db.path());
    return stored_runs::load_run(db, id);
  };
  const stored_runs::LoadedRun ref = load(reference);
  if (options.require_steps && ref.run.points.empty())
    throw ReportError("the reference, run " + std::to_string(reference) + " (" + ref.row.label +
                      "), has no steps to compare against");
  std::vector<stored_runs::LoadedRun> loaded;
  for (int64_t id : compared_ids(db, reference, others))
    if (id != reference) loaded.push_back(load(id));

  Report report;
  report.options = options.compare;
  report.comparison = stored_runs::compare_loaded(ref, loaded, options.compare);
  report.question = question_of(report.comparison);
  report.answer = answer_of(report.comparison);

  // Every loaded run in the comparison's row order (rows[0] the reference, then `others`).
  std::vector<const stored_runs::LoadedRun*> in_order{&ref};
  for (const auto& l : loaded) in_order.push_back(&l);
  for (const auto* l : in_order) {
    report.runs.push_back(l->row);
    RunCurve c;
    c.id = l->row.id;
    c.label = l->row.label;
    c.whole = analysis::curve(l->run, report.comparison.axis);
    c.drawn = drawn(c.whole, options.pixel_width);
    report.curves.push_back(std::move(c));
    report.facts.push_back(facts_view(*l));
  }
  std::sort(report.runs.begin(), report.runs.end(),
            [](const storage::RunRow& a, const storage::RunRow& b) { return a.id < b.id; });
  for (const auto& row : report.comparison.rows)
    report.deltas.push_back(row.verdict == analysis::Verdict::kReference
                                ? analysis::Series{}
                                : drawn(row.delta_curve, options.pixel_width));
  for (const auto& g : report.comparison.groups)
    report.bands.push_back(DrawnBand{g.run_ids, drawn_band(g.band, options.pixel_width)});
  if (options.with_proofs) {
    for (const auto& row : report.comparison.rows) {
      if (row.verdict != analysis::Verdict::kDifferent) continue;
      auto proofs = stored_runs::stored_proofs(db, reference, row.id);
      if (!proofs.empty()) report.proofs[row.id] = std::move(proofs);
    }
  }
  report.equivalent = equivalent_of(in_order);
  report.environment = environment_of(db.path(), in_order);
  return report;
}

}  // namespace parity::report
