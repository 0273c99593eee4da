// The HTML report: one file, readable without Parity, without a network and without scripts.
#include <parity/report/html_report.h>

#include <algorithm>
#include <cmath>

#include "builtin_writers.h"
#include "svg_plot.h"

namespace parity::report {
namespace {

std::string esc(const std::string& s) { return xml_escape(s); }

std::string verdict_color(analysis::Verdict v) {
  switch (v) {
    case analysis::Verdict::kEquivalent:
      return "#1a7f37";
    case analysis::Verdict::kDifferent:
      return "#c62828";
    case analysis::Verdict::kNotComparable:
      return "#8a6d00";
    case analysis::Verdict::kReference:
      break;
  }
  return "#444444";
}

std::string run_name(int64_t id, const std::string& label) {
  return "#" + std::to_string(id) + " " + label;
}

// y of a curve at x (linear between the two points around it), for marking a parting point.
double y_at(const analysis::Series& s, double x) {
  if (s.empty()) return NAN;
  const auto it = std::lower_bound(s.x.begin(), s.x.end(), x);
  if (it == s.x.begin()) return s.y.front();
  if (it == s.x.end()) return s.y.back();
  const size_t i = static_cast<size_t>(it - s.x.begin());
  const double t = (x - s.x[i - 1]) / (s.x[i] - s.x[i - 1]);
  return s.y[i - 1] + t * (s.y[i] - s.y[i - 1]);
}

std::string axis_title(const Report& r) {
  switch (r.comparison.axis) {
    case analysis::Axis::kSamples:
      return "samples seen";
    case analysis::Axis::kStep:
      return "step";
    case analysis::Axis::kEpoch:
      return "epoch";
    case analysis::Axis::kWallTime:
      return "wall time (s)";
  }
  return analysis::to_string(r.comparison.axis);
}

std::string parting_title(const Report& r, const analysis::RunComparison& row) {
  return run_name(row.id, row.label) + " parts from the reference at " + axis_title(r) + " " +
         format_g(*row.first_outside_x, 6) + " (first point above the allowed gap)";
}

std::string signed_text(const std::optional<double>& v, double scale = 1, const char* unit = "") {
  if (!v) return "";
  const double x = *v * scale;
  return (x > 0 ? "+" : "") + format_g(x, 3) + unit;
}

std::string proof_text(const stored_runs::StoredProof& p) {
  if (p.result) return p.result->text;
  std::string s(storage::to_string(p.status));
  if (!p.error.empty()) s += ": " + p.error;
  return s;
}

const char* kStyle = R"(<style>
body { font-family: sans-serif; font-size: 10.5pt; color: #1b1b1b; }
@media screen { body { max-width: 980px; margin: 24px auto; padding: 0 16px; } }
h1 { font-size: 17pt; margin-bottom: 4px; } h2 { font-size: 13pt; margin-top: 28px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 8px 0; font-size: 9.5pt; } td, th { border: 1px solid #ccc; padding: 3px 7px; vertical-align: top; }
th { background: #f3f3f3; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.question { font-size: 12.5pt; font-weight: bold; } .answer li { margin: 4px 0; }
.known { color: #1a7f37; } .derived { color: #8a6d00; } .unknown { color: #c62828; }
.small { color: #666; font-size: 9pt; } svg { max-width: 100%; height: auto; }
</style>)";

}  // namespace

std::string loss_svg(const Report& r, const HtmlOptions& o) {
  SvgPlot p;
  p.width = o.plot_width;
  p.height = o.plot_height;
  p.path_chunk = o.inline_svg ? 0 : 8;
  p.title = "Loss against " + axis_title(r);
  p.x_title = axis_title(r);
  p.y_title = "loss";
  for (size_t i = 0; i < r.curves.size(); ++i) {
    const auto& c = r.curves[i];
    p.series.push_back(SvgSeries{run_name(c.id, c.label) + (i == 0 ? " (reference)" : ""),
                                 series_color(i), &c.drawn, false});
  }
  for (const auto& b : r.bands) {
    std::string ids;
    for (int64_t id : b.run_ids) ids += (ids.empty() ? "#" : ", #") + std::to_string(id);
    p.bands.push_back(SvgBand{"seed band (min-max of runs " + ids + ")", "#1f77b4", &b.band});
  }
  for (size_t i = 1; i < r.comparison.rows.size() && i < r.curves.size(); ++i) {
    const auto& row = r.comparison.rows[i];
    if (!row.first_outside_x) continue;
    p.marks.push_back(SvgMark{*row.first_outside_x, y_at(r.curves[i].whole, *row.first_outside_x),
                              series_color(i), parting_title(r, row)});
  }
  return svg_plot(p);
}

std::string delta_svg(const Report& r, const HtmlOptions& o) {
  SvgPlot p;
  p.width = o.plot_width;
  p.height = o.plot_height * 4 / 5;
  p.path_chunk = o.inline_svg ? 0 : 8;
  p.title = "Δ loss (run − reference) against " + axis_title(r);
  p.x_title = axis_title(r);
  p.y_title = "Δ loss";
  p.zero_line = true;
  for (size_t i = 1; i < r.comparison.rows.size() && i < r.deltas.size(); ++i) {
    const auto& row = r.comparison.rows[i];
    p.series.push_back(
        SvgSeries{run_name(row.id, row.label), series_color(i), &r.deltas[i], false});
    if (row.first_outside_x)
      p.marks.push_back(SvgMark{*row.first_outside_x, y_at(row.delta_curve, *row.first_outside_x),
                                series_color(i), parting_title(r, row)});
  }
  return svg_plot(p);
}

namespace {

// The question and the answer first: each run's verdict in a sentence, and how it was judged.
void html_answer(const Report& r, std::string& h) {
  const analysis::Comparison& cmp = r.comparison;
  h += "<p class=\"question\">" + esc(r.question) + "</p>\n<ul class=\"answer\">\n";
  for (size_t i = 1; i < cmp.rows.size(); ++i) {
    const auto& row = cmp.rows[i];
    h += "<li><b style=\"color:" + verdict_color(row.verdict) + "\">" +
         esc(analysis::to_string(row.verdict)) + "</b> — " + esc(run_name(row.id, row.label)) +
         ": " + esc(row.summary) + "</li>\n";
  }
  if (cmp.rows.size() == 1) h += "<li>No other run to compare.</li>\n";
  h += "</ul>\n<p class=\"small\">Aligned on " + esc(axis_title(r)) + ". ";
  h += r.options.use_seed_groups ? "The allowed gap is the seeds' own spread where a seed group "
                                   "exists, else the tolerance "
                                 : "The allowed gap is the tolerance ";
  h += "(" + format_g(r.options.abs_tolerance) + " + " + format_g(r.options.rel_tolerance) +
       " × |loss|).</p>\n";
}

// The loss and Δ plots, inline SVG (or images a PDF writer draws in their place).
void html_plots(const Report& r, const HtmlOptions& o, std::string& h) {
  h += "<h2>Loss curves</h2>\n";
  if (o.inline_svg) {
    h += loss_svg(r, o);
    h += delta_svg(r, o);
  } else {
    h += "<p><img src=\"" + std::string(kLossPlotUrl) + "\" width=\"" +
         std::to_string(o.plot_width) + "\"></p>\n<p><img src=\"" + kDeltaPlotUrl + "\" width=\"" +
         std::to_string(o.plot_width) + "\"></p>\n";
  }
  h += "<p class=\"small\">Circles mark where a run parts from the reference (its first point "
       "above the allowed gap). The shading is the seeds' min–max band.</p>\n";
}

// The verdict table, each run's reasons in a full-width row under its numbers; the seed groups.
void html_verdict_table(const Report& r, std::string& h) {
  const analysis::Comparison& cmp = r.comparison;
  h += "<h2>Verdict</h2>\n<table width=\"100%\" border=\"1\" cellspacing=\"0\" "
       "cellpadding=\"3\">\n<tr><th>run"
       "</th><th>verdict</th><th>max |Δloss|</th><th>final |Δloss|</th><th>mean |Δloss|</th>"
       "<th>Δ eval loss</th><th>Δ accuracy</th><th>samples/s</th><th>scaling eff.</th></tr>\n";
  for (const auto& row : cmp.rows) {
    const bool is_ref = row.verdict == analysis::Verdict::kReference;
    auto num = [&](const std::string& s) { return "<td class=\"num\">" + esc(s) + "</td>"; };
    h += "<tr><td>" + esc(run_name(row.id, row.label)) +
         "</td><td style=\"color:" + verdict_color(row.verdict) + "\">" +
         esc(analysis::to_string(row.verdict)) + "</td>";
    h += num(is_ref ? "" : format_g(row.delta.max_abs, 3));
    h += num(is_ref ? "" : format_g(row.delta.final_abs, 3));
    h += num(is_ref ? "" : format_g(row.delta.mean_abs, 3));
    h += num(is_ref ? "" : signed_text(row.final_eval_loss_delta));
    h += num(is_ref ? "" : signed_text(row.final_accuracy_delta, 100, " pt"));
    h += num(row.samples_per_s > 0 ? format_g(row.samples_per_s, 5) : "");
    h += num(row.scaling_efficiency ? format_g(100 * *row.scaling_efficiency, 3) + "%" : "");
    h += "</tr>\n";
    if (is_ref) continue;
    // Why, under the numbers and as wide as the table: the causes read as sentences.
    h += "<tr><td></td><td colspan=\"8\">";
    for (const auto& reason : row.reasons) h += "• " + esc(reason.text) + "<br>";
    for (const auto& info : row.info)
      h += "<span class=\"small\">· " + esc(info.text) + "</span><br>";
    if (!row.delta.range_note.empty())
      h += "<span class=\"small\">note: " + esc(row.delta.range_note) + "</span><br>";
    if (!row.noise_source.empty())
      h += "<span class=\"small\">noise floor " + format_g(row.noise_floor, 3) + " (" +
           esc(row.noise_source) + ")</span>";
    h += "</td></tr>\n";
  }
  h += "</table>\n";
  for (const auto& g : cmp.groups) {
    h += "<p class=\"small\">Seed group:";
    for (int64_t id : g.run_ids) h += " #" + std::to_string(id);
    h += ", spread " + format_g(g.spread, 3) + "</p>\n";
  }
}

// Each different run's counterfactuals, or how to prove it.
void html_proofs(const Report& r, std::string& h) {
  const analysis::Comparison& cmp = r.comparison;
  h += "<h2>Proofs</h2>\n";
  bool any_different = false;
  for (const auto& row : cmp.rows) {
    if (row.verdict != analysis::Verdict::kDifferent) continue;
    any_different = true;
    h += "<p><b>" + esc(run_name(row.id, row.label)) + "</b>: ";
    const auto found = r.proofs.find(row.id);
    if (found == r.proofs.end()) {
      h += "not proved yet. <code>parity-cli explain --reference " +
           std::to_string(cmp.reference_id) + " " + std::to_string(row.id) +
           "</code> trains each cause's counterfactual (the window's Prove).</p>\n";
      continue;
    }
    h += "</p>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>counterfactual"
         "</th><th>cause</th><th>result</th></tr>\n";
    for (const auto& p : found->second)
      h += "<tr><td>#" + std::to_string(p.counterfactual) + "</td><td>" + esc(p.cause) +
           "</td><td>" + esc(proof_text(p)) + "</td></tr>\n";
    h += "</table>\n";
  }
  if (!any_different) h += "<p>No run differs: nothing to prove.</p>\n";
}

// Each run's config keys that differ from the reference's.
void html_config_differences(const Report& r, std::string& h) {
  const analysis::Comparison& cmp = r.comparison;
  h += "<h2>Config differences</h2>\n";
  bool any_diff = false;
  for (const auto& row : cmp.rows) {
    if (row.config_diff.empty()) continue;
    any_diff = true;
    h += "<p><b>" + esc(run_name(row.id, row.label)) +
         "</b> vs the reference</p>\n<table "
         "border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>key</th><th>this run</th>"
         "<th>reference</th></tr>\n";
    for (const auto& d : row.config_diff)
      h += "<tr><td>" + esc(d.key) + "</td><td>" + esc(d.value) + "</td><td>" + esc(d.reference) +
           "</td></tr>\n";
    h += "</table>\n";
  }
  if (!any_diff) h += "<p>The configs are equal in every key.</p>\n";
}

// The equivalent-batch table of the compared setups.
void html_equivalent_batches(const Report& r, std::string& h) {
  h += "<h2>Equivalent batches</h2>\n<p class=\"small\">The per-device batch that keeps each "
       "global batch on each setup's shape (— where it does not divide).";
  if (r.equivalent.reference_batch > 0)
    h += " The reference trains on a global batch of " +
         std::to_string(r.equivalent.reference_batch) + ".";
  h += "</p>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>global batch</th>";
  for (const auto& s : r.equivalent.shapes) h += "<th>" + esc(s.name) + "</th>";
  h += "</tr>\n";
  for (const auto& row : r.equivalent.rows) {
    const bool ref = row.reference_batch == r.equivalent.reference_batch;
    h += std::string(ref ? "<tr style=\"font-weight:bold\">" : "<tr>") + "<td class=\"num\">" +
         std::to_string(row.reference_batch) + "</td>";
    for (const auto& v : row.per_device)
      h += "<td class=\"num\">" + (v ? std::to_string(*v) : std::string("—")) + "</td>";
    h += "</tr>\n";
  }
  h += "</table>\n";
}

// Each run's facts with their provenance and the file that said them.
void html_facts(const Report& r, std::string& h) {
  h += "<h2>Facts</h2>\n<p class=\"small\"><span class=\"known\">known</span>: read from a file "
       "or set by Parity; <span class=\"derived\">derived</span>: worked out, how is said; "
       "<span class=\"unknown\">unknown</span>: no file said.</p>\n";
  for (const auto& f : r.facts) {
    h += "<p><b>" + esc(run_name(f.id, f.label)) + "</b> — " + esc(f.origin);
    if (!f.source_path.empty()) h += " from " + esc(f.source_path);
    if (!f.parity_version.empty()) h += ", recorded by Parity " + esc(f.parity_version);
    h += "</p>\n";
    if (!f.facts_error.empty()) {
      h += "<p class=\"unknown\">" + esc(f.facts_error) + "</p>\n";
      continue;
    }
    h += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>fact</th><th>value"
         "</th><th>provenance</th><th>from</th></tr>\n";
    for (const auto& line : f.facts) {
      const std::string prov(config::to_string(line.provenance));
      h += "<tr><td>" + esc(line.words) + "</td><td>" + esc(line.value.empty() ? "?" : line.value) +
           "</td><td class=\"" + prov + "\">" + prov + "</td><td>" + esc(line.source) +
           "</td></tr>\n";
    }
    h += "</table>\n";
  }
}

// Where the report was made.
void html_environment(const Report& r, std::string& h) {
  const Environment& e = r.environment;
  h += "<h2>Environment</h2>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
  auto env_row = [&](const std::string& k, const std::string& v) {
    h += "<tr><th>" + esc(k) + "</th><td>" + esc(v) + "</td></tr>\n";
  };
  env_row("Parity", e.parity_version);
  env_row("LibTorch (built with)", e.torch_version.empty() ? "none" : e.torch_version);
  env_row("machine", e.host + ", " + e.system + ", " + std::to_string(e.cpu_cores) + " cores");
  env_row("made", e.made_at);
  env_row("database", e.database);
  for (const auto& [id, text] : e.processes_and_threads)
    env_row("run #" + std::to_string(id), text);
  h += "</table>\n";
}

}  // namespace

std::string report_html(const Report& r, const HtmlOptions& o) {
  std::string h;
  h.reserve(256 * 1024);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Parity report: " +
       esc(run_name(r.comparison.reference_id, r.reference().label)) + "</title>\n";
  h += kStyle;
  h += "\n</head><body>\n<h1>Parity report</h1>\n";
  h += "<p class=\"small\">Made " + esc(r.environment.made_at) + " by Parity " +
       esc(r.environment.parity_version) + " from " + esc(r.environment.database) + "</p>\n";
  html_answer(r, h);
  html_plots(r, o, h);
  html_verdict_table(r, h);
  html_proofs(r, h);
  html_config_differences(r, h);
  html_equivalent_batches(r, h);
  html_facts(r, h);
  html_environment(r, h);
  h += "</body></html>\n";
  return h;
}

namespace {

class HtmlWriter : public ReportWriter {
 public:
  std::string name() const override { return "html"; }
  std::string extension() const override { return "html"; }
  void write(const Report& report, std::ostream& out) const override { out << report_html(report); }
};

}  // namespace

std::unique_ptr<ReportWriter> make_html_writer() { return std::make_unique<HtmlWriter>(); }

}  // namespace parity::report
