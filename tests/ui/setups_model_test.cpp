#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

namespace parity::ui {
namespace {

TEST(SetupPresets, TheSeedsThreeShapesShareGlobalBatch256) {
  const auto all = presets();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "Single GPU 1x256");
  EXPECT_EQ(all[1].name, "Multi-GPU 2x128");
  EXPECT_TRUE(all[2].name.startsWith("TPU-pod-shaped 8x32"));
  EXPECT_TRUE(all[2].name.contains("cannot run XLA"));
  for (const auto& p : all)
    EXPECT_EQ(config::global_batch_size(p.setup), 256) << p.name.toStdString();
}

TEST(SetupPresets, DemoIsSmallAndValid) {
  const auto demo = demoSetups();
  ASSERT_EQ(demo.size(), 4u);
  for (const auto& c : demo) {
    EXPECT_EQ(c.dataset, config::DatasetKind::kFashionMnist);
    EXPECT_EQ(c.model, config::ModelKind::kMlp);
    EXPECT_EQ(c.epochs, 1);
    EXPECT_GE(c.train_samples, 6000);
    EXPECT_LE(c.train_samples, 12000);
    EXPECT_TRUE(config::check(c).empty()) << c.label;
  }
  EXPECT_EQ(demo[3].lr_scaling, config::LrScaling::kLinear);
}

TEST(SetupsModel, AddDuplicateRemoveAndUniqueLabels) {
  SetupsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto p = presets();
  model.addSetup(p[1].setup);
  const int copy = model.duplicateSetup(0);
  EXPECT_EQ(copy, 1);
  EXPECT_EQ(model.index(1).data().toString(), "2x128 (2)");
  EXPECT_TRUE(model.setData(model.index(1), "renamed"));
  EXPECT_EQ(model.config(1).label, "renamed");
  model.removeSetup(0);
  EXPECT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.config(0).label, "renamed");
}

// A label that only says the shape follows the shape; once named by the user, it stays.
TEST(SetupsModel, LabelsFollowTheShapeUntilTheUserNamesThem) {
  SetupsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  config::RunConfig base = presets()[0].setup;  // 1x256
  base.label.clear();
  model.addSetup(base);
  model.addSetup(base);
  EXPECT_EQ(model.config(0).label, "1x256");
  EXPECT_EQ(model.config(1).label, "1x256 (2)");
  config::RunConfig changed = model.config(1);
  changed.num_processes = 4;
  changed.per_device_batch_size = 16;
  model.setSetup(1, changed);
  EXPECT_EQ(model.config(1).label, "4x16") << "the label stayed as it was before the change";
  EXPECT_TRUE(model.labelFollowsShape(1));
  changed = model.config(1);
  changed.gradient_accumulation_steps = 4;
  changed.mixed_precision = config::MixedPrecision::kBf16;
  model.setSetup(1, changed);
  EXPECT_EQ(model.config(1).label, "4x16 acc4 bf16");
  // Back to the first setup's shape: unique again, not a duplicate label.
  changed = model.config(1);
  changed.num_processes = 1;
  changed.per_device_batch_size = 256;
  changed.gradient_accumulation_steps = 1;
  changed.mixed_precision = config::MixedPrecision::kNo;
  model.setSetup(1, changed);
  EXPECT_EQ(model.config(1).label, "1x256 (2)");

  // Named in the form (a new label arrives with the setup), or renamed in the list: it stays.
  changed = model.config(1);
  changed.label = "baseline";
  model.setSetup(1, changed);
  changed = model.config(1);
  changed.num_processes = 2;
  model.setSetup(1, changed);
  EXPECT_EQ(model.config(1).label, "baseline");
  EXPECT_FALSE(model.labelFollowsShape(1));
  ASSERT_TRUE(model.setData(model.index(0), "mine"));
  changed = model.config(0);
  changed.per_device_batch_size = 128;
  model.setSetup(0, changed);
  EXPECT_EQ(model.config(0).label, "mine");
}

TEST(SetupsModel, ExperimentIsSharedAndValidationFollowsIt) {
  SetupsModel model;
  QAbstractItemModelTester tester(&model);
  model.addSetup(presets()[0].setup);
  model.addSetup(presets()[1].setup);
  EXPECT_TRUE(model.allValid());
  QSignalSpy changed(&model, &SetupsModel::setupsChanged);
  config::RunConfig e = model.experiment();
  e.lr = -1;  // invalid for everyone
  model.setExperiment(e);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_FALSE(model.allValid());
  EXPECT_EQ(model.config(1).lr, -1);
  ASSERT_FALSE(model.issues(0).empty());
  EXPECT_EQ(model.issues(0).front().field, "lr");
  EXPECT_FALSE(model.index(0).data(Qt::DecorationRole).isNull());
  e.lr = 0.1;
  model.setExperiment(e);
  EXPECT_TRUE(model.allValid());
}

TEST(SetupsModel, InvalidSetupBlocksLaunch) {
  SetupsModel model;
  EXPECT_FALSE(model.allValid());  // nothing to launch
  model.addSetup(presets()[0].setup);
  config::RunConfig s = model.config(0);
  s.num_processes = 0;
  model.setSetup(0, s);
  EXPECT_FALSE(model.allValid());
  EXPECT_EQ(model.issues(0).front().field, "num_processes");
}

TEST(SetupsModel, RoundTripsThroughSettingsJson) {
  SetupsModel model;
  model.reset(demoExperiment(), demoSetups());
  const QString json = model.toJson();
  SetupsModel restored;
  ASSERT_TRUE(restored.fromJson(json));
  ASSERT_EQ(restored.rowCount(), 4);
  EXPECT_EQ(restored.config(3).lr_scaling, config::LrScaling::kLinear);
  EXPECT_EQ(restored.experiment().train_samples, demoExperiment().train_samples);
  EXPECT_FALSE(restored.fromJson("{not json"));
}

}  // namespace
}  // namespace parity::ui
