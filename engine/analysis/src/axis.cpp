#include <parity/analysis/axis.h>

namespace parity::analysis {
namespace {

// lupdate reads tokens, not the preprocessor: spelled like Qt's own no-op marker, the labels are
// found for translation in context "parity::analysis::Axis" (kAxisTrContext) without a Qt header.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

// Indexed by the enum's value.
constexpr AxisNames kNames[] = {
    {"step", QT_TRANSLATE_NOOP("parity::analysis::Axis", "Optimizer step"),
     QT_TRANSLATE_NOOP("parity::analysis::Axis", "optimizer step")},
    {"samples", QT_TRANSLATE_NOOP("parity::analysis::Axis", "Samples seen"),
     QT_TRANSLATE_NOOP("parity::analysis::Axis", "samples seen")},
    {"epoch", QT_TRANSLATE_NOOP("parity::analysis::Axis", "Epoch"),
     QT_TRANSLATE_NOOP("parity::analysis::Axis", "epoch")},
    {"time", QT_TRANSLATE_NOOP("parity::analysis::Axis", "Wall time"),
     QT_TRANSLATE_NOOP("parity::analysis::Axis", "wall time (s)")},
};
static_assert(sizeof kNames / sizeof kNames[0] == sizeof kAxes / sizeof kAxes[0],
              "one row of names per axis");

}  // namespace

const AxisNames& names(Axis axis) { return kNames[static_cast<int>(axis)]; }

std::string to_string(Axis axis) { return names(axis).key; }

std::optional<Axis> parse_axis(const std::string& key) {
  for (Axis axis : kAxes) {
    if (key == names(axis).key) return axis;
  }
  return std::nullopt;
}

}  // namespace parity::analysis
