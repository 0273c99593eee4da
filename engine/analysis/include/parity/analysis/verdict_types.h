#pragma once
/// The verdict's vocabulary: a curve point, a config difference, a reason, the gap statistics, a
/// seed group and the verdict itself. Plain structs, so the verdict's helpers (alignment, rounding)
/// and its readers need not include the whole of verdict.h.

#include <parity/analysis/axis.h>
#include <parity/analysis/curve_analysis.h>

#include <cstdint>
#include <string>
#include <vector>

namespace parity::analysis {

/// One optimizer step of a run's global-mean curve (storage's rank -1 rows).
struct CurvePoint {
  int64_t step = 0;
  double samples = 0;  ///< global samples seen, padding included
  double epoch = 0;    ///< fractional
  double time_s = 0;   ///< wall time since training started
  double loss = 0;
};

/// One config key whose values differ, as written by to_json() (strings without quotes;
/// "(unset)" when the key is absent on one side).
struct ConfigDiff {
  std::string key;
  std::string value;      ///< this run
  std::string reference;  ///< the reference
};

/// One explanation. key: a config key ("seed", "mixed_precision", ...) or a derived one:
/// "global_batch", "effective_lr", "scheduler_pace", "padding", "dropped", "loss" (non-finite),
/// "rounding" (different curves, same arithmetic in another summation order), "unexplained"
/// (different curves, no config key that changes the arithmetic), "range" (information: the
/// runs cover different x ranges).
struct Reason {
  std::string key;
  std::string text;
};

/// The config diff read in the seed's terms.
struct Diagnosis {
  std::vector<Reason> causes;  ///< differences that change the arithmetic (can explain a gap)
  std::vector<Reason> info;    ///< differences that do not (e.g. num_processes at equal global
                               ///< batch and effective lr), or are already covered by a cause
};

/// How a run's curve differs from the reference's on one axis: the run is interpolated at the
/// reference's points inside the overlap (linearly, no extrapolation) and the gap measured there.
struct DeltaStats {
  Axis axis = Axis::kSamples;
  Range reference_range, run_range, overlap;
  size_t points = 0;            ///< reference points compared (finite on both sides)
  size_t nonfinite_points = 0;  ///< covered points where either loss is NaN/inf
  double max_abs = 0;           ///< max |delta loss|
  double max_rel = 0;           ///< max |delta| / |reference loss| (points with loss 0 skipped)
  double x_at_max = 0;          ///< where max_abs occurs
  double final_abs = 0;         ///< |delta| at the last compared point
  double final_rel = 0;
  double mean_abs = 0;            ///< mean |delta| over the compared points
  bool different_ranges = false;  ///< the runs cover noticeably different x ranges
  std::string range_note;         ///< plain language, empty when the ranges match
};

/// Runs of one setup with different seeds: two or more runs whose configs are equal in every key
/// except label, seed and data_seed. A rerun with the same seed and data_seed as a member joins
/// no group: its gap is not seed noise (the determinism check is the tool for it).
struct SeedGroup {
  std::vector<size_t> indices;  ///< into the runs compared (0 = the reference)
  std::vector<int64_t> run_ids;
  double spread = 0;  ///< max |delta loss| between any two members, on the verdict's axis
  Band band;          ///< mean with min-max band on the first member's points (common range)
};

enum class Verdict {
  kReference,   ///< the row of the reference run itself
  kEquivalent,  ///< within the noise floor / tolerance at every compared point
  kDifferent,
  kNotComparable,  ///< no overlap, or an empty curve
};
/// "reference", "equivalent", "different", "not comparable".
std::string to_string(Verdict verdict);

}  // namespace parity::analysis
