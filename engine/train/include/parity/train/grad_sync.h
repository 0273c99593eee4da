#pragma once
// Gradient averaging in flattened buckets (one allreduce per bucket, not per parameter).
//
// Two ways, the same sums to the bit (each element is still summed over the ranks by the same
// transport, whichever bucket carries it):
// - after the backward: buckets in registration order, all started by sync(), the step's metrics
//   riding in the last bucket so a sync costs no extra collective;
// - overlapped with the backward, as torch's DDP Reducer does: buckets in reverse registration
//   order (gradients arrive roughly last layer first), each started from a post hook on its
//   parameters' gradient accumulators as soon as the last of them is accumulated, on micro-batches
//   that sync only; buckets are started strictly in bucket order so every rank issues the same
//   collectives in the same order. sync() starts what is left (parameters that got no gradient,
//   every bucket on a rank without a micro-batch) and the metrics, a bucket of their own, then
//   waits. After the first step the buckets are re-planned in the order rank 0's gradients
//   arrived (Reducer's rebuild_buckets), broadcast so every rank agrees.

#include <parity/train/grad_transport.h>
#include <parity/train/process_group.h>
#include <torch/csrc/autograd/function.h>
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

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

/// Whether gradients are all-reduced during the backward (see the file comment).
enum class OverlapMode {
  kOff,   ///< after the backward
  kOn,    ///< overlapped with the backward
  kAuto,  ///< overlapped on the CPU when the gradients fill two buckets or more (one bucket is
          ///< only ready at the end of the backward: nothing to overlap, and the metrics would
          ///< cost a collective of their own)
};

/// PARITY_OVERLAP: 0 (off), 1 (on), unset or empty (auto). Read by the trainer.
inline constexpr char kEnvOverlap[] = "PARITY_OVERLAP";
/// The mode PARITY_OVERLAP asks for; throws TrainError on another value.
OverlapMode overlap_mode_from_environment();

/// PARITY_BUCKET_KB: the bucket size in KiB (for benchmarks: the default cap puts a small model
/// in one bucket, which leaves nothing to overlap); unset or empty: kDefaultBucketBytes.
inline constexpr char kEnvBucketKb[] = "PARITY_BUCKET_KB";
/// The bucket size PARITY_BUCKET_KB asks for; throws TrainError on a value that is not a
/// positive integer.
int64_t bucket_bytes_from_environment();

struct GradientSyncOptions {
  /// Bytes of fp32 per bucket.
  int64_t bucket_bytes = kDefaultBucketBytes;
  OverlapMode overlap = OverlapMode::kOff;
};

class GradientSync {
 public:
  /// transport may be null for a single process (then only the metrics are filled in, and
  /// nothing is overlapped).
  GradientSync(std::vector<torch::Tensor> params, std::shared_ptr<GradTransport> transport,
               int world_size, int rank, GradientSyncOptions options = {});
  /// Through the process group itself (ProcessGroupTransport); pg may be null.
  GradientSync(std::vector<torch::Tensor> params, c10::intrusive_ptr<Collectives> pg,
               int world_size, int rank, GradientSyncOptions options = {});
  /// Removes the gradient hooks. The hooks point at this object: it is neither copied nor moved.
  ~GradientSync();
  GradientSync(const GradientSync&) = delete;
  GradientSync& operator=(const GradientSync&) = delete;

  /// Before each backward: whether the step syncs after it. Only then do the hooks start buckets
  /// (a micro-batch of gradient accumulation starts nothing); sync() disarms them.
  void prepare_for_backward(bool will_sync) { armed_ = overlapped_ && will_sync; }
  /// Whether this object overlaps (the mode, and auto's choice).
  bool overlapped() const { return overlapped_; }
  /// Buckets started so far in this step (for tests and the benchmark's log).
  int64_t buckets_started() const { return started_; }
  /// The parameter indices of each bucket, in the order they are started.
  std::vector<std::vector<size_t>> bucket_params() const;

  /// All-reduces (sum) gradients and metrics, waits, and divides gradients by the world size W:
  /// the gradient of the global-batch mean. A rank without a micro-batch (even_batches=false)
  /// adds zeros, as a joined rank does under DDP's Join, which also divides by W.
  GlobalStepMetrics sync(const LocalStepMetrics& local);

  /// How params are cut into buckets (indices into params, in order): a bucket is closed when the
  /// next parameter would take it past bucket_bytes of fp32; a parameter larger than that gets a
  /// bucket of its own.
  static std::vector<std::vector<size_t>> plan_buckets(const std::vector<torch::Tensor>& params,
                                                       int64_t bucket_bytes);
  /// The same cut over params taken in `order` (indices into params).
  static std::vector<std::vector<size_t>> plan_buckets(const std::vector<torch::Tensor>& params,
                                                       const std::vector<size_t>& order,
                                                       int64_t bucket_bytes);

 private:
  struct Bucket {
    std::vector<size_t> params;    // indices into params_
    std::vector<int64_t> offsets;  // of each in the flat buffer
    int64_t numel = 0;
    size_t waiting = 0;  // hooked parameters not yet ready in this step
    bool started = false;
  };
  void lay_out(std::vector<std::vector<size_t>> plan);
  void register_hooks();
  void on_gradient_ready(size_t param);
  void start_bucket(size_t b, bool participated);
  void fill_bucket(size_t b, bool participated);
  GlobalStepMetrics sync_after_backward(const LocalStepMetrics& local);
  GlobalStepMetrics sync_overlapped(const LocalStepMetrics& local);
  // How many floats the metrics take (write_metrics's layout) and where the samples sit.
  int64_t metrics_slots() const { return 2 * static_cast<int64_t>(world_size_) + 1; }
  int64_t samples_slot() const { return 2 * static_cast<int64_t>(world_size_); }
  void write_metrics(torch::Tensor& flat, int64_t at, const LocalStepMetrics& local) const;
  GlobalStepMetrics read_metrics(const torch::Tensor& flat, int64_t at) const;
  void copy_back();
  void rebuild_buckets();
  void reset_step();

  std::vector<torch::Tensor> params_;
  std::shared_ptr<GradTransport> transport_;
  int world_size_;
  int rank_;
  int64_t bucket_bytes_;
  bool overlapped_ = false;
  std::vector<Bucket> buckets_;
  std::vector<torch::Tensor> flat_;  // one reusable buffer per bucket; metrics in the last
                                     // unless overlapped
  // Overlapped only:
  torch::Tensor metrics_flat_;                    // the metrics' own bucket
  std::vector<std::pair<size_t, size_t>> where_;  // param -> (bucket, slot in bucket)
  std::vector<char> hooked_;                      // param has a hook
  std::vector<char> ready_;                       // param's gradient copied this step
  std::vector<size_t> arrivals_;                  // arrival order, until the rebuild
  bool rebuilt_ = false;
  bool armed_ = false;
  size_t next_bucket_ = 0;  // the next bucket to start
  int64_t started_ = 0;
  std::vector<std::pair<std::shared_ptr<torch::autograd::Node>, uintptr_t>> hooks_;
};

}  // namespace parity::train
