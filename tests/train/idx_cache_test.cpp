// The decoded-IDX cache: cold, warm and off read the same bytes; a damaged, stale or unusable
// entry falls back to decoding and is rebuilt; a run trains on the same bits whichever it was;
// a batch converted on its own holds the bits the whole set converted at once did.
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <parity/train/datasets.h>
#include <parity/train/idx_cache.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

// A gzipped IDX file of `n` 3x4 images whose pixels count up from `first`.
std::string write_images(const std::string& path, int n, int first) {
  std::vector<unsigned char> bytes{0, 0, 8, 3, 0, 0, 0, static_cast<unsigned char>(n),
                                   0, 0, 0, 3, 0, 0, 0, 4};
  for (int i = 0; i < n * 12; ++i) bytes.push_back(static_cast<unsigned char>(first + i));
  gzFile f = gzopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
  return path;
}

struct ScopedEnv {
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (saved_) {
      ::setenv(name_, saved_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  const char* name_;
  std::optional<std::string> saved_;
};

// The cache in `folder`, for files of any size (the fixtures here are tiny).
IdxCacheOptions in(const std::string& folder) { return IdxCacheOptions{folder, 0}; }

TEST(IdxCache, ColdWarmAndOffReadTheSameBytes) {
  TempDir dir;
  const std::string src = write_images(dir.file("a-idx3-ubyte.gz"), 5, 7);
  const auto expected = read_idx(src);
  const auto cold = read_idx_cached(src, in(dir.file("cache")));
  const std::string entry = idx_cache_file(src, in(dir.file("cache")));
  ASSERT_TRUE(fs::is_regular_file(entry)) << entry;
  EXPECT_EQ(fs::file_size(entry), 4096u + 5 * 12);
  const auto written = fs::last_write_time(entry);
  const auto warm = read_idx_cached(src, in(dir.file("cache")));
  const auto off = read_idx_cached(src, in(""));
  for (const auto& t : {cold, warm, off}) {
    EXPECT_EQ(t.sizes(), expected.sizes());
    EXPECT_TRUE(torch::equal(t, expected));
  }
  EXPECT_EQ(fs::last_write_time(entry), written) << "a warm read rewrote the entry";
  // Nothing but entries and their lock files is left (no temporary file).
  for (const auto& e : fs::directory_iterator(dir.file("cache"))) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name.size() > 3 &&
                (name.substr(name.size() - 3) == ".u8" || name.substr(name.size() - 5) == ".lock"))
        << name;
  }
}

TEST(IdxCache, ATruncatedCorruptOrStaleEntryIsRebuilt) {
  TempDir dir;
  const std::string src = write_images(dir.file("a-idx3-ubyte.gz"), 5, 7);
  const auto expected = read_idx(src);
  read_idx_cached(src, in(dir.path()));
  const std::string entry = idx_cache_file(src, in(dir.path()));
  const auto full = fs::file_size(entry);

  fs::resize_file(entry, full - 10);  // truncated: a half-written copy
  std::ofstream(entry + ".tmp.999999.0") << "left by a writer that was killed";
  EXPECT_TRUE(torch::equal(read_idx_cached(src, in(dir.path())), expected));
  EXPECT_EQ(fs::file_size(entry), full);
  EXPECT_FALSE(fs::exists(entry + ".tmp.999999.0"));

  {  // a flipped byte in the header
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(9);
    f.put('\x7f');
  }
  EXPECT_TRUE(torch::equal(read_idx_cached(src, in(dir.path())), expected));
  std::ifstream check(entry, std::ios::binary);
  char magic[8];
  check.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), "PARIDX01");

  std::ofstream(entry, std::ios::trunc) << "not a cache entry";
  EXPECT_TRUE(torch::equal(read_idx_cached(src, in(dir.path())), expected));
  EXPECT_EQ(fs::file_size(entry), full);

  // The source changes (other pixels, other size and time): the entry follows it.
  write_images(src, 6, 40);
  struct timespec times[2] = {{0, UTIME_OMIT}, {1, 0}};  // an mtime unlike the first file's
  ASSERT_EQ(::utimensat(AT_FDCWD, src.c_str(), times, 0), 0);
  const auto changed = read_idx(src);
  EXPECT_TRUE(torch::equal(read_idx_cached(src, in(dir.path())), changed));
  EXPECT_EQ(idx_cache_file(src, in(dir.path())), entry);  // one entry a source
  EXPECT_EQ(fs::file_size(entry), 4096u + 6 * 12);
}

TEST(IdxCache, AnUnusableFolderFallsBackToDecodingWithoutError) {
  TempDir dir;
  const std::string src = write_images(dir.file("a-idx3-ubyte.gz"), 2, 0);
  std::ofstream(dir.file("a-file")) << "x";  // a folder path that is a file
  EXPECT_TRUE(torch::equal(read_idx_cached(src, in(dir.file("a-file/cache"))), read_idx(src)));
  // The source's own errors are still the source's.
  EXPECT_THROW(read_idx_cached(dir.file("missing.gz"), in(dir.path())), config::DatasetError);
  std::ofstream(dir.file("bad.gz")) << "not idx";
  EXPECT_THROW(read_idx_cached(dir.file("bad.gz"), in(dir.path())), config::DatasetError);
}

TEST(IdxCache, ASmallSourceIsDecodedWithoutAnEntry) {
  TempDir dir;
  const std::string src = write_images(dir.file("a-idx3-ubyte.gz"), 5, 7);
  EXPECT_TRUE(
      torch::equal(read_idx_cached(src, IdxCacheOptions{dir.file("cache")}), read_idx(src)));
  EXPECT_FALSE(fs::exists(idx_cache_file(src, in(dir.file("cache")))));
}

TEST(IdxCache, TheFolderComesFromTheEnvironment) {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv cache(kEnvDataCache, "/somewhere/else");
    EXPECT_EQ(IdxCacheOptions::from_environment().folder, "/somewhere/else");
  }
  {
    ScopedEnv cache(kEnvDataCache, "off");
    EXPECT_EQ(IdxCacheOptions::from_environment().folder, "");
  }
  ScopedEnv cache(kEnvDataCache, "");  // empty: as if unset
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(IdxCacheOptions::from_environment().folder, "/xdg/parity");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", "");
  EXPECT_EQ(IdxCacheOptions::from_environment().folder, "/home/someone/.cache/parity");
}

bool have_fashion_mnist() {
  return std::ifstream(std::string(config::kFashionMnistDir) + "/train-images-idx3-ubyte.gz")
      .good();
}

// The conversion as it was done before batches were converted one at a time: the whole set at
// once, then rows picked.
TEST(IdxCache, ABatchConvertedAloneHoldsTheWholeSetsBits) {
  if (!have_fashion_mnist()) PARITY_SKIP_OR_FAIL() << "dataset-fashion-mnist is not installed";
  config::RunConfig c;
  const DataSplit split = load_dataset(c, IdxCacheOptions{});
  ASSERT_TRUE(split.test.pixels.has_value());
  const auto whole = read_idx(std::string(config::kFashionMnistDir) + "/t10k-images-idx3-ubyte.gz")
                         .to(torch::kFloat32)
                         .div_(255.0f)
                         .unsqueeze(1)
                         .contiguous()
                         .sub_(0.2860f)
                         .div_(0.3530f);
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < split.test.size(); i += 7) rows.push_back(i);
  rows.push_back(3);
  const auto batch = gather_batch(split.test, rows).first;
  const auto idx = torch::tensor(rows, torch::kInt64);
  EXPECT_TRUE(torch::equal(batch, whole.index_select(0, idx)));
  EXPECT_TRUE(torch::equal(float_inputs(split.test), whole));
}

std::vector<double> losses_with_cache(const std::string& setting) {
  ScopedEnv env(kEnvDataCache, setting);
  config::RunConfig c;
  c.train_samples = 2048;
  c.model = config::ModelKind::kMlp;
  c.hidden = {64, 64};
  c.num_processes = 2;
  c.per_device_batch_size = 32;
  c.max_steps = 12;
  c.eval_every_epoch = true;
  const auto run = testing::train_threaded(c);
  std::vector<double> out;
  for (const auto& s : run.sink.steps) {
    out.push_back(s.loss);
    out.insert(out.end(), s.rank_losses.begin(), s.rank_losses.end());
  }
  for (const auto& e : run.sink.evals) out.insert(out.end(), {e.loss, e.accuracy});
  return out;
}

TEST(IdxCache, ARunTrainsOnTheSameBitsColdWarmOffAndAfterDamage) {
  if (!have_fashion_mnist()) PARITY_SKIP_OR_FAIL() << "dataset-fashion-mnist is not installed";
  TempDir dir;
  const std::string folder = dir.file("cache");
  const auto cold = losses_with_cache(folder);
  ASSERT_EQ(cold.size(), 12u * 3 + 2);
  const std::string entry = idx_cache_file(
      std::string(config::kFashionMnistDir) + "/train-images-idx3-ubyte.gz", in(folder));
  ASSERT_TRUE(fs::is_regular_file(entry));
  const auto full = fs::file_size(entry);
  const auto warm = losses_with_cache(folder);
  const auto off = losses_with_cache("off");
  fs::resize_file(entry, full / 2);
  const auto rebuilt = losses_with_cache(folder);
  EXPECT_EQ(fs::file_size(entry), full);
  // Bit for bit: == on doubles, not a tolerance.
  EXPECT_EQ(warm, cold);
  EXPECT_EQ(off, cold);
  EXPECT_EQ(rebuilt, cold);
}

}  // namespace
}  // namespace parity::train
