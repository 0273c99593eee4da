#pragma once
/// A one-line status label that never widens its window: its minimum width is a few characters,
/// its preferred width at most `maxPreferredChars`, and a text longer than the room it gets is
/// drawn elided at the right with the whole text in its tooltip. text() stays the whole text.
/// (A plain QLabel's minimum width is its text's: the Compare status beside Prove set the dock's,
/// and so the window's, minimum width to 1538 px after one Prove and 2345 px after two.)
/// Thread affinity: UI thread.

#include <QLabel>

namespace parity::ui {

class ElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit ElidedLabel(QWidget* parent = nullptr, int maxPreferredChars = 60);

  /// Sets the whole text; the tooltip holds it too, so an elided line can be read in full.
  void setStatusText(const QString& text);
  /// Whether the text is drawn cut at the current width.
  bool isElided() const;

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int maxPreferredChars_;
};

}  // namespace parity::ui
