#pragma once
// The seam between GradientSync and the wire: a sum over ranks of flat fp32 buffers. Two ways:
// the c10d process group (Gloo over TCP, NCCL on CUDA; always across machines) and a
// shared-memory segment for the CPU ranks of one machine (shm_allreduce.h).
//
// Two ways to call it: allreduce_sum (everything, then return) for the sync after the backward,
// and start/wait_all for the overlapped sync, which starts each bucket from a gradient hook while
// the backward goes on. Buckets are reduced in the order they were started; every rank must start
// the same buckets in the same order.

#include <parity/train/process_group.h>
#include <parity/train/shm_allreduce.h>
#include <torch/torch.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace parity::train {

class GradTransport {
 public:
  virtual ~GradTransport() = default;
  /// Sums every flat, contiguous fp32 tensor over the ranks, in place; returns when all are done.
  virtual void allreduce_sum(std::vector<torch::Tensor>& flats) = 0;
  /// Starts summing one flat fp32 tensor over the ranks, in place; the tensor must not be touched
  /// until wait_all() returns. The default is synchronous (a transport that cannot overlap).
  virtual void start(const torch::Tensor& flat) {
    std::vector<torch::Tensor> flats{flat};
    allreduce_sum(flats);
  }
  /// Returns when every started tensor holds its sum; rethrows a failure of any of them.
  virtual void wait_all() {}
  /// "gloo", "nccl" or "shm": for logs and benchmarks.
  virtual const char* name() const = 0;
};

/// Through the process group: every bucket's allreduce started, then each waited on.
class ProcessGroupTransport : public GradTransport {
 public:
  explicit ProcessGroupTransport(c10::intrusive_ptr<Collectives> pg, const char* name = "gloo")
      : pg_(std::move(pg)), name_(name) {}
  void allreduce_sum(std::vector<torch::Tensor>& flats) override;
  /// The process group's own asynchronous allreduce; its Work is kept for wait_all.
  void start(const torch::Tensor& flat) override;
  void wait_all() override;
  const char* name() const override { return name_; }

 private:
  c10::intrusive_ptr<Collectives> pg_;
  const char* name_;
  std::vector<c10::intrusive_ptr<c10d::Work>> started_;
};

/// Through a shared-memory segment (CPU tensors only), one bucket after the other. The segment's
/// allreduce is synchronous, so start() hands the tensor to a communication thread of this
/// process (created on the first start), which reduces its queue in order; allreduce_sum runs
/// on the caller's thread once that queue is empty. Either way one thread at a time uses the
/// segment. Thread affinity: start, wait_all and allreduce_sum from one thread (the trainer's,
/// or the backward's, which the trainer waits for).
class ShmTransport : public GradTransport {
 public:
  explicit ShmTransport(std::unique_ptr<ShmAllreduce> shm) : shm_(std::move(shm)) {}
  ~ShmTransport() override;
  void allreduce_sum(std::vector<torch::Tensor>& flats) override;
  void start(const torch::Tensor& flat) override;
  void wait_all() override;
  const char* name() const override { return "shm"; }

 private:
  void serve();

  std::unique_ptr<ShmAllreduce> shm_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<torch::Tensor> queue_;  // started, not yet taken by the thread
  int64_t unfinished_ = 0;           // started, not yet summed
  std::exception_ptr error_;         // the first failure; later buckets are dropped
  bool stopping_ = false;
  std::thread thread_;
};

/// Where a run's segment goes: /dev/shm when it is there, else the store file's folder.
std::string shm_segment_folder(const launch::DistEnv& env);

/// The transport env asks for (PARITY_TRANSPORT): shm for CPU ranks on one node (PARITY_STORE set)
/// unless gloo is asked for, else the process group. Rank 0 names a fresh segment and hands the
/// name to the others through `store`. Null when pg is null (one process). Throws TrainError when
/// shm is asked for where it cannot work (CUDA, several machines).
std::shared_ptr<GradTransport> make_grad_transport(const launch::DistEnv& env,
                                                   config::Device device,
                                                   const c10::intrusive_ptr<c10d::Store>& store,
                                                   const c10::intrusive_ptr<Collectives>& pg);

}  // namespace parity::train
