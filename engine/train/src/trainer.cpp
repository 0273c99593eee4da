#include <parity/train/trainer.h>

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <mutex>

#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>
#include <parity/train/blas_check.h>
#include <parity/train/seed.h>

#include "datasets.h"
#include "grad_sync.h"
#include "models.h"
#include "process_group.h"

#define PARITY_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) ||               \
   (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace parity::engine {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Autocast for one forward pass (bf16 on CPU or CUDA, fp16 on CUDA); outputs are cast to fp32
// before the loss.
class AutocastScope {
 public:
  AutocastScope(MixedPrecision mp, Device device) : active_(mp != MixedPrecision::kNo) {
    if (!active_) return;
    const auto dtype = mp == MixedPrecision::kBf16 ? at::kBFloat16 : at::kHalf;
    cuda_ = device == Device::kCuda;
    set_enabled(true);
#if PARITY_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_dtype(cuda_ ? at::kCUDA : at::kCPU, dtype);
#else
    if (cuda_) {
      at::autocast::set_autocast_gpu_dtype(dtype);
    } else {
      at::autocast::set_autocast_cpu_dtype(dtype);
    }
#endif
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!active_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set_enabled(false);
  }

 private:
  // LibTorch 2.4 replaced the per-device functions (set_enabled for CUDA, set_cpu_enabled, ...)
  // by ones taking the device type, and 2.x warns on the old ones.
  void set_enabled(bool on) const {
#if PARITY_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_enabled(cuda_ ? at::kCUDA : at::kCPU, on);
#else
    if (cuda_) {
      at::autocast::set_enabled(on);
    } else {
      at::autocast::set_cpu_enabled(on);
    }
#endif
  }

  bool active_;
  bool cuda_ = false;
};

// The loss in fp32 whatever the forward ran in: the batch mean, or with `sum` the sum over samples
// (for evaluation, so ranks' shares add up exactly).
torch::Tensor compute_loss(LossKind loss, const torch::Tensor& output, const torch::Tensor& target,
                           int64_t num_outputs, bool sum = false) {
  namespace F = torch::nn::functional;
  auto out = output.to(torch::kFloat32);
  if (loss == LossKind::kCrossEntropy) {
    auto l = F::cross_entropy(out, target, F::CrossEntropyFuncOptions().reduction(torch::kNone));
    return sum ? l.sum() : l.mean();
  }
  auto t = target.scalar_type() == torch::kInt64
               ? torch::one_hot(target, num_outputs).to(torch::kFloat32)
               : target;
  auto per_sample = F::mse_loss(out, t, F::MSELossFuncOptions(torch::kNone)).mean(1);
  return sum ? per_sample.sum() : per_sample.mean();
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const RunConfig& c,
                                                        std::vector<torch::Tensor> params,
                                                        double lr) {
  if (c.optimizer == OptimizerKind::kAdamW) {
    return std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(lr).weight_decay(c.weight_decay));
  }
  return std::make_unique<torch::optim::SGD>(
      params, torch::optim::SGDOptions(lr).momentum(c.momentum).weight_decay(c.weight_decay));
}

void set_lr(torch::optim::Optimizer& opt, double lr) {
  for (auto& group : opt.param_groups()) group.options().set_lr(lr);
}

// DDP broadcasts rank 0's parameters at construction, so a device-specific seed cannot leave the
// replicas different.
void broadcast_parameters(const std::vector<torch::Tensor>& params, Collectives& pg) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> flat{torch::cat(
      [&] {
        std::vector<torch::Tensor> v;
        for (const auto& p : params) v.push_back(p.reshape({-1}));
        return v;
      }())};
  pg.broadcast(flat)->wait();
  int64_t offset = 0;
  for (const auto& p : params) {
    p.copy_(flat[0].narrow(0, offset, p.numel()).view(p.sizes()));
    offset += p.numel();
  }
}

struct EvalResult {
  double loss = 0;
  double accuracy = -1;
  int64_t samples = 0;
};

// Each test sample is evaluated exactly once across ranks (no even_batches padding to drop), and
// sums are all-reduced: the same numbers as gathering every prediction on one rank.
EvalResult evaluate(torch::nn::Sequential& model, const TensorDataset& test, const RunConfig& c,
                    LossKind loss, int64_t num_outputs, const DistEnv& env,
                    Collectives* pg, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  model->eval();
  ShardOptions opts;
  opts.batch_size = 1000;
  opts.num_replicas = env.world_size;
  opts.rank = env.rank;
  opts.even_batches = false;
  DistributedBatchSampler sampler(test.size(), 0, opts, /*shuffle=*/false);
  double loss_sum = 0, correct = 0, count = 0;
  for (const auto& batch : sampler.batches()) {
    auto [x, y] = gather_batch(test, batch);
    x = x.to(device);
    y = y.to(device);
    torch::Tensor out;
    {
      AutocastScope autocast(c.mixed_precision, c.device);
      out = model->forward(x);
    }
    loss_sum += compute_loss(loss, out, y, num_outputs, /*sum=*/true).item<double>();
    if (loss == LossKind::kCrossEntropy || y.scalar_type() == torch::kInt64) {
      correct += out.argmax(1).eq(y).sum().item<double>();
    }
    count += static_cast<double>(batch.size());
  }
  auto sums = torch::tensor({loss_sum, correct, count}, torch::kFloat64);
  if (pg) {
    // NCCL reduces device tensors only.
    std::vector<torch::Tensor> t{sums.to(device)};
    pg->allreduce(t)->wait();
    sums = t[0].to(torch::kCPU);
  }
  model->train();
  EvalResult r;
  const auto* s = sums.data_ptr<double>();
  r.samples = static_cast<int64_t>(s[2]);
  r.loss = s[2] > 0 ? s[0] / s[2] : std::nan("");
  if (c.task == Task::kClassification) r.accuracy = s[2] > 0 ? s[1] / s[2] : 0;
  return r;
}

// Model initialisation draws from the process-wide generator; tests run ranks as threads.
std::mutex& init_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

RunEnd train(const RunConfig& config, const DistEnv& env, StepSink* sink,
             const TrainerOptions& options) {
  validate(config);
  if (env.world_size != config.num_processes) {
    throw TrainError("WORLD_SIZE " + std::to_string(env.world_size) + " does not match num_processes " +
                     std::to_string(config.num_processes));
  }
  const auto t_setup = Clock::now();
  if (env.threads > 0) at::set_num_threads(env.threads);
  const bool reporter = env.rank == 0 && sink != nullptr;
  const torch::Device device =
      config.device == Device::kCuda ? torch::Device(torch::kCUDA, env.local_rank) : torch::kCPU;

  if (device.is_cuda()) {
    const auto devices = static_cast<int64_t>(torch::cuda::device_count());
    if (devices == 0) {
      throw TrainError(
          "device cuda: no CUDA device is visible to this process (torch::cuda::device_count() "
          "is 0: no GPU, CUDA_VISIBLE_DEVICES, or a LibTorch whose CUDA library was not loaded)");
    }
    if (env.local_rank >= devices) {
      throw TrainError("device cuda: local rank " + std::to_string(env.local_rank) + " needs cuda:" +
                       std::to_string(env.local_rank) + " but this machine shows " +
                       std::to_string(devices) +
                       " device(s); one GPU cannot host two NCCL ranks, use --num-processes <= " +
                       std::to_string(devices));
    }
    // PyTorch's defaults are kept: cuDNN convolutions may use TF32, matrix products do not.
    // PARITY_CUDNN_TF32=0 turns TF32 off for convolutions too (CPU-vs-CUDA comparisons).
    if (const char* tf32 = std::getenv(kEnvCudnnTf32); tf32 && *tf32) {
      at::globalContext().setAllowTF32CuDNN(std::string(tf32) != "0");
    }
  }

  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<Collectives> pg;
  if (env.world_size > 1 || env.force_process_group) {
    store = make_store(env);
    pg = make_process_group(store, env, config.device);
  }

  DataSplit data;
  try {
    data = load_dataset(config);
  } catch (const std::exception& e) {
    throw TrainError(e.what());
  }
  const int64_t n = data.train.size();
  const LossKind loss_kind = config.effective_loss();

  torch::nn::Sequential model;
  {
    std::lock_guard<std::mutex> lock(init_mutex());
    set_seed(config.seed, config.device_specific_seed, env.rank);
    model = make_model(config, data.train.inputs.sizes().slice(1), data.num_outputs);
  }
  model->to(device);
  if (device.is_cuda()) {
    data.train = {data.train.inputs.to(device), data.train.targets.to(device)};
    data.test = {data.test.inputs.to(device), data.test.targets.to(device)};
  }
  std::vector<torch::Tensor> params = model->parameters();
  if (pg) broadcast_parameters(params, *pg);

  const SetupPlan plan = plan_setup(config, n);
  const double base_lr = effective_lr(config);
  const int sched_per_step = scheduler_steps_per_optimizer_step(config);
  LrSchedule schedule(config, plan.total_optimizer_steps * sched_per_step);
  auto optimizer = make_optimizer(config, params, base_lr);
  GradientSync grad_sync(params, pg, env.world_size, env.rank);

  // WORLD_SIZE equals num_processes (checked above).
  DistributedBatchSampler sampler(n, config.effective_data_seed(), shard_options(config, env.rank));

  RunEnd end;
  if (reporter) {
    RunStart start;
    start.total_steps = plan.total_optimizer_steps;
    start.steps_per_epoch = plan.optimizer_steps_per_epoch;
    start.train_samples = n;
    start.test_samples = data.test.size();
    start.effective_lr = base_lr;
    start.blas_warning = check_blas().message;
    sink->on_start(start);
  }
  end.phases.setup_s = seconds_since(t_setup);

  const int k = config.gradient_accumulation_steps;
  const bool fp16 = config.mixed_precision == MixedPrecision::kFp16;
  double scale = fp16 ? 65536.0 : 1.0;
  int good_steps = 0;
  int64_t step = 0, sched_pos = 0, samples = 0;
  double train_time = 0;
  const auto t_train = Clock::now();
  bool done = false;
  optimizer->zero_grad();

  for (int epoch = 0; epoch < config.epochs && !done; ++epoch) {
    sampler.set_epoch(epoch);
    const auto& mine = sampler.batches();
    int64_t micro_total = 0;
    for (auto c : sampler.batches_per_rank()) micro_total = std::max(micro_total, c);
    double loss_sum = 0;
    int my_micro = 0;
    int64_t my_samples = 0;
    for (int64_t i = 0; i < micro_total && !done; ++i) {
      const bool sync_now = (i + 1) % k == 0 || i + 1 == micro_total;
      if (i < static_cast<int64_t>(mine.size())) {
        auto t0 = Clock::now();
        auto [x, y] = gather_batch(data.train, mine[static_cast<size_t>(i)]);
        auto t1 = Clock::now();
        torch::Tensor out;
        {
          AutocastScope autocast(config.mixed_precision, config.device);
          out = model->forward(x);
        }
        auto loss = compute_loss(loss_kind, out, y, data.num_outputs);
        auto t2 = Clock::now();
        // Divided by k whatever the group's size, as Accelerate does: a short last group is
        // under-weighted.
        (loss * (scale / k)).backward();
        auto t3 = Clock::now();
        loss_sum += loss.item<double>();
        ++my_micro;
        my_samples += static_cast<int64_t>(mine[static_cast<size_t>(i)].size());
        end.phases.data_s += std::chrono::duration<double>(t1 - t0).count();
        end.phases.forward_s += std::chrono::duration<double>(t2 - t1).count();
        end.phases.backward_s += std::chrono::duration<double>(t3 - t2).count();
      }
      if (!sync_now) continue;  // no communication on micro-batches that do not sync

      auto t4 = Clock::now();
      LocalStepMetrics local;
      local.participated = my_micro > 0;
      local.loss = my_micro > 0 ? loss_sum / my_micro : 0.0;
      local.samples = my_samples;
      const GlobalStepMetrics global = grad_sync.sync(local);
      auto t5 = Clock::now();
      end.phases.sync_s += std::chrono::duration<double>(t5 - t4).count();

      ++step;
      samples += global.samples;
      const double lr = base_lr * schedule.factor(sched_pos);
      bool stepped = true;
      if (fp16) {
        bool finite = true;
        for (auto& p : params) {
          if (p.grad().defined() && !torch::isfinite(p.grad()).all().item<bool>()) {
            finite = false;
            break;
          }
        }
        if (!finite) {
          stepped = false;  // overflow: skip the optimizer and the scheduler, shrink the scale
          scale *= 0.5;
          good_steps = 0;
        } else {
          torch::NoGradGuard no_grad;
          for (auto& p : params)
            if (p.grad().defined()) p.mutable_grad().div_(scale);
          if (++good_steps == 2000) {
            scale *= 2;
            good_steps = 0;
          }
        }
      }
      if (stepped) {
        set_lr(*optimizer, lr);
        optimizer->step();
        sched_pos += sched_per_step;
      }
      optimizer->zero_grad();
      end.phases.optimizer_s += seconds_since(t5);

      train_time = seconds_since(t_train) - end.phases.eval_s;
      if (reporter) {
        StepRecord r;
        r.step = step;
        r.epoch = epoch + static_cast<double>(i + 1) / static_cast<double>(micro_total);
        r.samples = samples;
        r.loss = global.loss;
        r.rank_losses = global.rank_losses;
        r.lr = lr;
        r.time_s = seconds_since(t_train);
        sink->on_step(r);
      }
      if (options.heartbeat) options.heartbeat(step);
      loss_sum = 0;
      my_micro = 0;
      my_samples = 0;

      if (!std::isfinite(global.loss)) {
        end.outcome = RunOutcome::kDiverged;
        end.message = "loss became " + std::string(std::isnan(global.loss) ? "NaN" : "inf") +
                      " at step " + std::to_string(step) + " (lr " + std::to_string(lr) + ")";
        done = true;
      } else if (config.max_steps > 0 && step >= config.max_steps) {
        done = true;
      } else if (options.stop && options.stop->load()) {
        end.outcome = RunOutcome::kStopped;
        end.message = "stopped by the user at step " + std::to_string(step);
        done = true;
      }
    }
    // Evaluated after every epoch, and after the last step of a run cut short by max_steps.
    if (config.eval_every_epoch && end.outcome == RunOutcome::kFinished) {
      auto t_eval = Clock::now();
      EvalResult ev = evaluate(model, data.test, config, loss_kind, data.num_outputs, env,
                               pg.get(), device);
      end.phases.eval_s += seconds_since(t_eval);
      if (reporter) {
        EvalRecord er;
        er.epoch = epoch + 1;
        er.step = step;
        er.samples = samples;
        er.loss = ev.loss;
        er.accuracy = ev.accuracy;
        sink->on_eval(er);
      }
    }
  }
  end.steps = step;
  if (options.final_parameters) {
    options.final_parameters->clear();
    for (const auto& p : params) {
      auto flat = p.detach().to(torch::kCPU, torch::kFloat64).reshape({-1}).contiguous();
      const double* d = flat.data_ptr<double>();
      options.final_parameters->insert(options.final_parameters->end(), d, d + flat.numel());
    }
  }
  end.samples_per_s = train_time > 0 ? static_cast<double>(samples) / train_time : 0;
  if (reporter) sink->on_end(end);
  return end;
}

}  // namespace parity::engine
