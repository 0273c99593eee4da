#include <parity/config/model_summary.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace parity::config {

std::string to_json(const ModelSummary& s) {
  return nlohmann::json{{"parameters", s.parameters},
                        {"layer_kinds", s.layer_kinds},
                        {"dropout", s.dropout},
                        {"dropout_p", s.dropout_p},
                        {"batch_norm", s.batch_norm}}
      .dump();
}

ModelSummary model_summary_from_json(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    ModelSummary s;
    s.parameters = j.at("parameters").get<int64_t>();
    s.layer_kinds = j.at("layer_kinds").get<std::vector<std::string>>();
    s.dropout = j.at("dropout").get<bool>();
    s.dropout_p = j.value("dropout_p", 0.0);
    s.batch_norm = j.at("batch_norm").get<bool>();
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("model summary: ") + e.what());
  }
}

}  // namespace parity::config
