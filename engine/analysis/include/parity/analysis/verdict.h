#pragma once
/// The Parity verdict: align runs of different setups on samples seen (or epoch), measure how far
/// each is from a reference run, decide "equivalent" or "different" against the seed noise floor or
/// a tolerance, and explain the difference from the config diff in the seed's terms.
/// Torch-free, Qt-free and storage-free: the CLI and the window load runs and pass plain structs.
///
/// Wording convention: "A vs B" in every text is "this run vs the reference".

#include <parity/analysis/axis.h>
#include <parity/analysis/curve_analysis.h>
#include <parity/analysis/verdict_types.h>
#include <parity/config/model_summary.h>
#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::analysis {

/// A run as the verdict sees it.
struct CompareRun {
  int64_t id = 0;
  std::string label;
  config::RunConfig config;
  /// N of the training set; nullopt = known_train_size() of the config's dataset; a value <= 0 =
  /// unknown (the run's own data, a command's or a log's: no size of Parity's datasets assumed)
  std::optional<int64_t> train_size;
  std::vector<CurvePoint> points;     ///< in step order
  std::optional<double> final_eval_loss;
  std::optional<double> final_accuracy;  ///< nullopt for regression
  double samples_per_s = 0;              ///< 0 = derive from the last point (samples / time_s)
  double wall_time_s = 0;                ///< 0 = the last point's time_s
  /// The model as the run's rank 0 built it; nullopt = not recorded (the config's built-in
  /// options are read instead; a TorchScript module's layers are then unknown).
  std::optional<config::ModelSummary> model;
};

/// The run's loss against one axis.
Series curve(const CompareRun& run, Axis axis);

/// Keys of to_json(a) and to_json(b) whose values differ, in a's key order then b's extra keys;
/// "label" is excluded. Nested objects are compared key by key as "outer.inner".
std::vector<ConfigDiff> config_diff(const config::RunConfig& a, const config::RunConfig& reference);

/// Reads every differing key of `config` vs `reference`. Train sizes (nullopt = unknown; then
/// known_train_size() is tried; a value <= 0 = unknown, none tried) enable the padding / dropped-samples / short-accumulation checks.
/// Models as the runs recorded them (nullopt: read the config's built-in options) tell whether
/// dropout or batch norm is in a model the config does not describe, a TorchScript module.
Diagnosis diagnose(const config::RunConfig& config, const config::RunConfig& reference,
                   std::optional<int64_t> train_size = std::nullopt,
                   std::optional<int64_t> reference_train_size = std::nullopt,
                   const std::optional<config::ModelSummary>& model = std::nullopt,
                   const std::optional<config::ModelSummary>& reference_model = std::nullopt);

struct CompareOptions {
  Axis axis = Axis::kSamples;  ///< the axis the verdict uses; epoch stats are always computed too
  /// Tolerance where no seed group gives a noise floor (and the least allowed anyway): a point is
  /// within when |delta| <= abs_tolerance + rel_tolerance * |reference loss|.
  double abs_tolerance = 1e-4;
  double rel_tolerance = 1e-3;
  bool use_seed_groups = true;  ///< take the noise floor from seed groups of the runs passed
  double noise_factor = 1.0;    ///< allowed = noise_factor * floor
  double ema_weight = 0;        ///< smoothing applied to every curve before comparing (0 = raw)
  /// Target loss for "samples/time to reach". nullopt: target_factor x the reference's final loss,
  /// taken as the mean of its last max(1, 5%) points (less noisy than one step).
  std::optional<double> target_loss;
  double target_factor = 1.1;
  /// Ranges "differ" (DeltaStats::range_note) when an end differs by more than this share of the
  /// reference's range.
  double range_note_fraction = 0.01;
};

/// One row of the verdict table.
struct RunComparison {
  int64_t id = 0;
  std::string label;
  Verdict verdict = Verdict::kNotComparable;
  std::string summary;  ///< one plain-language line

  DeltaStats delta;        ///< on options.axis (zero for the reference row)
  DeltaStats epoch_delta;  ///< aligned by epoch
  Series delta_curve;      ///< run - reference on options.axis

  /// Decision: the allowed gap at each point is max(noise_factor * noise_floor, abs_tolerance +
  /// rel_tolerance * |reference loss|); worst_ratio = max over points of |delta| / allowed, so
  /// equivalent <=> worst_ratio <= 1 (and no non-finite point).
  double worst_ratio = 0;
  /// With a seed group: the allowed gap at each point is the seeds' min-max spread there (their
  /// band) x noise_factor, or the tolerance if larger; "equivalent" needs at most 5 % of the
  /// points outside and the final evaluation within the seeds' spread of final evaluations.
  double outside_fraction = 0;  ///< share of compared points above the allowed gap
  double allowed_at_max = 0;    ///< the allowed gap where |delta loss| is largest (x_at_max)
  /// Where the curves part: the x (on options.axis) of the first point above the allowed gap.
  std::optional<double> first_outside_x;
  std::optional<double> eval_spread;  ///< the seeds' spread of final evaluation losses
  bool final_eval_outside = false;    ///< the final evaluation is outside that spread
  double noise_floor = 0;             ///< the seeds' largest spread (0 when no seed group applies)
  std::string noise_source;  ///< e.g. "spread of 3 seeds of the reference"; empty = tolerance

  std::optional<double> final_loss;             ///< this run's own last loss
  std::optional<double> final_eval_loss_delta;  ///< this run - reference
  std::optional<double> final_accuracy_delta;   ///< this run - reference
  std::optional<double> samples_to_target;
  std::optional<double> time_to_target_s;
  std::optional<double> step_to_target;  ///< fractional step

  double samples_per_s = 0;
  double per_device_samples_per_s = 0;       ///< samples_per_s / num_processes
  std::optional<double> scaling_efficiency;  ///< throughput_W / (W * throughput_1)
  double wall_time_s = 0;

  std::vector<Reason> reasons;          ///< verdict different: what explains it (else empty)
  std::vector<Reason> info;             ///< informational differences (all of them when equivalent)
  std::vector<ConfigDiff> config_diff;  ///< vs the reference
};

struct Comparison {
  int64_t reference_id = 0;
  Axis axis = Axis::kSamples;
  std::optional<double> target_loss;  ///< nullopt when the reference curve is empty
  /// The single-process run scaling efficiency is measured against: one with the same per-device
  /// batch, device and precision if present, else the reference if single-process, else the first.
  std::optional<int64_t> baseline_id;
  std::vector<SeedGroup> groups;    ///< over reference + others, in order of first member
  std::vector<RunComparison> rows;  ///< rows[0] = the reference, then `others` in order
};

/// Compares every run of `others` to `reference`. Throws AnalysisError for bad options.
Comparison compare(const CompareRun& reference, const std::vector<CompareRun>& others,
                   const CompareOptions& options = {});

/// Determinism check of a rerun: bitwise comparison of two loss series.
struct DeterminismResult {
  bool identical = false;             ///< same length, same steps and every loss bit-equal
  std::optional<int64_t> first_step;  ///< first step that differs (or exists in one run only)
  double loss = 0;                    ///< a's loss there (NaN when a has no such step)
  double other_loss = 0;              ///< b's loss there (NaN when b has no such step)
  double abs_diff = 0;                ///< |loss - other_loss| (NaN when one side is missing)
  size_t points = 0, other_points = 0;
  std::string summary;  ///< "bitwise identical (500 steps)" or "first difference at step 17: ..."
};
DeterminismResult first_difference(const std::vector<CurvePoint>& a,
                                   const std::vector<CurvePoint>& b);

}  // namespace parity::analysis
