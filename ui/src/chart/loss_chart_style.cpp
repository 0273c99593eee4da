// LossChart: how each line looks and is named: colours, pens and dashes (identical runs, ranks,
// draft frames while zooming), the legend's entries, and hiding a run's lines from the legend.
// Data, series and loading are in loss_chart.cpp; drawing and navigation in loss_chart_draw.cpp.
#include <parity/plot/curve_overlap.h>
#include <parity/ui/chart/loss_chart.h>

#include <QCoreApplication>
#include <QHash>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <algorithm>

#include "loss_chart_p.h"

namespace parity::ui {

using plot::CurveSeries;
using plot::identicalGroups;
using plot::MinMaxIndex;

namespace {

/// Dash patterns (in pen widths) of the later runs of an identical group, so the first one's
/// solid line shows through their gaps.
QList<qreal> identicalDash(int k) {
  static const QList<qreal> kPatterns[] = {
      {5, 3}, {1, 2.5}, {7, 2, 1, 2}, {2, 5}, {9, 3, 1, 2, 1, 3}};
  return kPatterns[(k - 1) % 5];
}

/// One line style per rank, the same for every run, named in the legend's rank entries.
QList<qreal> rankDash(int rank) {
  static const QList<qreal> kPatterns[] = {{1, 2},  {4, 2}, {6, 2, 1, 2},  {6, 2, 1, 2, 1, 2},
                                           {10, 3}, {1, 5}, {12, 2, 4, 2}, {3, 3, 1, 3}};
  return kPatterns[rank % 8];
}

QPen rankPen(const QColor& color, int rank) {
  QPen pen(color);
  pen.setWidthF(1.0);
  pen.setDashPattern(rankDash(rank));
  return pen;
}

}  // namespace

QColor LossChart::colorFor(qint64 runId) {
  // Tableau 10, then ten darker or more saturated hues that stay apart from them and from each
  // other (tests check every pair), so 20 runs never share a colour.
  static const QColor kPalette[kPaletteSize] = {
      QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
      QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
      QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
      QColor(0x17, 0xbe, 0xcf), QColor(0x39, 0x3b, 0x79), QColor(0x00, 0x5f, 0x3a),
      QColor(0x8c, 0x6d, 0x00), QColor(0x7b, 0x00, 0x2c), QColor(0xff, 0xc0, 0x00),
      QColor(0x00, 0x00, 0xd0), QColor(0x66, 0x00, 0x99), QColor(0x5a, 0xd0, 0x7a),
      QColor(0x30, 0x30, 0x30), QColor(0xff, 0x40, 0xa0)};
  const auto n = static_cast<qint64>(kPaletteSize);
  return kPalette[((runId - 1) % n + n) % n];
}

void LossChart::setRunHidden(qint64 runId, bool hidden) {
  for (RunSeries& rs : d_->runs_) {
    if (rs.info.id != runId || rs.hidden == hidden) continue;
    rs.hidden = hidden;
    updateLegend();
    scheduleRedraw();
  }
}

bool LossChart::isRunHidden(qint64 runId) const {
  for (const RunSeries& rs : d_->runs_) {
    if (rs.info.id == runId) return rs.hidden;
  }
  return false;
}

void LossChart::styleSeries(RunSeries& rs) {
  QColor faint = rs.color;
  faint.setAlpha(70);
  QPen rawPen(faint);
  rawPen.setWidthF(1.0);
  rs.raw->setPen(rawPen);
  QPen mainPen(rs.color);
  mainPen.setWidthF(d_->beta_ > 0 ? 2.0 : 1.5);
  if (rs.dash > 0) mainPen.setDashPattern(identicalDash(rs.dash));
  rs.legendPen = mainPen;
  // While the user zooms or pans, 1-px lines: Qt's raster engine draws those on its fast path,
  // where a wider pen is stroked into polygons segment by segment (half of such a frame's paint).
  if (d_->drawn_.draftPens) mainPen.setWidthF(1.0);
  rs.main->setPen(mainPen);
  rs.raw->setVisible(d_->beta_ > 0);
  rs.bad->setColor(rs.color);
  rs.bad->setBorderColor(QColor(0x9b, 0x00, 0x00));
  for (auto& [rank, s] : rs.ranks) {
    QColor c = rs.color.lighter(135);
    c.setAlpha(170);
    s->setPen(rankPen(c, rank));
  }
}

void LossChart::updateLegendNames() {
  QHash<QString, int> count;
  for (const RunSeries& rs : d_->runs_) ++count[rs.info.label];
  for (RunSeries& rs : d_->runs_) {
    const QString name = count[rs.info.label] > 1
                             ? QString("%1 (#%2)").arg(rs.info.label).arg(rs.info.id)
                             : rs.info.label;
    rs.main->setName(name);
    rs.raw->setName(name + tr(" (raw)"));
  }
  updateLegend();
}

void LossChart::findIdenticalRuns() {
  std::vector<std::size_t> key = {static_cast<std::size_t>(d_->xKind_)};
  for (const RunSeries& rs : d_->runs_) {
    const CurveSeries* s = d_->store_.find(rs.info.id, -1);
    key.push_back(static_cast<std::size_t>(rs.info.id));
    key.push_back(s ? s->size() : 0);
  }
  if (key == d_->overlapKey_) return;
  d_->overlapKey_ = key;
  std::vector<const analysis::Series*> curves;
  std::vector<std::pair<double, double>> ranges;
  for (const RunSeries& rs : d_->runs_) {
    curves.push_back(d_->store_.raw(rs.info.id, -1, d_->xKind_));
    // Each curve's y range from its index: a few thousand reads instead of every point.
    const MinMaxIndex* index = d_->store_.index(rs.info.id, -1, false);
    const std::size_t lo = index ? index->argmin(0, index->size()) : 0;
    const std::size_t hi = index ? index->argmax(0, index->size()) : 0;
    ranges.push_back(index && curves.back() && lo < index->size()
                         ? std::make_pair(curves.back()->y[lo], curves.back()->y[hi])
                         : std::make_pair(1.0, 0.0));
  }
  const std::vector<int> group = identicalGroups(curves, ranges);
  std::map<int, int> membersSoFar;  // group head -> later members seen
  for (std::size_t i = 0; i < d_->runs_.size(); ++i) {
    RunSeries& rs = d_->runs_[i];
    const qint64 sameAs = group[i] >= 0 ? d_->runs_[group[i]].info.id : 0;
    const int dash = group[i] >= 0 ? ++membersSoFar[group[i]] : 0;
    if (rs.sameAs == sameAs && rs.dash == dash) continue;
    rs.sameAs = sameAs;
    rs.dash = dash;
    styleSeries(rs);
  }
}

std::map<qint64, qint64> LossChart::identicalRuns() const {
  std::map<qint64, qint64> same;
  for (const RunSeries& rs : d_->runs_) {
    if (rs.sameAs != 0) same[rs.info.id] = rs.sameAs;
  }
  return same;
}

const std::vector<LegendEntry>& LossChart::legendEntries() const { return d_->legend_; }

void LossChart::updateLegend() {
  std::vector<LegendEntry> entries;
  const QString axis =
      QCoreApplication::translate(analysis::kAxisTrContext, analysis::names(d_->xKind_).title);
  for (const RunSeries& rs : d_->runs_) {
    LegendEntry e;
    e.runId = rs.info.id;
    e.label = rs.main->name();
    e.pen = rs.legendPen;
    e.hidden = rs.hidden;
    e.toolTip = tr("Run #%1 %2").arg(rs.info.id).arg(rs.info.label);
    for (const RunSeries& other : d_->runs_) {
      if (other.info.id != rs.sameAs) continue;
      e.note = tr("= #%1 %2").arg(other.info.id).arg(other.info.label);
      e.toolTip += "\n" + tr("Identical to run #%1 (%2): the losses agree within 0.1 % of "
                             "their range wherever both have a point on the %3 axis. Drawn "
                             "dashed over it.")
                              .arg(other.info.id)
                              .arg(other.info.label, axis);
    }
    e.toolTip += "\n" + (rs.hidden ? tr("Click to show its lines") : tr("Click to hide its lines"));
    entries.push_back(e);
  }
  std::vector<int> ranks;
  for (const RunSeries& rs : d_->runs_) {
    for (const auto& [rank, s] : rs.ranks) ranks.push_back(rank);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  for (int rank : ranks) {
    LegendEntry e;
    e.rank = rank;
    e.label = tr("rank %1").arg(rank);
    e.pen = rankPen(QColor(0x50, 0x50, 0x50), rank);
    e.pen.setWidthF(1.3);
    e.toolTip = tr("Each run's rank %1 local loss is drawn in the run's colour, lighter, with "
                   "this pattern")
                    .arg(rank);
    entries.push_back(e);
  }
  if (entries == d_->legend_) return;
  d_->legend_ = std::move(entries);
  emit legendChanged();
}

}  // namespace parity::ui
