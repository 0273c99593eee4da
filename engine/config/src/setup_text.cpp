#include <parity/config/batch_plan.h>
#include <parity/config/data_format.h>
#include <parity/config/setup_text.h>

#include <sstream>

namespace parity::config {

namespace {
std::string str(int64_t v) { return std::to_string(v); }
// 0.05, 0.1, 1e-05: the shortest spelling (%g), as the facts were given.
std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}
}  // namespace

std::string default_label(const RunConfig& c) {
  std::string label = str(c.num_processes) + "x" + str(c.per_device_batch_size);
  if (c.split_batches) label += " split";
  if (c.gradient_accumulation_steps > 1) label += " acc" + str(c.gradient_accumulation_steps);
  if (c.mixed_precision != MixedPrecision::kNo) label += " " + to_string(c.mixed_precision);
  if (c.lr_scaling != LrScaling::kNone) label += " lr " + to_string(c.lr_scaling);
  return label;
}

std::string shape_text(const RunConfig& c) {
  std::string text = c.split_batches
                         ? str(c.per_device_batch_size) + " split in " + str(c.num_processes)
                         : str(c.num_processes) + " × " + str(c.per_device_batch_size);
  if (c.gradient_accumulation_steps > 1) text += " × " + str(c.gradient_accumulation_steps);
  return text;
}

std::string describe_setup(const RunConfig& c) {
  std::string text = str(c.num_processes) + "×" + str(c.per_device_batch_size);
  if (c.split_batches) text += " split";
  if (c.gradient_accumulation_steps > 1) text += " acc " + str(c.gradient_accumulation_steps);
  text += " = " + str(global_batch_size(c));
  if (c.lr_scaling != LrScaling::kNone) text += " lr " + to_string(c.lr_scaling);
  if (c.mixed_precision != MixedPrecision::kNo) text += " " + to_string(c.mixed_precision);
  if (c.device == Device::kCuda) text += " cuda";
  text += " seed " + str(c.seed);
  return text;
}

std::string describe_setup(const RunFacts& f) {
  auto num = [](const Fact<int64_t>& fact) { return fact.has_value() ? str(*fact) : "?"; };
  std::string text = num(f.num_processes) + "×" + num(f.per_device_batch_size);
  if (!f.gradient_accumulation_steps.has_value() || *f.gradient_accumulation_steps > 1)
    text += " acc " + num(f.gradient_accumulation_steps);
  const auto global = f.global_batch();
  text += " = " + (global ? str(*global) : std::string("?"));
  // Runs of one shape told apart by their learning rate ("2x32" and "2x32-lr0.1" read alike).
  const bool scaled = f.lr_scaling.has_value() && *f.lr_scaling != "none";
  if (f.learning_rate.has_value()) {
    text += " lr " + number(*f.learning_rate) + (scaled ? " " + *f.lr_scaling : std::string());
  } else if (scaled) {
    text += " lr " + *f.lr_scaling;
  }
  if (f.mixed_precision.has_value() && *f.mixed_precision != "no") text += " " + *f.mixed_precision;
  text += " seed " + num(f.seed);
  return text;
}

std::string describe_data(const RunConfig& c) {
  if (c.data_path.empty()) return to_string(c.dataset);
  std::string path = c.data_path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const auto slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // A folder of IDX files says its dataset too; a file's name says which file.
  const DataLocation where = data_format(c.dataset).location;
  return where == DataLocation::kFolder || where == DataLocation::kDefaultFolder
             ? to_string(c.dataset) + " (" + name + ")"
             : name;
}

}  // namespace parity::config
