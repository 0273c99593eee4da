#pragma once
// The seam between GradientSync and the wire: a sum over ranks of flat fp32 buffers. Two ways:
// the c10d process group (Gloo over TCP, NCCL on CUDA; always across machines) and a
// shared-memory segment for the CPU ranks of one machine (shm_allreduce.h).

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "process_group.h"
#include "shm_allreduce.h"

namespace parity::train {

class GradTransport {
 public:
  virtual ~GradTransport() = default;
  /// Sums every flat, contiguous fp32 tensor over the ranks, in place; returns when all are done.
  virtual void allreduce_sum(std::vector<torch::Tensor>& flats) = 0;
  /// "gloo", "nccl" or "shm": for logs and benchmarks.
  virtual const char* name() const = 0;
};

/// Through the process group: every bucket's allreduce started, then each waited on.
class ProcessGroupTransport : public GradTransport {
 public:
  explicit ProcessGroupTransport(c10::intrusive_ptr<Collectives> pg, const char* name = "gloo")
      : pg_(std::move(pg)), name_(name) {}
  void allreduce_sum(std::vector<torch::Tensor>& flats) override;
  const char* name() const override { return name_; }

 private:
  c10::intrusive_ptr<Collectives> pg_;
  const char* name_;
};

/// Through a shared-memory segment (CPU tensors only), one bucket after the other.
class ShmTransport : public GradTransport {
 public:
  explicit ShmTransport(std::unique_ptr<ShmAllreduce> shm) : shm_(std::move(shm)) {}
  void allreduce_sum(std::vector<torch::Tensor>& flats) override;
  const char* name() const override { return "shm"; }

 private:
  std::unique_ptr<ShmAllreduce> shm_;
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
