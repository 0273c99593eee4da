// The loop of one rank (trainer_rank.h): the epoch's order, micro-batches, gradient sync,
// optimizer steps, the stop rules and evaluation.
#include <parity/launch/startup_trace.h>
#include <parity/train/optimizer_step.h>
#include <torch/torch.h>

#include <cmath>

#include "autocast_scope.h"
#include "loss.h"
#include "trainer_rank.h"

namespace parity::train::detail {
namespace {

// What a DataLoader iterator or a RandomSampler without a generator draws from the global
// generator: torch.empty((), dtype=torch.int64).random_().
int64_t draw_from_global_generator() {
  return torch::empty({}, torch::kInt64).random_().item<int64_t>();
}

}  // namespace

// The epoch's order as the sampler draws it. Accelerate's default (use_seedable_sampler false)
// follows torch's DataLoader: the iterator first draws its base seed from the global generator;
// then one process's RandomSampler draws its seed from it too and shuffles with
// randperm(N, Generator().manual_seed(seed)), while several processes' samplers draw from the
// unseeded generator Accelerate gave them.
void Trainer::draw_epoch_order(int epoch) {
  const config::DataOrder order = config::data_order(config_);
  if (order == config::DataOrder::kSeedable) {
    sampler_->set_epoch(epoch);
    return;
  }
  const int64_t n = data_.train.size();
  draw_from_global_generator();  // the DataLoader iterator's base seed
  if (order == config::DataOrder::kGlobalGenerator) {
    sampler_->set_epoch_order(config::epoch_permutation(n, draw_from_global_generator()));
  } else {
    sampler_->set_epoch_order(unseeded_order_.randperm(n));
    // torch's RandomSampler ends each pass with randperm(n)[:num_samples % n]: a second
    // permutation drawn and dropped (empty when num_samples == n), so the carried generator
    // moves on two permutations an epoch.
    unseeded_order_.randperm(n);
  }
}

// Every rank walks the longest rank's micro-batch count, so all ranks reach the same syncs even
// when even_batches=false leaves some with fewer batches.
void Trainer::train_epoch(int epoch) {
  draw_epoch_order(epoch);
  const auto& mine = sampler_->batches();
  int64_t micro_total = 0;
  for (auto c : sampler_->batches_per_rank()) micro_total = std::max(micro_total, c);
  for (int64_t i = 0; i < micro_total && !done_; ++i) {
    gradient_state_.begin_micro_batch(i, micro_total);
    if (global_normalization() && i % config_.gradient_accumulation_steps == 0) {
      count_step_items(i, micro_total);
    }
    if (i < static_cast<int64_t>(mine.size())) {
      // The gradient hooks start the allreduce during this backward only when the step syncs.
      grad_sync_->prepare_for_backward(gradient_state_.sync_gradients);
      forward_backward(mine[static_cast<size_t>(i)]);
      if (auto* started = options_.test_hooks.buckets_started_in_backward)
        *started += grad_sync_->buckets_started();
    }
    if (!gradient_state_.sync_gradients) continue;  // no communication on non-syncing batches
    optimizer_step(epoch + static_cast<double>(i + 1) / static_cast<double>(micro_total));
  }
}

// The items of this rank's micro-batches [first, group end), summed over the ranks with the
// number of ranks that have any: global normalisation's denominator, known before the forwards
// as Accelerate's recipe and transformers' num_items_in_batch know it.
void Trainer::count_step_items(int64_t first, int64_t micro_total) {
  const auto& mine = sampler_->batches();
  const int64_t end = std::min<int64_t>(first + config_.gradient_accumulation_steps, micro_total);
  double items = 0;
  bool any = false;
  for (int64_t i = first; i < end && i < static_cast<int64_t>(mine.size()); ++i) {
    const auto targets = gather_batch(data_.train, mine[static_cast<size_t>(i)]).second;
    items += static_cast<double>(count_items(targets, data_.train.tokens()));
    any = true;
  }
  auto counts = torch::tensor({items, any ? 1.0 : 0.0}, torch::kFloat64);
  if (pg_) {
    std::vector<torch::Tensor> t{counts.to(device_)};
    pg_->allreduce(t)->wait();
    counts = t[0].to(torch::kCPU);
  }
  step_items_.total = counts[0].item<double>();
  step_items_.participants = static_cast<int>(counts[1].item<double>() + 0.5);
}

void Trainer::forward_backward(const std::vector<int64_t>& batch) {
  auto t0 = Clock::now();
  auto [x, y] = gather_batch(data_.train, batch);
  auto t1 = Clock::now();
  broadcast_buffers();
  torch::Tensor out;
  {
    AutocastScope autocast(config_.mixed_precision, config_.device);
    out = model_->forward(x);
  }
  const bool tokens = data_.train.tokens();
  const bool global = global_normalization();
  const Reduction reduction = global ? Reduction::kSum : Reduction::kMean;
  auto loss = tokens ? compute_token_loss(out, y, reduction)
                     : compute_loss(loss_kind_, out, y, data_.num_outputs, reduction);
  auto t2 = Clock::now();
  if (global) {
    // This rank's item losses over the step's items on every rank, times the ranks the gradient
    // average divides by: the gradient of the mean over every item of the optimizer step.
    const double scale = step_items_.total > 0 ? step_items_.participants / step_items_.total : 0;
    scaler_.scale(loss * scale).backward();
  } else {
    // Divided by num_steps whatever the group's size, as Accelerate does: a short last group is
    // under-weighted.
    scaler_.scale(loss * (1.0 / gradient_state_.num_steps)).backward();
  }
  auto t3 = Clock::now();
  pending_.loss_sum += loss.item<double>();
  ++pending_.micro_batches;
  pending_.samples += static_cast<int64_t>(batch.size());
  end_.phases.data_s += seconds_between(t0, t1);
  end_.phases.forward_s += seconds_between(t1, t2);
  end_.phases.backward_s += seconds_between(t2, t3);
}

void Trainer::optimizer_step(double epoch_position) {
  auto t4 = Clock::now();
  LocalStepMetrics local;
  local.participated = pending_.micro_batches > 0;
  if (global_normalization()) {
    // Averaged over the participating ranks by the sync: the loss over all the step's items.
    local.loss = step_items_.total > 0
                     ? pending_.loss_sum * step_items_.participants / step_items_.total
                     : 0.0;
  } else {
    local.loss = pending_.micro_batches > 0 ? pending_.loss_sum / pending_.micro_batches : 0.0;
  }
  local.samples = pending_.samples;
  pending_ = {};
  const GlobalStepMetrics global = grad_sync_->sync(local);
  auto t5 = Clock::now();
  end_.phases.sync_s += seconds_between(t4, t5);

  ++step_;
  samples_ += global.samples;
  const OptimizerStepResult taken = take_optimizer_step(*optimizer_, scaler_, *scheduler_, params_);
  end_.phases.optimizer_s += seconds_since(t5);

  train_time_ = seconds_since(t_train_) - end_.phases.eval_s;
  if (step_ == 1) launch::startup_mark("first_step");
  record_step(global, taken.lr, epoch_position);
  if (options_.heartbeat) options_.heartbeat(step_);
  check_stop(global.loss, taken.lr);
}

void Trainer::record_step(const GlobalStepMetrics& global, double lr, double epoch_position) {
  if (!is_main_process_) return;
  launch::StepRecord r;
  r.step = step_;
  r.epoch = epoch_position;
  r.samples = samples_;
  r.loss = global.loss;
  r.rank_losses = global.rank_losses;
  r.lr = lr;
  r.time_s = seconds_since(t_train_);
  sink_->on_step(r);
}

// The global loss is the same on every rank, so every rank stops at the same step.
void Trainer::check_stop(double loss, double lr) {
  if (!std::isfinite(loss)) {
    end_.outcome = launch::RunOutcome::kDiverged;
    end_.message = "loss became " + std::string(std::isnan(loss) ? "NaN" : "inf") + " at step " +
                   std::to_string(step_) + " (lr " + std::to_string(lr) + ")";
    done_ = true;
  } else if (config_.max_steps > 0 && step_ >= config_.max_steps) {
    done_ = true;
  } else if (options_.stop && options_.stop->load()) {
    end_.outcome = launch::RunOutcome::kStopped;
    end_.message = "stopped by the user at step " + std::to_string(step_);
    done_ = true;
  }
}

void Trainer::evaluate(int epoch) {
  auto t_eval = Clock::now();
  // The evaluation loader's iterator draws its base seed too, which moves the global generator
  // the next epoch's order is drawn from (Accelerate's default only: the seeded sampler's order
  // does not depend on it).
  if (!config_.use_seedable_sampler) draw_from_global_generator();
  broadcast_buffers();
  const EvalResult ev = evaluator_->evaluate(*model_);
  end_.phases.eval_s += seconds_since(t_eval);
  if (!is_main_process_) return;
  launch::EvalRecord er;
  er.epoch = epoch + 1;
  er.step = step_;
  er.samples = samples_;
  er.loss = ev.loss;
  er.accuracy = ev.accuracy;
  sink_->on_eval(er);
}

}  // namespace parity::train::detail
