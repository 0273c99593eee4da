#include <parity/train/datasets.h>
#include <parity/train/model_summary.h>
#include <parity/train/models.h>
#include <parity/train/trainer.h>

namespace parity::train {

config::ModelSummary inspect_model(const config::RunConfig& config) {
  try {
    validate(config);
    const DataSplit data = load_dataset(config);
    auto model = make_model(config, data.train.inputs.sizes().slice(1), data.num_outputs);
    std::vector<int64_t> rows{0};
    if (data.train.size() > 1) rows.push_back(1);
    check_forward(*model, config, gather_batch(data.train, rows).first, data.num_outputs);
    return traits_of(config, *model);
  } catch (const TrainError&) {
    throw;
  } catch (const std::exception& e) {
    throw TrainError(e.what());
  }
}

}  // namespace parity::train
