// The verdict table's model on a comparison written by hand: a reference, an equivalent run that
// shared the cores, and a different run of another experiment with a confirmed and a running
// proof. Every column's text, tooltip and colour, and the header.
#include <gtest/gtest.h>
#include <parity/ui/compare/verdict_table_model.h>

#include <QBrush>
#include <QColor>
#include <QSignalSpy>
#include <optional>

namespace parity::ui {
namespace {

using M = VerdictTableModel;

analysis::Comparison knownComparison() {
  analysis::Comparison c;
  c.reference_id = 1;
  analysis::RunComparison ref;
  ref.id = 1;
  ref.label = "1x64";
  ref.verdict = analysis::Verdict::kReference;
  ref.summary = "reference: final loss 0.4";
  ref.samples_per_s = 2000.4;
  ref.per_device_samples_per_s = 2000.4;
  ref.scaling_efficiency = 1.0;
  analysis::RunComparison same;
  same.id = 2;
  same.label = "2x32";
  same.verdict = analysis::Verdict::kEquivalent;
  same.summary = "equivalent within the seeds' spread";
  same.delta.max_abs = 0.0123456;
  same.delta.final_abs = 0.001;
  same.samples_per_s = 3000;
  same.per_device_samples_per_s = 1500;
  same.scaling_efficiency = 0.75;
  same.info = {{"threads", "threads differ"}, {"seed", "seeds differ"}};
  analysis::RunComparison other;
  other.id = 3;
  other.label = "2x64 unscaled";
  other.verdict = analysis::Verdict::kDifferent;
  other.summary = "different: parts at 1024 samples";
  other.delta.max_abs = 0.5;
  other.delta.final_abs = 0.25;
  other.reasons = {{"global_batch", "global batch 128 vs 64"}, {"effective_lr", "lr not scaled"}};
  c.rows = {ref, same, other};
  return c;
}

RunProofs knownProofs() {
  stored_runs::StoredProof confirmed;
  confirmed.counterfactual = 7;
  confirmed.cause = "global_batch";
  confirmed.status = storage::RunStatus::kFinished;
  confirmed.result = analysis::ProofResult{analysis::Proof::kConfirmed, 9.0, "confirmed: now"};
  stored_runs::StoredProof running;
  running.counterfactual = 8;
  running.cause = "effective_lr";
  running.status = storage::RunStatus::kRunning;
  return {{3, {confirmed, running}}};
}

class VerdictTableModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    M::RunNotes notes;
    notes.sharedCores.insert(2, "shared the cores with #3");
    notes.otherExperiment.insert(3, "data: a.csv vs fashion-mnist");
    model.setComparison(knownComparison(), knownProofs(), notes);
  }
  QString text(int row, int column) const { return model.index(row, column).data().toString(); }
  QString tip(int row, int column) const {
    return model.index(row, column).data(Qt::ToolTipRole).toString();
  }
  QVariant colour(int row, int column) const {
    return model.index(row, column).data(Qt::ForegroundRole);
  }
  M model;
};

TEST_F(VerdictTableModelTest, HasARowPerComparedRunAndNineColumns) {
  EXPECT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.columnCount(), 9);
  EXPECT_EQ(model.rowCount(model.index(0, 0)), 0);  // a table: no children
  const QStringList headers = {"Run",           "Verdict",   "Max |Δloss|",
                               "Final |Δloss|", "Samples/s", "Per device",
                               "Scaling",       "Proof",     "Why"};
  for (int c = 0; c < model.columnCount(); ++c)
    EXPECT_EQ(model.headerData(c, Qt::Horizontal).toString(), headers[c]) << c;
  EXPECT_TRUE(model.headerData(M::kSpeedColumn, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .contains("(* shared the cores)"));
  EXPECT_TRUE(model.headerData(M::kProofColumn, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .startsWith("Counterfactual runs (Prove)"));
  EXPECT_FALSE(model.headerData(M::kRunColumn, Qt::Horizontal, Qt::ToolTipRole).isValid());
  EXPECT_EQ(model.flags(model.index(1, 1)), Qt::ItemIsSelectable | Qt::ItemIsEnabled);
}

TEST_F(VerdictTableModelTest, TheReferenceRowLeavesTheDeltasEmpty) {
  EXPECT_EQ(text(0, M::kRunColumn), "#1  1x64");
  EXPECT_EQ(text(0, M::kVerdictColumn), "reference");
  EXPECT_EQ(text(0, M::kMaxDeltaColumn), "");
  EXPECT_EQ(text(0, M::kFinalDeltaColumn), "");
  EXPECT_EQ(text(0, M::kSpeedColumn), "2000");
  EXPECT_EQ(text(0, M::kScalingColumn), "100 %");
  EXPECT_EQ(text(0, M::kProofColumn), "");
  EXPECT_EQ(text(0, M::kWhyColumn), "reference: final loss 0.4");
  EXPECT_EQ(tip(0, M::kRunColumn), "reference: final loss 0.4");
  EXPECT_EQ(tip(0, M::kSpeedColumn), "");
  EXPECT_FALSE(colour(0, M::kVerdictColumn).isValid());  // the palette's text colour
  EXPECT_EQ(model.index(0, M::kWhyColumn).data(M::kRunIdRole).toLongLong(), 1);
}

TEST_F(VerdictTableModelTest, AnEquivalentRunThatSharedTheCoresIsGreenAndMarked) {
  EXPECT_EQ(text(1, M::kVerdictColumn), "equivalent");
  EXPECT_EQ(colour(1, M::kVerdictColumn).value<QBrush>().color(), QColor(0x2e, 0x7d, 0x32));
  EXPECT_EQ(text(1, M::kMaxDeltaColumn), "0.01235");
  EXPECT_EQ(text(1, M::kFinalDeltaColumn), "0.001");
  EXPECT_EQ(text(1, M::kSpeedColumn), "3000 *");
  EXPECT_EQ(text(1, M::kPerDeviceColumn), "1500 *");
  EXPECT_EQ(text(1, M::kScalingColumn), "75 % *");
  EXPECT_EQ(tip(1, M::kSpeedColumn), "shared the cores with #3");
  EXPECT_EQ(tip(1, M::kPerDeviceColumn), "shared the cores with #3");
  EXPECT_EQ(tip(1, M::kScalingColumn),
            "shared the cores with #3\nA throughput measured alongside other runs understates "
            "the scaling.");
  // An equivalent run's Why is its summary; the information goes to the tooltip.
  EXPECT_EQ(text(1, M::kWhyColumn), "equivalent within the seeds' spread");
  EXPECT_EQ(tip(1, M::kWhyColumn),
            "equivalent within the seeds' spread\nthreads differ; seeds differ");
  EXPECT_EQ(tip(1, M::kRunColumn), tip(1, M::kWhyColumn));
  EXPECT_FALSE(colour(1, M::kWhyColumn).isValid());
}

TEST_F(VerdictTableModelTest, ADifferentRunOfAnotherExperimentSaysSoFirstWithItsProofs) {
  EXPECT_EQ(text(2, M::kVerdictColumn), "different");
  EXPECT_EQ(colour(2, M::kVerdictColumn).value<QBrush>().color(), QColor(0xc6, 0x28, 0x28));
  EXPECT_EQ(text(2, M::kSpeedColumn), "");  // no throughput measured
  EXPECT_EQ(text(2, M::kScalingColumn), "");
  EXPECT_EQ(text(2, M::kWhyColumn),
            "Another experiment (data: a.csv vs fashion-mnist); global batch 128 vs 64; lr not "
            "scaled");
  EXPECT_EQ(colour(2, M::kWhyColumn).value<QBrush>().color(), QColor(0xc6, 0x28, 0x28));
  EXPECT_EQ(text(2, M::kProofColumn), "global_batch confirmed (#7); effective_lr running (#8)");
  EXPECT_EQ(tip(2, M::kProofColumn), "#7 global_batch: confirmed: now\n#8 effective_lr: running");
}

TEST_F(VerdictTableModelTest, FindsRowsByRunAndResetsOnANewComparison) {
  EXPECT_EQ(model.runId(2), 3);
  EXPECT_EQ(model.runId(3), 0);
  EXPECT_EQ(model.runId(-1), 0);
  EXPECT_EQ(model.rowOf(2), 1);
  EXPECT_EQ(model.rowOf(99), -1);
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  analysis::Comparison fewer = knownComparison();
  fewer.rows.pop_back();
  model.setComparison(fewer, {}, {});
  EXPECT_EQ(reset.count(), 1);
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(text(1, M::kSpeedColumn), "3000");  // no note: no mark
  EXPECT_FALSE(model.index(2, 0).isValid());
}

stored_runs::StoredProof proof(int64_t id, const std::string& cause, storage::RunStatus status,
                               std::optional<analysis::Proof> result = std::nullopt) {
  stored_runs::StoredProof p;
  p.counterfactual = id;
  p.cause = cause;
  p.status = status;
  if (result) p.result = analysis::ProofResult{*result, 1.0, "judged"};
  return p;
}

// The remedy's rows (Make it equivalent's, or Prove's combined "all") read in `fix`'s words, one
// entry for the remedy and its band: queued, running, then equivalent now or not equivalent.
TEST_F(VerdictTableModelTest, TheRemedyReadsEquivalentNowOrNotEquivalentOnceForItsBand) {
  using S = storage::RunStatus;
  auto cell = [&](std::vector<stored_runs::StoredProof> proofs) {
    model.setComparison(knownComparison(), {{3, std::move(proofs)}}, {});
    return text(2, M::kProofColumn);
  };
  EXPECT_EQ(cell({proof(9, "all", S::kQueued)}), "fix queued (#9)");
  // The remedy judged against the band of the reference under two more seeds: one entry.
  EXPECT_EQ(cell({proof(9, "all", S::kFinished), proof(10, "all", S::kRunning),
                  proof(11, "all", S::kQueued)}),
            "fix running (#9)");
  const auto confirmed = analysis::Proof::kConfirmed;
  EXPECT_EQ(
      cell({proof(9, "all", S::kFinished, confirmed), proof(10, "all", S::kFinished, confirmed),
            proof(11, "all", S::kFinished, confirmed)}),
      "equivalent now (#9)");
  EXPECT_EQ(cell({proof(7, "global_batch", S::kFinished, confirmed),
                  proof(9, "all", S::kFinished, analysis::Proof::kPartly)}),
            "global_batch confirmed (#7); not equivalent (#9)");
  EXPECT_EQ(cell({proof(9, "all but batch_norm", S::kFinished, analysis::Proof::kNotConfirmed)}),
            "all but batch_norm: not equivalent (#9)");
  EXPECT_EQ(cell({proof(9, "all", S::kFailed)}), "fix failed (#9)");
}

// The window's button is Prove where the CLI's command is `explain`: the verdict says so.
TEST_F(VerdictTableModelTest, TheVerdictNamesProveWhereTheCliSaysExplain) {
  analysis::Comparison c = knownComparison();
  c.rows[2].reasons = {{"summation_order",
                        "summation order or a bug: 1 vs 2 processes — `explain` tells them apart"}};
  model.setComparison(c, {}, {});
  EXPECT_TRUE(text(2, M::kWhyColumn).endsWith("— Prove tells them apart"))
      << text(2, M::kWhyColumn).toStdString();
  EXPECT_EQ(inWindowWords("no command here"), "no command here");
}

}  // namespace
}  // namespace parity::ui
