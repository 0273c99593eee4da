#include <parity/train/model_summary.h>
#include <parity/train/trainer.h>

#include <nlohmann/json.hpp>

#include "datasets.h"
#include "models.h"

namespace parity::engine {

ModelSummary inspect_model(const RunConfig& config) {
  try {
    validate(config);
    const DataSplit data = load_dataset(config);
    auto model = make_model(config, data.train.inputs.sizes().slice(1), data.num_outputs);
    std::vector<int64_t> rows{0};
    if (data.train.size() > 1) rows.push_back(1);
    check_forward(*model, config, gather_batch(data.train, rows).first, data.num_outputs);
    const ModelTraits t = traits_of(config, *model);
    ModelSummary s;
    s.parameters = t.parameters;
    s.layer_kinds = t.layer_kinds;
    s.dropout = t.dropout;
    s.batch_norm = t.batch_norm;
    return s;
  } catch (const TrainError&) {
    throw;
  } catch (const std::exception& e) {
    throw TrainError(e.what());
  }
}

std::string to_json(const ModelSummary& s) {
  return nlohmann::json{{"parameters", s.parameters},
                        {"layer_kinds", s.layer_kinds},
                        {"dropout", s.dropout},
                        {"batch_norm", s.batch_norm}}
      .dump();
}

ModelSummary model_summary_from_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text);
  ModelSummary s;
  s.parameters = j.at("parameters").get<int64_t>();
  s.layer_kinds = j.at("layer_kinds").get<std::vector<std::string>>();
  s.dropout = j.at("dropout").get<bool>();
  s.batch_norm = j.at("batch_norm").get<bool>();
  return s;
}

}  // namespace parity::engine
