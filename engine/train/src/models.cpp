#include <parity/train/models.h>
#include <parity/train/sync_batch_norm.h>
#include <torch/script.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace parity::train {
namespace {

// Hidden layer: Linear/Conv, then batch norm, the activation and dropout (the usual order).
void add_hidden_extras(torch::nn::Sequential& net, const config::RunConfig& config, int64_t width,
                       bool conv, Collectives* group) {
  if (config.batch_norm && config.sync_batch_norm) {
    net->push_back(SyncBatchNorm(SyncBatchNormOptions{width}, group));
  } else if (config.batch_norm) {
    if (conv) {
      net->push_back(torch::nn::BatchNorm2d(width));
    } else {
      net->push_back(torch::nn::BatchNorm1d(width));
    }
  }
  net->push_back(torch::nn::ReLU());
  if (config.dropout > 0) net->push_back(torch::nn::Dropout(config.dropout));
}

class SequentialModel final : public Model {
 public:
  explicit SequentialModel(torch::nn::Sequential net) : net_(std::move(net)) {}
  torch::Tensor forward(const torch::Tensor& x) override { return net_->forward(x); }
  std::vector<torch::Tensor> parameters() override { return net_->parameters(); }
  std::vector<torch::Tensor> buffers() override { return net_->buffers(); }
  void train(bool on) override { net_->train(on); }
  void to(torch::Device device) override { net_->to(device); }
  const torch::nn::Sequential& net() const { return net_; }

 private:
  torch::nn::Sequential net_;
};

class ScriptModel final : public Model {
 public:
  explicit ScriptModel(torch::jit::Module module) : module_(std::move(module)) {}
  torch::Tensor forward(const torch::Tensor& x) override {
    auto out = module_.forward({x});
    if (!out.isTensor()) {
      throw std::runtime_error("forward returned a " + out.tagKind() + ", not a tensor");
    }
    return out.toTensor();
  }
  std::vector<torch::Tensor> parameters() override {
    std::vector<torch::Tensor> v;
    for (const auto& p : module_.parameters()) v.push_back(p);
    return v;
  }
  std::vector<torch::Tensor> buffers() override {
    std::vector<torch::Tensor> v;
    for (const auto& b : module_.buffers()) v.push_back(b);
    return v;
  }
  void train(bool on) override { module_.train(on); }
  void to(torch::Device device) override { module_.to(device); }
  const torch::jit::Module& module() const { return module_; }

 private:
  torch::jit::Module module_;
};

// The line of a torch error that says what went wrong: TorchScript's start with "The following
// operation failed in the TorchScript interpreter." and end with the RuntimeError itself.
std::string error_line(const std::exception& e) {
  std::string msg = e.what();
  if (const auto* c10e = dynamic_cast<const c10::Error*>(&e)) msg = c10e->what_without_backtrace();
  std::string last, line;
  std::istringstream lines(msg);
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t") != std::string::npos) last = line;
  }
  const auto colon = last.find("Error: ");
  return colon != std::string::npos && colon < 30 ? last.substr(colon + 7) : last;
}

std::string shape_text(const torch::Tensor& t) {
  std::ostringstream s;
  s << t.sizes() << " " << t.dtype();
  return s.str();
}

}  // namespace

torch::nn::Sequential make_builtin(const config::RunConfig& config, at::IntArrayRef sample_shape,
                                   int64_t num_outputs, Collectives* group) {
  int64_t in_features = 1;
  for (auto d : sample_shape) in_features *= d;
  torch::nn::Sequential net;
  switch (config.model) {
    case config::ModelKind::kLinear:
      net->push_back(torch::nn::Flatten());
      net->push_back(torch::nn::Linear(in_features, num_outputs));
      break;
    case config::ModelKind::kMlp: {
      net->push_back(torch::nn::Flatten());
      int64_t width = in_features;
      for (int64_t h : config.hidden) {
        net->push_back(torch::nn::Linear(width, h));
        add_hidden_extras(net, config, h, /*conv=*/false, group);
        width = h;
      }
      net->push_back(torch::nn::Linear(width, num_outputs));
      break;
    }
    case config::ModelKind::kCnn: {
      TORCH_CHECK(sample_shape.size() == 3, "cnn needs image input [C, H, W], got ",
                  sample_shape.size(), " dims");
      const int64_t c = sample_shape[0], h = sample_shape[1], w = sample_shape[2];
      net->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(c, 16, 3).padding(1)));
      add_hidden_extras(net, config, 16, /*conv=*/true, group);
      net->push_back(torch::nn::MaxPool2d(2));
      net->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)));
      add_hidden_extras(net, config, 32, /*conv=*/true, group);
      net->push_back(torch::nn::MaxPool2d(2));
      net->push_back(torch::nn::Flatten());
      net->push_back(torch::nn::Linear(32 * (h / 4) * (w / 4), 128));
      add_hidden_extras(net, config, 128, /*conv=*/false, group);
      net->push_back(torch::nn::Linear(128, num_outputs));
      break;
    }
    case config::ModelKind::kBigram:  // each token's row of logits for the next token
      if (config.embedding_dim > 0) {
        net->push_back(torch::nn::Embedding(num_outputs, config.embedding_dim));
        net->push_back(torch::nn::Linear(config.embedding_dim, num_outputs));
      } else {
        net->push_back(torch::nn::Embedding(num_outputs, num_outputs));
      }
      break;
    case config::ModelKind::kTorchScript:
      TORCH_CHECK(false, "make_builtin: torchscript is not a built-in model");
  }
  if (config.init == config::Init::kZeros) {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.zero_();
  }
  return net;
}

std::unique_ptr<Model> make_model(const config::RunConfig& config, at::IntArrayRef sample_shape,
                                  int64_t num_outputs, Collectives* group) {
  if (config.model != config::ModelKind::kTorchScript) {
    return std::make_unique<SequentialModel>(
        make_builtin(config, sample_shape, num_outputs, group));
  }
  torch::jit::Module module;
  try {
    module = torch::jit::load(config.model_file, torch::kCPU);
  } catch (const c10::Error& e) {
    throw std::runtime_error(config.model_file +
                             ": not a TorchScript module (save one with "
                             "torch.jit.script(model).save(path)); torch.jit.load said: " +
                             error_line(e));
  }
  if (module.find_method("forward") == c10::nullopt) {
    throw std::runtime_error(config.model_file + ": the TorchScript module has no forward method");
  }
  if (config.init == config::Init::kZeros) {
    torch::NoGradGuard no_grad;
    for (auto p : module.parameters()) p.zero_();
  }
  module.train(true);
  return std::make_unique<ScriptModel>(std::move(module));
}

config::ModelSummary traits_of(const config::RunConfig& config, Model& model) {
  config::ModelSummary t;
  for (const auto& p : model.parameters()) t.parameters += p.numel();
  std::set<std::string> kinds;
  if (auto* seq = dynamic_cast<SequentialModel*>(&model)) {
    for (const auto& m : seq->net()->modules(/*include_self=*/false)) {
      std::string name = m->name();  // "torch::nn::DropoutImpl"
      name = name.substr(name.rfind(':') + 1);
      if (name.size() > 4 && name.compare(name.size() - 4, 4, "Impl") == 0)
        name.resize(name.size() - 4);
      kinds.insert(name);
    }
    if (config.dropout > 0) t.dropout_p = config.dropout;
  } else if (auto* script = dynamic_cast<ScriptModel*>(&model)) {
    for (const auto& m : script->module().modules()) {
      if (!m.type()->name()) continue;
      std::string name = m.type()->name()->name();  // e.g. "Dropout", "BatchNorm1d", "Net"
      kinds.insert(name);
      if (name.find("Dropout") == std::string::npos) continue;
      // nn.Dropout's rate is a TorchScript constant of its class (__constants__ = ['p', ...]).
      if (auto p = m.type()->findConstant("p"); p && p->isDouble()) {
        t.dropout_p = std::max(t.dropout_p, p->toDouble());
      } else if (m.hasattr("p") && m.attr("p").isDouble()) {
        t.dropout_p = std::max(t.dropout_p, m.attr("p").toDouble());
      }
    }
  }
  for (const auto& k : kinds) {
    t.layer_kinds.push_back(k);
    if (k.find("Dropout") != std::string::npos) t.dropout = true;
    if (k.find("BatchNorm") != std::string::npos) t.batch_norm = true;
  }
  return t;
}

void check_forward(Model& model, const config::RunConfig& config, const torch::Tensor& sample,
                   int64_t num_outputs) {
  const std::string what =
      (config.model == config::ModelKind::kTorchScript ? config.model_file
                                                       : to_string(config.model));
  torch::Tensor out;
  {
    torch::NoGradGuard no_grad;
    model.train(false);
    try {
      out = model.forward(sample);
    } catch (const std::exception& e) {
      model.train(true);
      throw std::runtime_error(what + ": forward does not take the dataset's input (a batch " +
                               shape_text(sample) + "): " + error_line(e));
    }
    model.train(true);
  }
  const int64_t b = sample.size(0);
  const bool tokens = config.token_data();
  const bool ok =
      tokens ? (out.dim() == 3 && out.size(0) == b && out.size(1) == sample.size(1) &&
                out.size(2) >= num_outputs)
             : (out.dim() == 2 && out.size(0) == b &&
                (config.task == config::Task::kClassification ? out.size(1) >= num_outputs
                                                              : out.size(1) == num_outputs));
  if (!ok) {
    std::ostringstream expected;
    if (tokens) {
      expected << "[" << b << ", " << sample.size(1) << ", V >= " << num_outputs
               << "] (logits over the vocabulary at each position)";
    } else if (config.task == config::Task::kClassification) {
      expected << "[" << b << ", C >= " << num_outputs << "] (logits over the classes)";
    } else {
      expected << "[" << b << ", " << num_outputs << "]";
    }
    throw std::runtime_error(what + ": forward on a batch " + shape_text(sample) + " returned " +
                             shape_text(out) + "; expected " + expected.str());
  }
}

}  // namespace parity::train
