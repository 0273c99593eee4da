#include "evaluator.h"

#include <parity/config/sampler.h>

#include <cmath>

#include "autocast_scope.h"
#include "loss.h"

namespace parity::train {

Evaluator::Evaluator(const TensorDataset& test, const config::RunConfig& config,
                     int64_t num_outputs, const launch::DistEnv& env, Collectives* pg,
                     torch::Device device, int64_t batch_size)
    : test_(test),
      loss_(config.effective_loss()),
      task_(config.task),
      mixed_precision_(config.mixed_precision),
      device_kind_(config.device),
      num_outputs_(num_outputs),
      world_size_(env.world_size),
      rank_(env.rank),
      pg_(pg),
      device_(device),
      batch_size_(batch_size) {}

EvalResult Evaluator::evaluate(Model& model) const {
  torch::NoGradGuard no_grad;
  model.train(false);
  config::ShardOptions opts;
  opts.batch_size = batch_size_;
  opts.num_replicas = world_size_;
  opts.rank = rank_;
  opts.even_batches = false;
  config::DistributedBatchSampler sampler(test_.size(), 0, opts, config::SampleOrder::kSequential);
  double loss_sum = 0, correct = 0, count = 0;
  for (const auto& batch : sampler.batches()) {
    auto [x, y] = gather_batch(test_, batch);
    x = x.to(device_);
    y = y.to(device_);
    torch::Tensor out;
    {
      AutocastScope autocast(mixed_precision_, device_kind_);
      out = model.forward(x);
    }
    if (test_.tokens()) {  // per token: the loss and accuracy of each next-token prediction
      loss_sum += compute_token_loss(out, y, Reduction::kSum).item<double>();
      const int64_t len = y.size(1);
      if (len > 1) {
        auto labels = y.narrow(1, 1, len - 1);
        auto hits =
            out.narrow(1, 0, len - 1).argmax(2).eq(labels).logical_and(labels.ne(kIgnoreIndex));
        correct += hits.sum().item<double>();
      }
      count += static_cast<double>(count_items(y, /*tokens=*/true));
      continue;
    }
    loss_sum += compute_loss(loss_, out, y, num_outputs_, Reduction::kSum).item<double>();
    if (loss_ == config::LossKind::kCrossEntropy || y.scalar_type() == torch::kInt64) {
      correct += out.argmax(1).eq(y).sum().item<double>();
    }
    count += static_cast<double>(batch.size());
  }
  auto sums = torch::tensor({loss_sum, correct, count}, torch::kFloat64);
  if (pg_) {
    // NCCL reduces device tensors only.
    std::vector<torch::Tensor> t{sums.to(device_)};
    pg_->allreduce(t)->wait();
    sums = t[0].to(torch::kCPU);
  }
  model.train(true);
  EvalResult r;
  const auto* s = sums.data_ptr<double>();
  r.samples = static_cast<int64_t>(s[2]);
  r.loss = s[2] > 0 ? s[0] / s[2] : std::nan("");
  if (task_ == config::Task::kClassification) r.accuracy = s[2] > 0 ? s[1] / s[2] : 0;
  return r;
}

}  // namespace parity::train
