#include "models.h"

namespace parity::engine {

torch::nn::Sequential make_model(const RunConfig& config, at::IntArrayRef sample_shape,
                                 int64_t num_outputs) {
  int64_t in_features = 1;
  for (auto d : sample_shape) in_features *= d;
  torch::nn::Sequential net;
  switch (config.model) {
    case ModelKind::kLinear:
      net->push_back(torch::nn::Flatten());
      net->push_back(torch::nn::Linear(in_features, num_outputs));
      break;
    case ModelKind::kMlp: {
      net->push_back(torch::nn::Flatten());
      int64_t width = in_features;
      for (int64_t h : config.hidden) {
        net->push_back(torch::nn::Linear(width, h));
        net->push_back(torch::nn::ReLU());
        width = h;
      }
      net->push_back(torch::nn::Linear(width, num_outputs));
      break;
    }
    case ModelKind::kCnn: {
      TORCH_CHECK(sample_shape.size() == 3, "cnn needs image input [C, H, W], got ",
                  sample_shape.size(), " dims");
      const int64_t c = sample_shape[0], h = sample_shape[1], w = sample_shape[2];
      net->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(c, 16, 3).padding(1)));
      net->push_back(torch::nn::ReLU());
      net->push_back(torch::nn::MaxPool2d(2));
      net->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)));
      net->push_back(torch::nn::ReLU());
      net->push_back(torch::nn::MaxPool2d(2));
      net->push_back(torch::nn::Flatten());
      net->push_back(torch::nn::Linear(32 * (h / 4) * (w / 4), 128));
      net->push_back(torch::nn::ReLU());
      net->push_back(torch::nn::Linear(128, num_outputs));
      break;
    }
  }
  if (config.init == Init::kZeros) {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.zero_();
  }
  return net;
}

}  // namespace parity::engine
