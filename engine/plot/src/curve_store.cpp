#include <parity/plot/curve_store.h>

#include <cmath>

namespace parity::plot {

const std::vector<double>& CurveSeries::column(analysis::Axis kind) const {
  switch (kind) {
    case analysis::Axis::kSamples:
      return samples;
    case analysis::Axis::kEpoch:
      return epoch;
    case analysis::Axis::kWallTime:
      return time;
    case analysis::Axis::kStep:
      break;
  }
  return step;
}

void CurveStore::append(int64_t runId, int rank, const std::vector<storage::StepRow>& rows) {
  if (rows.empty()) return;
  CurveSeries& s = series_[{runId, rank}];
  const std::size_t grow = s.size() + rows.size();
  for (auto* v : {&s.step, &s.samples, &s.epoch, &s.time, &s.raw.x, &s.raw.y}) v->reserve(grow);
  for (const storage::StepRow& r : rows) {
    if (r.step <= s.lastStep) continue;
    if (!std::isfinite(r.loss)) s.nonFinite.push_back(s.size());
    s.step.push_back(static_cast<double>(r.step));
    s.samples.push_back(static_cast<double>(r.samples));
    s.epoch.push_back(r.epoch);
    s.time.push_back(r.time_s);
    s.lr.push_back(r.lr);
    s.raw.x.push_back(s.column(s.rawKind).back());
    s.raw.y.push_back(r.loss);
    s.lastStep = r.step;
  }
}

const CurveSeries* CurveStore::find(int64_t runId, int rank) const {
  auto it = series_.find({runId, rank});
  return it == series_.end() ? nullptr : &it->second;
}

CurveSeries* CurveStore::findMutable(int64_t runId, int rank) {
  auto it = series_.find({runId, rank});
  return it == series_.end() ? nullptr : &it->second;
}

int64_t CurveStore::lastStep(int64_t runId, int rank) const {
  const CurveSeries* s = find(runId, rank);
  return s ? s->lastStep : 0;
}

const analysis::Series* CurveStore::raw(int64_t runId, int rank, analysis::Axis kind) {
  CurveSeries* s = findMutable(runId, rank);
  if (!s || !s->hasAxis(kind)) return nullptr;
  if (s->rawKind != kind) {
    s->rawKind = kind;
    s->raw.x = s->column(kind);  // the EMA's y stays valid: it does not depend on x
  }
  return &s->raw;
}

const analysis::Series* CurveStore::smoothed(int64_t runId, int rank, analysis::Axis kind,
                                             double weight) {
  const analysis::Series* r = raw(runId, rank, kind);
  if (!r) return nullptr;
  CurveSeries& s = *findMutable(runId, rank);
  if (s.smoothBeta != weight) {  // a new weight: every value changes
    s.smoothState = analysis::EmaState{};
    s.smooth.y.clear();
    s.smoothBeta = weight;
  }
  const std::size_t had = s.smoothState.size;
  if (had != s.size()) analysis::ema_extend(s.raw.y, {weight, true}, s.smoothState, s.smooth.y);
  if (s.smoothKind != s.rawKind || s.smooth.x.size() > had) {
    s.smooth.x = s.raw.x;  // another x column (or a reset): copied whole
    s.smoothKind = s.rawKind;
  } else {
    s.smooth.x.insert(s.smooth.x.end(), s.raw.x.begin() + static_cast<std::ptrdiff_t>(had),
                      s.raw.x.end());
  }
  return &s.smooth;
}

const MinMaxIndex* CurveStore::index(int64_t runId, int rank, bool smooth) {
  CurveSeries* s = findMutable(runId, rank);
  if (!s) return nullptr;
  // Losses and their EMA only grow (append ignores rows already held): an index is extended
  // over the new values, and rebuilt only for a new EMA weight.
  if (!smooth) {
    s->rawIndex.extend(s->raw.y);
    return &s->rawIndex;
  }
  if (s->smoothIndexBeta != s->smoothBeta || s->smoothIndex.size() > s->smooth.y.size()) {
    s->smoothIndex = MinMaxIndex(s->smooth.y);
    s->smoothIndexBeta = s->smoothBeta;
  } else {
    s->smoothIndex.extend(s->smooth.y);
  }
  return &s->smoothIndex;
}

const std::vector<int>& CurveStore::ranks(int64_t runId) const {
  static const std::vector<int> kNone;
  auto it = ranks_.find(runId);
  return it == ranks_.end() ? kNone : it->second;
}

void CurveStore::removeRun(int64_t runId) {
  for (auto it = series_.begin(); it != series_.end();) {
    it = it->first.first == runId ? series_.erase(it) : std::next(it);
  }
  ranks_.erase(runId);
}

void CurveStore::clear() {
  series_.clear();
  ranks_.clear();
}

std::size_t CurveStore::pointCount() const {
  std::size_t n = 0;
  for (const auto& [key, s] : series_) n += s.size();
  return n;
}

}  // namespace parity::plot
