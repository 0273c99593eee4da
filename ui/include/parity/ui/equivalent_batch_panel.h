#pragma once
/// The equivalent-batch panel: a reference single-device batch chooser, the seed's table of
/// per-device batches for it, and what each configured setup does against it.
/// Thread affinity: UI thread.

#include <QWidget>

class QComboBox;
class QTableView;

namespace parity::ui {

class ReferenceBatchModel;
class SetupPlanModel;
class SetupsModel;

class EquivalentBatchPanel : public QWidget {
  Q_OBJECT
 public:
  explicit EquivalentBatchPanel(SetupsModel* setups, QWidget* parent = nullptr);

  int64_t referenceBatch() const;
  void setReferenceBatch(int64_t batch);
  SetupPlanModel* planModel() const { return plan_; }
  ReferenceBatchModel* referenceModel() const { return reference_; }

 signals:
  void referenceBatchChanged(qint64 batch);

 private:
  void update();

  SetupsModel* setups_;
  QComboBox* referenceBox_;
  ReferenceBatchModel* reference_;
  SetupPlanModel* plan_;
  QTableView* referenceView_;
  QTableView* planView_;
};

}  // namespace parity::ui
