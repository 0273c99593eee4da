#include <parity/config/batch_plan.h>
#include <parity/config/data_sizes.h>
#include <parity/config/memory_estimate.h>

#include <algorithm>

namespace parity::config {
namespace {

constexpr double kFloat = 4;  // bytes of a float32

// The input's width (features of one sample) where the config says it; 0 when it does not.
double input_width(const RunConfig& c) {
  const DataFormat& format = data_format(c.dataset);
  if (format.columns) return static_cast<double>(c.features.size());
  return format.input_width;
}

}  // namespace

std::optional<MemoryEstimate> estimate_rank_memory(const RunConfig& c) {
  const double in = input_width(c);
  if (in <= 0) return std::nullopt;
  if (c.model != ModelKind::kLinear && c.model != ModelKind::kMlp && c.model != ModelKind::kCnn)
    return std::nullopt;
  const double out = c.task == Task::kClassification ? 10 : 1;
  // Samples in one rank's micro-batch: no more than the training set holds.
  double batch = static_cast<double>(per_rank_micro_batch(c));
  if (const auto sizes = known_data_sizes(c); sizes && sizes->train > 0)
    batch = std::min(batch, static_cast<double>(sizes->train));
  double params = 0, widths = in + out;
  if (c.model == ModelKind::kCnn) {
    // Two 3x3 conv layers (16, 32 channels) on 28x28 and a 128-wide hidden layer.
    params = 16 * 9 + 16 + 32 * 16 * 9 + 32 + 32 * 7 * 7 * 128 + 128 + 128 * out + out;
    widths += 16 * 28 * 28 + 32 * 14 * 14 + 128;
  } else {
    double width = in;
    for (int64_t h : c.model == ModelKind::kMlp ? c.hidden : std::vector<int64_t>{}) {
      params += width * static_cast<double>(h) + static_cast<double>(h);
      widths += static_cast<double>(h);
      width = static_cast<double>(h);
    }
    params += width * out + out;
  }
  const double optimizer_states =
      c.optimizer == OptimizerKind::kAdamW ? 2 : (c.momentum > 0 ? 1 : 0);
  MemoryEstimate e;
  // Weights, their gradients and the flattened bucket they are all-reduced in, plus state.
  e.parameter_bytes = params * kFloat * (3 + optimizer_states);
  // Each layer's output and its gradient, for the micro-batch.
  e.activation_bytes = batch * widths * kFloat * 2;
  return e;
}

}  // namespace parity::config
