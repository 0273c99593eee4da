#pragma once
/// The x axis a loss curve is read against: one enum and one table of its names, shared by the
/// verdict, the CLI (--axis) and the window (x-axis menu, chart title).
///
/// The menu labels and titles are English source text marked for Qt's lupdate in the context
/// kAxisTrContext; the window shows them through QCoreApplication::translate(kAxisTrContext, ...).

#include <optional>
#include <string>

namespace parity::analysis {

/// The window stores the value as an int (QSettings "chart/xAxis"): never renumber.
enum class Axis { kStep = 0, kSamples = 1, kEpoch = 2, kWallTime = 3 };

/// Every axis, in enum order (the order of the window's menu).
inline constexpr Axis kAxes[] = {Axis::kStep, Axis::kSamples, Axis::kEpoch, Axis::kWallTime};

/// Translation context of AxisNames::menu and ::title.
inline constexpr char kAxisTrContext[] = "parity::analysis::Axis";

struct AxisNames {
  const char* key;    ///< "step", "samples", "epoch", "time": --axis and the verdict's texts
  const char* menu;   ///< "Optimizer step", "Samples seen", "Epoch", "Wall time"
  const char* title;  ///< "optimizer step", "samples seen", "epoch", "wall time (s)"
};
const AxisNames& names(Axis axis);

/// The key: "step", "samples", "epoch", "time".
std::string to_string(Axis axis);
/// The axis whose key is `key`; nullopt for anything else (callers word the refusal).
std::optional<Axis> parse_axis(const std::string& key);

}  // namespace parity::analysis
