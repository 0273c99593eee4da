#pragma once
/// Runs > Edit facts…: an imported run's facts (how it trained), each shown with where it came
/// from — known (the file and field), derived (how) or unknown — and editable as a setup's
/// fields are. A value the user gives becomes known ("given"); the change is written by
/// `parity-cli set`, the same verb and checks as on the command line.
/// Thread affinity: UI thread.

#include <parity/config/run_facts.h>

#include <QDialog>
#include <QStringList>
#include <vector>

class QLineEdit;
class QComboBox;
class QFormLayout;

namespace parity::ui {

class FactsDialog : public QDialog {
  Q_OBJECT
 public:
  FactsDialog(qint64 runId, const QString& label, const config::RunFacts& facts,
              QWidget* parent = nullptr);

  /// `parity-cli set` flags for every fact the user changed ("--num-processes", "2", ...);
  /// empty when nothing changed.
  QStringList changedFlags() const;
  /// The editor of a fact, by its flag ("--seed"), for tests; nullptr when there is none.
  QWidget* editor(const QString& flag) const;

 private:
  /// How a fact's text is checked: any text or word, a number > 0, any whole number, a count.
  enum class Kind { kText, kNumber, kWhole, kCount };
  struct Field {
    QString name;
    QString flag;
    QWidget* editor = nullptr;  ///< a QLineEdit (numbers, words) or a QComboBox (choices)
    QString initial;            ///< the text shown at first ("" = unknown)
    Kind kind = Kind::kText;
  };
  /// The row of one fact of config::for_each_fact_field(): its name, an editor (a choice of its
  /// words, or a line checked by `kind`), and where its value came from.
  void addFact(QFormLayout& form, const config::FactField& field, const QString& value,
               const QString& provenance, Kind kind);
  QString current(const QWidget* editor) const;
  QString validate() const;

  std::vector<Field> fields_;
};

}  // namespace parity::ui
