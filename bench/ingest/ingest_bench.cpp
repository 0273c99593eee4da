// parity_bench_ingest: a 100 MB TensorBoard event file (one train/loss scalar per event, as
// torch's add_scalar writes them: ~2 M scalars) written once, then read (a) as plain bytes in
// 8 MB chunks and (b) by parity_ingest (frames, both CRCs, events, the run's points), paired and
// repeated; prints wall time, CPU time and the peak resident set. `parity_bench_ingest FILE`
// keeps the file for timing `parity-cli import` on it.
#include <parity/ingest/crc32c.h>
#include <parity/ingest/tensorboard_logdir.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace parity::ingest;

std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  return out + static_cast<char>(v);
}
std::string fixed(uint64_t v, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}
std::string len(int field, const std::string& b) {
  return varint(static_cast<uint64_t>(field << 3 | 2)) + varint(b.size()) + b;
}
std::string record(const std::string& data) {
  const std::string l = fixed(data.size(), 8);
  return l + fixed(masked_crc32c(l), 4) + data + fixed(masked_crc32c(data), 4);
}

void write_file(const std::string& path, uint64_t target_bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  uint64_t written = 0;
  std::string chunk;
  for (int64_t step = 1; written < target_bytes; ++step) {
    double wall = 1.7e9 + static_cast<double>(step) * 0.01;
    uint64_t wbits;
    std::memcpy(&wbits, &wall, 8);
    float loss = 2.3f / (1.0f + static_cast<float>(step) * 1e-5f);
    uint32_t lbits;
    std::memcpy(&lbits, &loss, 4);
    const std::string value = len(1, "train/loss") + "\x15" + fixed(lbits, 4);
    const std::string event = "\x09" + fixed(wbits, 8) + "\x10" +
                              varint(static_cast<uint64_t>(step)) + len(5, len(1, value));
    chunk += record(event);
    if (chunk.size() > (1u << 20)) {
      out << chunk;
      written += chunk.size();
      chunk.clear();
    }
  }
  out << chunk;
}

double cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

long peak_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path dir =
      argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "parity-bench-ingest";
  fs::create_directories(dir);
  const std::string file = (dir / "events.out.tfevents.1.bench").string();
  if (!fs::exists(file) || fs::file_size(file) < 100'000'000) write_file(file, 100'000'000);
  std::printf("file: %.1f MB\n", static_cast<double>(fs::file_size(file)) / 1e6);
  for (int round = 0; round < 3; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_s();
    std::ifstream in(file, std::ios::binary);
    std::string buf(8u << 20, '\0');
    uint64_t sum = 0;
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
      sum += static_cast<unsigned char>(buf[static_cast<size_t>(in.gcount()) - 1]);
      if (!in) break;
    }
    const double plain =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double plain_cpu = cpu_s() - c0;
    t0 = std::chrono::steady_clock::now();
    c0 = cpu_s();
    auto runs = find_tensorboard_runs(dir.string());
    runs.at(0).poll();
    const ImportedRun run = runs.at(0).run();
    const double read =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "round %d: plain read %.3f s (cpu %.3f s) | parity_ingest %.3f s (cpu %.3f s), "
        "%zu scalars | peak RSS %ld MB  [%llu]\n",
        round, plain, plain_cpu, read, cpu_s() - c0, run.points.size(), peak_mb(),
        static_cast<unsigned long long>(sum % 10));
  }
  return 0;
}
