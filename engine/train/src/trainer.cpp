// One rank's set-up and end (the class in trainer_rank.h; its loop in trainer_loop.cpp), and
// train(), which builds one and runs it.
#include <parity/config/valid_config.h>
#include <parity/launch/startup_trace.h>
#include <parity/train/blas_check.h>
#include <parity/train/models.h>
#include <parity/train/optimizer_step.h>
#include <parity/train/seed.h>
#include <parity/train/trainer.h>
#include <torch/torch.h>

#include <mutex>

#include "trainer_rank.h"

namespace parity::train {
namespace detail {
namespace {

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

}  // namespace

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
  plan_ = config::plan_setup(config::ValidConfig::make(config_), n);  // validated by checked()
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

}  // namespace detail

launch::RunEnd train(const config::RunConfig& config, const launch::DistEnv& env,
                     launch::StepSink* sink, const TrainerOptions& options) {
  detail::Trainer trainer(config, env, sink, options);
  return trainer.run();
}

}  // namespace parity::train
