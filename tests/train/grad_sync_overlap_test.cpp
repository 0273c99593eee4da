// The gradient allreduce overlapped with the backward (GradientSync with OverlapMode::kOn): buckets
// start from the gradient hooks while the backward runs, accumulation micro-batches start
// nothing, and training ends bit-for-bit where the sync after the backward ends.

#include <gtest/gtest.h>

#include <atomic>
#include <parity/train/grad_sync.h>
#include <parity/train/grad_transport.h>

#include <cmath>
#include <set>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using testing::regression_config;
using testing::train_threaded;

// One rank: a sum over one rank is the tensor itself. Counts what is started and waited on.
class RecordingTransport : public GradTransport {
 public:
  void allreduce_sum(std::vector<torch::Tensor>& flats) override {
    started += static_cast<int64_t>(flats.size());
  }
  void start(const torch::Tensor& flat) override {
    ++started;
    sizes.push_back(flat.numel());
  }
  void wait_all() override { ++waits; }
  const char* name() const override { return "recording"; }
  int64_t started = 0;
  int64_t waits = 0;
  std::vector<int64_t> sizes;
};

struct SmallNet {
  torch::nn::Sequential net{torch::nn::Linear(4, 8), torch::nn::Tanh(), torch::nn::Linear(8, 8),
                            torch::nn::Tanh(), torch::nn::Linear(8, 1)};
  torch::Tensor x = torch::randn({5, 4});
  void backward(double scale = 1.0) { (net->forward(x).pow(2).sum() * scale).backward(); }
};

// 40 bytes: ten floats a bucket, so the six parameters fill five buckets (the last layer's bias
// and weight share one).
constexpr int64_t kTinyBuckets = 40;

GradientSyncOptions overlapped() {
  GradientSyncOptions o;
  o.bucket_bytes = kTinyBuckets;
  o.overlap = OverlapMode::kOn;
  return o;
}

TEST(GradSyncOverlap, BucketsStartDuringTheBackwardLastLayerFirst) {
  torch::manual_seed(1);
  SmallNet model;
  const auto params = model.net->parameters();
  auto transport = std::make_shared<RecordingTransport>();
  GradientSync sync(params, transport, /*world_size=*/1, /*rank=*/0, overlapped());
  ASSERT_TRUE(sync.overlapped());
  const auto buckets = sync.bucket_params();
  ASSERT_EQ(buckets.size(), 5u);
  EXPECT_EQ(buckets.front(), (std::vector<size_t>{5, 4}));  // the last layer's bias, weight
  EXPECT_EQ(buckets.back(), (std::vector<size_t>{0}));      // the first layer's weight
  // The first layer's weight gradient is the last one the backward computes: by then the
  // buckets of the later layers are on their way.
  int64_t started_when_first_layer_computed = -1;
  auto handle = params[0].register_hook(
      [&](const torch::Tensor&) { started_when_first_layer_computed = transport->started; });
  sync.prepare_for_backward(true);
  model.backward();
  EXPECT_GE(started_when_first_layer_computed, 3);
  EXPECT_EQ(transport->started, 5) << "every gradient bucket started before sync()";
  EXPECT_EQ(sync.buckets_started(), 5);
  std::vector<torch::Tensor> expected;
  for (const auto& p : params) expected.push_back(p.grad().clone());
  LocalStepMetrics local;
  local.loss = 1.5;
  local.samples = 5;
  const auto global = sync.sync(local);
  EXPECT_EQ(transport->started, 5 + 1 + 1) << "the metrics' bucket, then the order's broadcast";
  EXPECT_EQ(global.samples, 5);
  EXPECT_EQ(global.loss, 1.5);
  for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(params[i].grad().equal(expected[i])) << i;
  EXPECT_EQ(sync.buckets_started(), 0);
  params[0].remove_hook(handle);
}

TEST(GradSyncOverlap, AccumulationMicroBatchesStartNothing) {
  torch::manual_seed(2);
  SmallNet model;
  const auto params = model.net->parameters();
  auto transport = std::make_shared<RecordingTransport>();
  GradientSync sync(params, transport, 1, 0, overlapped());
  for (int micro = 0; micro < 2; ++micro) {
    sync.prepare_for_backward(false);
    model.backward(0.5);
    EXPECT_EQ(transport->started, 0) << "micro-batch " << micro;
  }
  sync.prepare_for_backward(true);
  model.backward(0.5);
  EXPECT_EQ(transport->started, 5);
  // The buckets carry the gradients accumulated over the three micro-batches.
  std::vector<torch::Tensor> expected;
  for (const auto& p : params) expected.push_back(p.grad().clone());
  sync.sync({});
  for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(params[i].grad().equal(expected[i])) << i;
}

TEST(GradSyncOverlap, ARankWithoutABackwardStartsEveryBucketInSync) {
  torch::manual_seed(3);
  SmallNet model;
  const auto params = model.net->parameters();
  auto transport = std::make_shared<RecordingTransport>();
  GradientSync sync(params, transport, 1, 0, overlapped());
  LocalStepMetrics idle;
  idle.participated = false;
  sync.sync(idle);
  // The same five buckets and the metrics, in the order a rank that trained starts them.
  EXPECT_EQ(transport->sizes, (std::vector<int64_t>{9, 8, 64, 8, 32, 3, 6}));
  for (const auto& p : params) EXPECT_EQ(p.grad().abs().sum().item<float>(), 0.0f);
}

TEST(GradSyncOverlap, AfterTheFirstStepBucketsFollowTheOrderGradientsArrived) {
  torch::manual_seed(4);
  torch::nn::Linear a(4, 3), b(4, 5);
  std::vector<torch::Tensor> params = a->parameters();        // 0: weight (12), 1: bias (3)
  for (const auto& p : b->parameters()) params.push_back(p);  // 2: weight (20), 3: bias (5)
  auto transport = std::make_shared<RecordingTransport>();
  GradientSyncOptions o;
  o.bucket_bytes = 4;  // a bucket per parameter
  o.overlap = OverlapMode::kOn;
  GradientSync sync(params, transport, 1, 0, o);
  EXPECT_EQ(sync.bucket_params(),
            (std::vector<std::vector<size_t>>{{3}, {2}, {1}, {0}}));  // reverse registration
  const auto x = torch::randn({2, 4});
  auto step = [&] {
    sync.prepare_for_backward(true);
    const auto from_b = b(x).sum();
    const auto from_a = a(x).sum();  // run last, so its gradients are computed first
    (from_b + from_a).backward();
    sync.sync({});
  };
  step();
  const auto rebuilt = sync.bucket_params();
  ASSERT_EQ(rebuilt.size(), 4u);
  EXPECT_EQ((std::set<size_t>{rebuilt[0][0], rebuilt[1][0]}), (std::set<size_t>{0, 1}));
  EXPECT_EQ((std::set<size_t>{rebuilt[2][0], rebuilt[3][0]}), (std::set<size_t>{2, 3}));
  // The second step starts a's buckets from the hooks before b's gradients exist.
  transport->sizes.clear();
  step();
  ASSERT_EQ(transport->sizes.size(), 5u);  // four buckets and the metrics
  EXPECT_EQ(transport->sizes[0] + transport->sizes[1], 12 + 3);
}

TEST(GradSyncOverlap, OneBucketIsNotOverlappedUnlessAsked) {
  SmallNet model;
  auto transport = std::make_shared<RecordingTransport>();
  GradientSyncOptions o;
  o.overlap = OverlapMode::kAuto;
  EXPECT_FALSE(GradientSync(model.net->parameters(), transport, 1, 0, o).overlapped());
  o.bucket_bytes = kTinyBuckets;
  EXPECT_TRUE(GradientSync(model.net->parameters(), transport, 1, 0, o).overlapped());
  o.overlap = OverlapMode::kOff;
  EXPECT_FALSE(GradientSync(model.net->parameters(), transport, 1, 0, o).overlapped());
}

// Two ranks as threads: the same run with the sync after the backward and overlapped with it.
void expect_same_run(const config::RunConfig& c, launch::TransportKind transport,
                     const std::string& what) {
  TrainerTestHooks hooks;
  hooks.bucket_bytes = 256;  // several buckets for these small models
  hooks.overlap = 0;
  std::atomic<int64_t> started_after{0}, started_overlapped{0};
  hooks.buckets_started_in_backward = &started_after;
  const auto after = train_threaded(c, hooks, transport);
  hooks.overlap = 1;
  hooks.buckets_started_in_backward = &started_overlapped;
  const auto overlapped = train_threaded(c, hooks, transport);
  // The overlapped run really overlapped: its backwards had started buckets before they
  // returned (the losses alone are the same either way); the other had started none.
  EXPECT_EQ(started_after.load(), 0) << what;
  EXPECT_GT(started_overlapped.load(), 0) << what;
  ASSERT_FALSE(after.sink.steps.empty()) << what;
  ASSERT_EQ(overlapped.sink.steps.size(), after.sink.steps.size()) << what;
  for (size_t i = 0; i < after.sink.steps.size(); ++i) {
    EXPECT_EQ(overlapped.sink.steps[i].loss, after.sink.steps[i].loss) << what << " step " << i + 1;
    EXPECT_EQ(overlapped.sink.steps[i].samples, after.sink.steps[i].samples) << what;
  }
  ASSERT_EQ(overlapped.parameters.size(), after.parameters.size());
  for (size_t r = 0; r < after.parameters.size(); ++r) {
    EXPECT_EQ(overlapped.parameters[r], after.parameters[r]) << what << " rank " << r;
  }
}

config::RunConfig mlp(int accumulation) {
  config::RunConfig c = regression_config(2, 4, accumulation);
  c.model = config::ModelKind::kMlp;
  c.hidden = {16, 8};
  c.init = config::Init::kDefault;
  c.epochs = 2;
  return c;
}

TEST(GradSyncOverlap, TwoRanksLossesAreBitForBitTheSyncAfterTheBackwards) {
  expect_same_run(mlp(1), launch::TransportKind::kShm, "shm");
  expect_same_run(mlp(1), launch::TransportKind::kGloo, "gloo");
}

TEST(GradSyncOverlap, AccumulationAndUnevenBatchesAreBitForBitToo) {
  expect_same_run(mlp(3), launch::TransportKind::kShm, "k=3");
  config::RunConfig uneven = mlp(2);
  uneven.synthetic_samples = 27;  // 2 x 4: the last step has one rank without a micro-batch
  uneven.even_batches = false;
  expect_same_run(uneven, launch::TransportKind::kShm, "uneven shm");
  expect_same_run(uneven, launch::TransportKind::kGloo, "uneven gloo");
}

TEST(GradSyncOverlap, SyncBatchNormAndBf16AreBitForBitToo) {
  config::RunConfig bn = mlp(1);
  bn.batch_norm = true;
  bn.sync_batch_norm = true;
  expect_same_run(bn, launch::TransportKind::kGloo, "sync batch norm");
  config::RunConfig bf16 = mlp(2);
  bf16.mixed_precision = config::MixedPrecision::kBf16;
  expect_same_run(bf16, launch::TransportKind::kShm, "bf16");
}

}  // namespace
}  // namespace parity::train
