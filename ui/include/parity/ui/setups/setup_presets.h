#pragma once
/// Setups the window offers ready-made: the seed's presets and the demo experiment, plus the
/// split of RunConfig fields into "setup" (per setup) and "experiment" (shared).
/// Qt-free apart from QString names; callable from any thread.

#include <parity/config/run_config.h>

#include <QString>
#include <vector>

namespace parity::ui {

struct SetupPreset {
  QString name;         ///< menu text
  QString description;  ///< tooltip
  config::RunConfig setup;
};

/// "Single GPU 1x256", "Multi-GPU 2x128", "TPU-pod-shaped 8x32" (8 CPU ranks: no XLA here).
std::vector<SetupPreset> presets();

/// The experiment a fresh window starts with: Fashion-MNIST, MLP, SGD.
config::RunConfig defaultExperiment();

/// The demo: Fashion-MNIST MLP on the first 7680 samples for one epoch, as 1x64, 2x32,
/// 2x64 unscaled and 2x64 with linear lr scaling. Small enough for a minute or two on 2 cores.
config::RunConfig demoExperiment();
std::vector<config::RunConfig> demoSetups();

/// Copies the shared (experiment) fields of `experiment` into `setup`, leaving setup fields.
void applyExperiment(const config::RunConfig& experiment, config::RunConfig& setup);

/// True for a check() field that belongs to the experiment form rather than the setup form.
bool isExperimentField(const std::string& field);

}  // namespace parity::ui
