#pragma once
// Gradient averaging in flattened buckets (one allreduce per bucket, not per parameter), with the
// step's metrics riding in the last bucket so a sync costs no extra collective.

#include <torch/torch.h>

#include <vector>

#include "grad_transport.h"
#include "process_group.h"

namespace parity::train {

/// What each rank adds to a sync besides its gradients.
struct LocalStepMetrics {
  double loss = 0;           // this rank's mean loss over the step's micro-batches
  bool participated = true;  // false when this rank had no micro-batch in the step
  int64_t samples = 0;       // samples this rank consumed in the step
};

/// The step's metrics, identical on every rank after the sync.
struct GlobalStepMetrics {
  std::vector<double> rank_losses;  // index = rank (NaN for ranks that did not participate)
  double loss = 0;                  // mean over participating ranks
  int participants = 0;
  int64_t samples = 0;
};

/// DDP's start: rank 0's parameters are broadcast to every rank, so a device-specific seed cannot
/// leave the replicas different.
void broadcast_parameters(const std::vector<torch::Tensor>& params, Collectives& pg);

/// The default bucket size: DDP's bucket_cap_mb = 25.
inline constexpr int64_t kDefaultBucketBytes = int64_t{25} << 20;

class GradientSync {
 public:
  /// transport may be null for a single process (then only the metrics are filled in).
  GradientSync(std::vector<torch::Tensor> params, std::shared_ptr<GradTransport> transport,
               int world_size, int rank, int64_t bucket_bytes = kDefaultBucketBytes);
  /// Through the process group itself (ProcessGroupTransport); pg may be null.
  GradientSync(std::vector<torch::Tensor> params, c10::intrusive_ptr<Collectives> pg,
               int world_size, int rank, int64_t bucket_bytes = kDefaultBucketBytes);

  /// All-reduces (sum) gradients and metrics, waits, and divides gradients by the world size W:
  /// the gradient of the global-batch mean. A rank without a micro-batch (even_batches=false)
  /// adds zeros, as a joined rank does under DDP's Join, which also divides by W.
  GlobalStepMetrics sync(const LocalStepMetrics& local);

  /// How params are cut into buckets (indices into params, in order): a bucket is closed when the
  /// next parameter would take it past bucket_bytes of fp32; a parameter larger than that gets a
  /// bucket of its own.
  static std::vector<std::vector<size_t>> plan_buckets(const std::vector<torch::Tensor>& params,
                                                       int64_t bucket_bytes);

 private:
  struct Bucket {
    std::vector<size_t> params;  // indices into params_
    int64_t numel = 0;
  };
  std::vector<torch::Tensor> params_;
  std::shared_ptr<GradTransport> transport_;
  int world_size_;
  int rank_;
  std::vector<Bucket> buckets_;
  std::vector<torch::Tensor> flat_;  // one reusable buffer per bucket; metrics in the last
};

}  // namespace parity::train
