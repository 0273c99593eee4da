#include <parity/train/grad_transport.h>
#include <unistd.h>

#include <filesystem>
#include <random>

namespace parity::train {
namespace {

constexpr char kSegmentKey[] = "parity/shm_allreduce_segment";

// A name no other run (nor a leftover of this one) has: rank 0's pid and 64 random bits.
std::string fresh_segment_path(const launch::DistEnv& env) {
  std::random_device device;
  const uint64_t nonce = (static_cast<uint64_t>(device()) << 32) ^ device();
  char name[96];
  std::snprintf(name, sizeof(name), "parity-allreduce-%d-%016llx", static_cast<int>(::getpid()),
                static_cast<unsigned long long>(nonce));
  return (std::filesystem::path(shm_segment_folder(env)) / name).string();
}

}  // namespace

void ProcessGroupTransport::allreduce_sum(std::vector<torch::Tensor>& flats) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (auto& flat : flats) {
    std::vector<torch::Tensor> t{flat};
    works.push_back(pg_->allreduce(t));
  }
  for (auto& w : works) w->wait();
}

void ProcessGroupTransport::start(const torch::Tensor& flat) {
  std::vector<torch::Tensor> t{flat};
  started_.push_back(pg_->allreduce(t));
}

void ProcessGroupTransport::wait_all() {
  auto started = std::move(started_);
  started_.clear();
  for (auto& w : started) w->wait();
}

namespace {
void check_shm_tensor(const torch::Tensor& flat) {
  TORCH_CHECK(flat.is_cpu() && flat.is_contiguous() && flat.scalar_type() == torch::kFloat32,
              "the shared-memory allreduce takes contiguous fp32 CPU tensors");
}
}  // namespace

ShmTransport::~ShmTransport() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ShmTransport::allreduce_sum(std::vector<torch::Tensor>& flats) {
  wait_all();
  for (auto& flat : flats) {
    check_shm_tensor(flat);
    shm_->allreduce_sum(flat.data_ptr<float>(), flat.numel());
  }
}

void ShmTransport::start(const torch::Tensor& flat) {
  check_shm_tensor(flat);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(flat);
    ++unfinished_;
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
  changed_.notify_all();
}

void ShmTransport::wait_all() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return unfinished_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

void ShmTransport::serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    torch::Tensor flat = std::move(queue_.front());
    queue_.pop_front();
    const bool failed = error_ != nullptr;
    lock.unlock();
    std::exception_ptr error;
    // After a failure the segment is aborted: the rest of the queue is dropped, not reduced.
    if (!failed) {
      try {
        shm_->allreduce_sum(flat.data_ptr<float>(), flat.numel());
      } catch (...) {
        error = std::current_exception();
      }
    }
    lock.lock();
    if (error && !error_) error_ = error;
    --unfinished_;
    changed_.notify_all();
  }
}

std::string shm_segment_folder(const launch::DistEnv& env) {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec)) return "/dev/shm";
  return std::filesystem::path(env.store_path).parent_path().string();
}

std::shared_ptr<GradTransport> make_grad_transport(const launch::DistEnv& env,
                                                   config::Device device,
                                                   const c10::intrusive_ptr<c10d::Store>& store,
                                                   const c10::intrusive_ptr<Collectives>& pg) {
  if (!pg) return nullptr;
  const bool cuda = device == config::Device::kCuda;
  const bool one_node = !env.store_path.empty();
  if (env.transport == launch::TransportKind::kShm && (cuda || !one_node)) {
    throw TrainError(
        std::string(launch::kEnvTransport) +
        "=shm: the shared-memory transport is for CPU ranks of one machine; this run " +
        (cuda ? "is on CUDA" : "spans machines"));
  }
  if (cuda || !one_node || env.transport == launch::TransportKind::kGloo || env.world_size < 2) {
    return std::make_shared<ProcessGroupTransport>(pg, cuda ? "nccl" : "gloo");
  }
  std::string path;
  if (env.rank == 0) {
    path = fresh_segment_path(env);
    store->set(kSegmentKey, std::vector<uint8_t>(path.begin(), path.end()));
  } else {
    const auto bytes = store->get(kSegmentKey);
    path.assign(bytes.begin(), bytes.end());
  }
  ShmAllreduceOptions options;
  options.timeout_s = env.collective_timeout_s;
  return std::make_shared<ShmTransport>(
      std::make_unique<ShmAllreduce>(path, env.rank, env.world_size, options));
}

}  // namespace parity::train
