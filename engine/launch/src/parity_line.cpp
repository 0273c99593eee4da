#include <parity/config/python_json.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/parity_line.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace parity::launch {

namespace {

constexpr std::string_view kPrefix = "PARITY ";

// Python's json.dumps writes NaN, Infinity and -Infinity bare: config::quote_non_finite makes
// them strings before parsing, and config::python_number reads them back.
double number(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (const auto n = config::python_number(v)) return *n;
  throw LaunchError(std::string("PARITY line: '") + key + "' is not a number: " + v.dump());
}

int64_t whole(const nlohmann::json& j, const char* key) {
  const double d = number(j, key);
  if (!std::isfinite(d) || d != std::floor(d) || d < 0 || d > 9e15) {
    throw LaunchError(std::string("PARITY line: '") + key +
                      "' is not a whole number >= 0: " + j.at(key).dump());
  }
  return static_cast<int64_t>(d);
}

}  // namespace

std::optional<ParityLine> parse_parity_line(std::string_view line) {
  if (line.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(config::quote_non_finite(line.substr(kPrefix.size())));
  } catch (const nlohmann::json::exception& e) {
    throw LaunchError(std::string("PARITY line is not JSON: ") + e.what());
  }
  if (!j.is_object()) throw LaunchError("PARITY line: expected a JSON object, got " + j.dump());
  if (j.contains("v") && !(j["v"].is_number_integer() && j["v"].get<int>() == kParityLineVersion))
    throw LaunchError("PARITY line: version " + j["v"].dump() + " is not supported (this is 1)");
  ParityLine out;
  if (j.contains("loss")) {
    if (!j.contains("step")) throw LaunchError("PARITY line: 'loss' without 'step'");
    StepRecord s;
    s.step = whole(j, "step");
    s.loss = number(j, "loss");
    if (j.contains("lr")) s.lr = number(j, "lr");
    if (j.contains("samples")) s.samples = whole(j, "samples");
    if (j.contains("epoch")) s.epoch = number(j, "epoch");
    if (j.contains("time_s")) s.time_s = number(j, "time_s");
    out.step = s;
  }
  if (j.contains("eval_loss")) {
    EvalRecord e;
    e.loss = number(j, "eval_loss");
    if (j.contains("eval_accuracy")) e.accuracy = number(j, "eval_accuracy");
    if (j.contains("step")) e.step = whole(j, "step");
    if (j.contains("samples")) e.samples = whole(j, "samples");
    if (j.contains("epoch")) e.epoch = static_cast<int>(whole(j, "epoch"));
    out.eval = e;
  }
  if (j.contains("hparams")) {
    if (!j["hparams"].is_object()) throw LaunchError("PARITY line: 'hparams' is not an object");
    for (const auto& [k, v] : j["hparams"].items()) out.hparams[k] = v.dump();
  }
  if (!out.step && !out.eval && out.hparams.empty())
    throw LaunchError("PARITY line has none of 'loss', 'eval_loss', 'hparams': " + j.dump());
  return out;
}

}  // namespace parity::launch
