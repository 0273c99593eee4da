#pragma once
/// The equivalent-batch panel: a reference single-device batch chooser, the seed's table of
/// per-device batches for it, and what each configured setup does against it.
/// Thread affinity: UI thread.

#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QTableView;

namespace parity::ui {

class ReferenceBatchModel;
class SetupPlanModel;
class SetupsModel;

class EquivalentBatchPanel : public QWidget {
  Q_OBJECT
 public:
  explicit EquivalentBatchPanel(SetupsModel* setups, QWidget* parent = nullptr);

  /// The last valid reference batch: a value being typed that is not one leaves it as it was
  /// and is marked beside the field.
  int64_t referenceBatch() const;
  /// A reference the user chose (or one kept from an earlier session): it stays whatever the
  /// setups are. Until one is chosen the reference follows the first setup's global batch.
  void setReferenceBatch(int64_t batch);
  bool followsSetups() const { return follows_; }
  /// The training set's size as the Experiment tab counted it (a csv's rows), for the setups
  /// whose size is not known without reading their data; nullopt while it is not counted.
  void setCountedTrainSize(std::optional<int64_t> trainSize);
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
  QLabel* referenceError_;
  int64_t referenceBatch_ = 256;  ///< the last valid reference typed or chosen
  bool follows_ = true;           ///< the reference is the first setup's global batch
  bool following_ = false;        ///< the reference is being set to follow the setups
  std::optional<int64_t> countedTrainSize_;
};

}  // namespace parity::ui
