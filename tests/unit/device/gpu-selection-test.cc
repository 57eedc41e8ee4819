// Kaldi's --use-gpu policy (ChooseGpu) against a fake machine: no GPU,
// free GPUs, GPUs busy in exclusive-process mode that free up after some
// retries, --gpu-id; and the --cuda-memory-cap parser.
#include "device/gpu-selection.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// A machine of `ratios.size()` GPUs with these free-memory ratios; GPU i
// can be acquired from the attempt number busy_until[i] on (0: at once;
// -1: never). Records the attempts and the sleeps.
class FakeProbe : public GpuProbe {
 public:
  std::vector<double> ratios;
  std::vector<int> busy_until;
  bool exclusive = false;
  std::vector<int> attempts;  // device ids, in order
  std::vector<double> sleeps;

  int NumDevices(std::string *why_none) override {
    if (ratios.empty()) *why_none = "no driver";
    return static_cast<int>(ratios.size());
  }
  bool IsExclusive(int) override { return exclusive; }
  double FreeMemoryRatio(int id) override { return ratios[id]; }
  bool TryAcquire(int id, std::string *why) override {
    const int n = static_cast<int>(attempts.size());
    attempts.push_back(id);
    if (busy_until[id] >= 0 && n >= busy_until[id]) return true;
    *why = "busy";
    return false;
  }
  void Sleep(double seconds) override { sleeps.push_back(seconds); }
};

std::string ErrorOf(const std::string &use_gpu, int gpu_id, FakeProbe *p) {
  std::string why;
  try {
    ChooseGpu(use_gpu, gpu_id, p, &why);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

TEST_CASE("ChooseGpu without a GPU", "[device]") {
  FakeProbe p;
  for (const char *v : {"yes", "wait"}) {
    const std::string e = ErrorOf(v, -1, &p);
    INFO(e);
    CHECK(e.find(std::string("--use-gpu=") + v) != std::string::npos);
    CHECK(e.find("no CUDA GPU detected: no driver") != std::string::npos);
  }
  std::string why;
  CHECK(ChooseGpu("optional", -1, &p, &why) == -1);
  CHECK(why.find("no driver") != std::string::npos);
  CHECK(p.sleeps.empty());
}

TEST_CASE("ChooseGpu prefers the GPU with the most free memory", "[device]") {
  FakeProbe p;
  p.ratios = {0.2, 0.9, 0.5};
  p.busy_until = {0, 0, 0};
  std::string why;
  CHECK(ChooseGpu("yes", -1, &p, &why) == 1);
  CHECK(p.attempts == std::vector<int>{1});
  // A busy GPU is skipped for the next best.
  FakeProbe q = p;
  q.attempts.clear();
  q.busy_until = {0, -1, 0};
  CHECK(ChooseGpu("yes", -1, &q, &why) == 2);
  CHECK(q.attempts == std::vector<int>({1, 2}));
  // In exclusive mode the order is the driver's, not by memory.
  FakeProbe r = p;
  r.attempts.clear();
  r.exclusive = true;
  CHECK(ChooseGpu("yes", -1, &r, &why) == 0);
}

TEST_CASE("ChooseGpu with --gpu-id", "[device]") {
  FakeProbe p;
  p.ratios = {0.2, 0.9};
  p.busy_until = {0, 0};
  std::string why;
  CHECK(ChooseGpu("yes", 0, &p, &why) == 0);
  CHECK(p.attempts == std::vector<int>{0});
  for (int bad : {2, -2}) {
    const std::string e = ErrorOf("yes", bad, &p);
    INFO(e);
    CHECK(e.find("--gpu-id=" + std::to_string(bad)) != std::string::npos);
    CHECK(e.find("2 GPUs are visible") != std::string::npos);
  }
}

TEST_CASE("ChooseGpu with a busy exclusive-process GPU", "[device]") {
  FakeProbe p;
  p.ratios = {0.5};
  p.exclusive = true;
  p.busy_until = {-1};  // never free
  // yes: one retry after 20 s, then a clear error.
  const std::string e = ErrorOf("yes", -1, &p);
  INFO(e);
  CHECK(e.find("--use-gpu=yes") != std::string::npos);
  CHECK(e.find("no more unused GPUs") != std::string::npos);
  CHECK(e.find("--use-gpu=wait") != std::string::npos);
  CHECK(p.sleeps == std::vector<double>{20.0});
  CHECK(p.attempts.size() == 2);
  // optional: one retry after 2 s, then the CPU.
  p.sleeps.clear();
  p.attempts.clear();
  std::string why;
  CHECK(ChooseGpu("optional", -1, &p, &why) == -1);
  CHECK(why.find("busy") != std::string::npos);
  CHECK(p.sleeps == std::vector<double>{2.0});
  // wait: every 5 s until it is free (here from the 4th attempt).
  p.sleeps.clear();
  p.attempts.clear();
  p.busy_until = {3};
  CHECK(ChooseGpu("wait", -1, &p, &why) == 0);
  CHECK(p.sleeps == std::vector<double>({5.0, 5.0, 5.0}));
  CHECK(p.attempts.size() == 4);
  // yes gets it on the retry when it frees up within the 20 s.
  p.sleeps.clear();
  p.attempts.clear();
  p.busy_until = {1};
  CHECK(ChooseGpu("yes", -1, &p, &why) == 0);
  CHECK(p.sleeps == std::vector<double>{20.0});
}

TEST_CASE("ParseMemoryCap", "[device]") {
  CHECK(ParseMemoryCap("") == 0);
  CHECK(ParseMemoryCap("0") == 0);
  CHECK(ParseMemoryCap("1000") == 1000);
  CHECK(ParseMemoryCap("8G") == size_t(8) << 30);
  CHECK(ParseMemoryCap("512m") == size_t(512) << 20);
  CHECK(ParseMemoryCap("1.5GiB") == size_t(3) << 29);
  CHECK(ParseMemoryCap("2KB") == 2048);
  CHECK(ParseMemoryCap("1T") == size_t(1) << 40);
  for (const char *bad : {"x", "8X", "-1G", "G", "8GG", " 8G", "nan"}) {
    INFO(bad);
    try {
      ParseMemoryCap(bad);
      FAIL("no error");
    } catch (const UserError &e) {
      CHECK(std::string(e.what()).find("--cuda-memory-cap=") !=
            std::string::npos);
    }
  }
}

}  // namespace
}  // namespace nnet3
