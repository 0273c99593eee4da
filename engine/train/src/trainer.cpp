#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>
#include <parity/launch/startup_trace.h>
#include <parity/train/blas_check.h>
#include <parity/train/seed.h>
#include <parity/train/trainer.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>

#include "autocast_scope.h"
#include "datasets.h"
#include "evaluator.h"
#include "grad_scaler.h"
#include "grad_sync.h"
#include "gradient_state.h"
#include "loss.h"
#include "models.h"
#include "optimizer_step.h"
#include "process_group.h"

namespace parity::train {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

constexpr int64_t kEvalBatchSize = 1000;

// Model initialisation draws from the process-wide generator, and ranks run as threads in tests
// and in the benchmark: seeding and building the model is one critical section. Not a test hook:
// every threaded caller needs it, and it costs nothing in a rank process.
std::mutex& init_mutex() {
  static std::mutex m;
  return m;
}

const config::RunConfig& checked(const config::RunConfig& config, const launch::DistEnv& env) {
  validate(config);
  if (env.world_size != config.num_processes) {
    throw TrainError("WORLD_SIZE " + std::to_string(env.world_size) +
                     " does not match num_processes " + std::to_string(config.num_processes));
  }
  return config;
}

// The CUDA device of this rank exists (one NCCL rank per GPU); TF32 for convolutions as asked.
void check_cuda_device(const launch::DistEnv& env) {
  const auto devices = static_cast<int64_t>(torch::cuda::device_count());
  if (devices == 0) {
    throw TrainError(
        "device cuda: no CUDA device is visible to this process (torch::cuda::device_count() "
        "is 0: no GPU, CUDA_VISIBLE_DEVICES, or a LibTorch whose CUDA library was not loaded)");
  }
  if (env.local_rank >= devices) {
    throw TrainError("device cuda: local rank " + std::to_string(env.local_rank) +
                     " needs cuda:" + std::to_string(env.local_rank) + " but this machine shows " +
                     std::to_string(devices) +
                     " device(s); one GPU cannot host two NCCL ranks, use --num-processes <= " +
                     std::to_string(devices));
  }
  // PyTorch's defaults are kept: cuDNN convolutions may use TF32, matrix products do not.
  // PARITY_CUDNN_TF32=0 turns TF32 off for convolutions too (CPU-vs-CUDA comparisons).
  if (const char* tf32 = std::getenv(launch::kEnvCudnnTf32); tf32 && *tf32) {
    at::globalContext().setAllowTF32CuDNN(std::string(tf32) != "0");
  }
}

// This rank's micro-batches since the last sync.
struct PendingStep {
  double loss_sum = 0;  // of micro-batch means (per-batch), or of item losses (global)
  int micro_batches = 0;
  int64_t samples = 0;
};

// With global normalisation: the items (tokens, or samples) of the whole optimizer step, over
// every rank, and how many ranks take part; all-reduced at the group's first micro-batch.
struct StepItems {
  double total = 0;
  int participants = 0;
};

/// One rank of a data-parallel run, as Accelerate runs it. The constructor sets everything up;
/// run() is the algorithm: epochs, micro-batches, optimizer steps, evaluation.
class Trainer {
 public:
  Trainer(const config::RunConfig& config, const launch::DistEnv& env, launch::StepSink* sink,
          const TrainerOptions& options);
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  launch::RunEnd run();

 private:
  void set_up_process_group();
  void set_up_data_and_model();
  void set_up_optimization();
  void report_start();
  void train_epoch(int epoch);
  void draw_epoch_order(int epoch);
  void forward_backward(const std::vector<int64_t>& batch);
  void count_step_items(int64_t first, int64_t micro_total);
  void broadcast_buffers();
  void optimizer_step(double epoch_position);
  void record_step(const GlobalStepMetrics& global, double lr, double epoch_position);
  void check_stop(double loss, double lr);
  void evaluate(int epoch);
  launch::RunEnd finish();
  bool global_normalization() const {
    return config_.loss_normalization == config::LossNormalization::kGlobal;
  }

  const config::RunConfig& config_;
  const launch::DistEnv& env_;
  launch::StepSink* sink_;
  const TrainerOptions& options_;
  const Clock::time_point t_setup_ = Clock::now();
  /// The reporting rank: rank 0, when it was given a sink.
  const bool is_main_process_;
  const torch::Device device_;

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<Collectives> pg_;
  DataSplit data_;
  config::LossKind loss_kind_ = config::LossKind::kAuto;
  std::unique_ptr<Model> model_;
  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> buffers_;
  config::SetupPlan plan_;
  double base_lr_ = 0;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::optional<AcceleratedScheduler> scheduler_;
  GradScaler scaler_;
  std::optional<GradientSync> grad_sync_;
  std::optional<config::DistributedBatchSampler> sampler_;
  /// Accelerate's default sampler on several processes: one unseeded torch.Generator(), its
  /// state carried across epochs (identical on every rank, as rank 0's is synchronised).
  config::RandpermGenerator unseeded_order_;
  std::optional<Evaluator> evaluator_;

  GradientState gradient_state_;
  PendingStep pending_;
  StepItems step_items_;
  int64_t step_ = 0;
  int64_t samples_ = 0;
  double train_time_ = 0;
  Clock::time_point t_train_;
  bool done_ = false;
  launch::RunEnd end_;
};

Trainer::Trainer(const config::RunConfig& config, const launch::DistEnv& env,
                 launch::StepSink* sink, const TrainerOptions& options)
    : config_(checked(config, env)),
      env_(env),
      sink_(sink),
      options_(options),
      is_main_process_(env.rank == 0 && sink != nullptr),
      device_(config.device == config::Device::kCuda ? torch::Device(torch::kCUDA, env.local_rank)
                                                     : torch::Device(torch::kCPU)),
      scaler_([&] {
        GradScalerOptions o;
        o.enabled = config.mixed_precision == config::MixedPrecision::kFp16;
        return o;
      }()) {
  if (env_.threads > 0) at::set_num_threads(env_.threads);
  if (device_.is_cuda()) check_cuda_device(env_);
  set_up_process_group();
  set_up_data_and_model();
  set_up_optimization();
  launch::startup_mark("optimization");
}

void Trainer::set_up_process_group() {
  if (env_.world_size > 1 || env_.force_process_group) {
    store_ = make_store(env_);
    launch::startup_mark("store");
    pg_ = make_process_group(store_, env_, config_.device);
    launch::startup_mark("process_group");
  }
}

void Trainer::set_up_data_and_model() {
  try {
    data_ = load_dataset(config_);
    launch::startup_mark("dataset");
  } catch (const std::exception& e) {
    throw TrainError(e.what());
  }
  loss_kind_ = config_.effective_loss();
  {
    std::lock_guard<std::mutex> lock(init_mutex());
    set_seed(config_.seed, config_.device_specific_seed, env_.rank);
    try {
      model_ =
          make_model(config_, data_.train.inputs.sizes().slice(1), data_.num_outputs, pg_.get());
    } catch (const std::exception& e) {
      throw TrainError(e.what());
    }
  }
  model_->to(device_);
  if (device_.is_cuda()) {
    for (TensorDataset* d : {&data_.train, &data_.test}) {
      if (d->size() == 0) continue;
      // IDX pixels are converted whole, on the CPU: CUDA divides by a scalar as a product with
      // its reciprocal, which would change the inputs' bits.
      d->inputs = float_inputs(*d).to(device_);
      d->pixels.reset();
      d->targets = d->targets.to(device_);  // lengths stay on the CPU
    }
  }
  // Refused before training when its forward does not take the data (a user's module).
  try {
    std::vector<int64_t> rows{0};
    if (data_.train.size() > 1) rows.push_back(1);
    const auto sample = gather_batch(data_.train, rows).first;
    check_forward(*model_, config_, sample, data_.num_outputs);
  } catch (const std::exception& e) {
    throw TrainError(e.what());
  }
  params_ = model_->parameters();
  buffers_ = model_->buffers();
  if (pg_) broadcast_parameters(params_, *pg_);
  broadcast_buffers();
  launch::startup_mark("model");
}

// DDP (broadcast_buffers=True) hands rank 0's buffers to every rank before each forward.
void Trainer::broadcast_buffers() {
  if (pg_ && !buffers_.empty()) broadcast_parameters(buffers_, *pg_);
}

void Trainer::set_up_optimization() {
  const int64_t n = data_.train.size();
  plan_ = config::plan_setup(config_, n);
  base_lr_ = config::effective_lr(config_);
  const int sched_per_step = config::scheduler_steps_per_optimizer_step(config_);
  config::LrSchedule schedule(config_, base_lr_, config::schedule_length(config_, n));
  if (const std::string problem = schedule.problem(); !problem.empty()) throw TrainError(problem);
  scheduler_.emplace(std::move(schedule), sched_per_step);
  optimizer_ = make_optimizer(config_, params_, base_lr_);
  const auto& hooks = options_.test_hooks;
  GradientSyncOptions sync_options;
  sync_options.bucket_bytes =
      hooks.bucket_bytes > 0 ? hooks.bucket_bytes : bucket_bytes_from_environment();
  sync_options.overlap = hooks.overlap < 0    ? overlap_mode_from_environment()
                         : hooks.overlap == 0 ? OverlapMode::kOff
                                              : OverlapMode::kOn;
  grad_sync_.emplace(params_, make_grad_transport(env_, config_.device, store_, pg_),
                     env_.world_size, env_.rank, sync_options);
  // WORLD_SIZE equals num_processes (checked by the constructor).
  sampler_.emplace(n, config_.effective_data_seed(), config::shard_options(config_, env_.rank));
  evaluator_.emplace(data_.test, config_, data_.num_outputs, env_, pg_.get(), device_,
                     hooks.eval_batch_size > 0 ? hooks.eval_batch_size : kEvalBatchSize);
  gradient_state_.num_steps = config_.gradient_accumulation_steps;
}

launch::RunEnd Trainer::run() {
  report_start();
  end_.phases.setup_s = seconds_since(t_setup_);
  t_train_ = Clock::now();
  optimizer_->zero_grad();
  for (int epoch = 0; epoch < config_.epochs && !done_; ++epoch) {
    train_epoch(epoch);
    // Evaluated after every epoch, and after the last step of a run cut short by max_steps.
    // No test data, no evaluation (run and plan say so once).
    if (config_.eval_every_epoch && end_.outcome == launch::RunOutcome::kFinished &&
        data_.test.size() > 0) {
      evaluate(epoch);
    }
  }
  return finish();
}

void Trainer::report_start() {
  if (!is_main_process_) return;
  launch::RunStart start;
  start.total_steps = plan_.total_optimizer_steps;
  start.steps_per_epoch = plan_.optimizer_steps_per_epoch;
  start.train_samples = data_.train.size();
  start.test_samples = data_.test.size();
  start.effective_lr = base_lr_;
  start.blas_warning = check_blas().message;
  start.model = traits_of(config_, *model_);
  sink_->on_start(start);
}

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

launch::RunEnd Trainer::finish() {
  end_.steps = step_;
  auto flatten = [](const std::vector<torch::Tensor>& tensors, std::vector<double>* out) {
    if (!out) return;
    out->clear();
    for (const auto& t : tensors) {
      auto flat = t.detach().to(torch::kCPU, torch::kFloat64).reshape({-1}).contiguous();
      const double* d = flat.data_ptr<double>();
      out->insert(out->end(), d, d + flat.numel());
    }
  };
  flatten(params_, options_.test_hooks.final_parameters);
  flatten(buffers_, options_.test_hooks.final_buffers);
  end_.samples_per_s = train_time_ > 0 ? static_cast<double>(samples_) / train_time_ : 0;
  if (is_main_process_) sink_->on_end(end_);
  launch::startup_mark("end");
  return end_;
}

}  // namespace

launch::RunEnd train(const config::RunConfig& config, const launch::DistEnv& env,
                     launch::StepSink* sink, const TrainerOptions& options) {
  Trainer trainer(config, env, sink, options);
  return trainer.run();
}

}  // namespace parity::train
