#include <parity/config/run_config.h>
#include <parity/config/setup_text.h>
#include <parity/ui/compare/experiment_match.h>

#include <QObject>
#include <QStringList>
#include <optional>

namespace parity::ui {

namespace {

std::optional<config::RunConfig> engineConfig(const storage::RunRow& r) {
  if (r.origin != storage::RunOrigin::kEngine) return std::nullopt;
  try {
    return config::from_json(r.config_json);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

QString dataText(const config::RunConfig& c, bool wholePath) {
  QString text = wholePath && !c.data_path.empty()
                     ? QString::fromStdString(c.data_path)
                     : QString::fromStdString(config::describe_data(c));
  if (!c.test_data.empty())
    text += QObject::tr(" (test %1)").arg(QString::fromStdString(c.test_data));
  return text;
}

QString modelText(const config::RunConfig& c) {
  QString text = QString::fromStdString(config::to_string(c.model));
  if (c.model == config::ModelKind::kTorchScript) {
    text += ' ' + QString::fromStdString(c.model_file);
  } else if (c.model == config::ModelKind::kMlp) {
    QStringList layers;
    for (int64_t h : c.hidden) layers << QString::number(h);
    text += ' ' + (layers.isEmpty() ? QObject::tr("without hidden layers") : layers.join(','));
  }
  return text;
}

}  // namespace

QString experimentDifference(const storage::RunRow& run, const storage::RunRow& reference) {
  const auto mine = engineConfig(run), theirs = engineConfig(reference);
  if (!mine || !theirs) return {};
  QStringList parts;
  if (mine->dataset != theirs->dataset || mine->data_path != theirs->data_path ||
      mine->test_data != theirs->test_data) {
    // Two files of one name in different folders are told apart by their whole paths.
    bool whole = dataText(*mine, false) == dataText(*theirs, false);
    parts << QObject::tr("data: %1 vs %2").arg(dataText(*mine, whole), dataText(*theirs, whole));
  }
  if (modelText(*mine) != modelText(*theirs)) {
    parts << QObject::tr("model: %1 vs %2").arg(modelText(*mine), modelText(*theirs));
  }
  return parts.join("; ");
}

}  // namespace parity::ui
