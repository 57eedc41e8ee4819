// AverageNnetFiles and its options: Kaldi's thread count rule, the weights,
// the weighted mean read with 1-4 threads (Kaldi's partition of the models
// over the threads, bit for bit), and errors that name the file.
#include "nnet/nnet-average.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "base/error.h"
#include "nnet-test-utils.h"
#include "nnet/component-itf.h"
#include "nnet/nnet-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

const char *const kConfig =
    "input-node name=input dim=4\n"
    "component name=affine type=NaturalGradientAffineComponent input-dim=4 "
    "output-dim=3\n"
    "component-node name=affine component=affine input=input\n"
    "component name=relu type=RectifiedLinearComponent dim=3\n"
    "component-node name=relu component=relu input=affine\n"
    "component name=final type=AffineComponent input-dim=3 output-dim=2\n"
    "component-node name=final component=final input=relu\n"
    "output-node name=output input=final\n";

// All the updatable parameters of `nnet`, in component order.
std::vector<double> Params(const Nnet &nnet) {
  std::vector<double> all;
  for (int32_t c = 0; c < nnet.NumComponents(); c++) {
    const auto *u =
        dynamic_cast<const UpdatableComponent *>(nnet.GetComponent(c));
    if (u == nullptr) continue;
    Vector v(u->NumParameters());
    VectorView view = v;
    u->Vectorize(&view);
    for (float f : v.ToHost()) all.push_back(f);
  }
  return all;
}

// `num` models (the config's, each perturbed with its own seed) written to
// files in a temporary directory; removed by the destructor.
struct ModelFiles {
  std::string dir;
  std::vector<std::string> names;
  std::vector<Nnet> nnets;
  explicit ModelFiles(int32_t num) {
    char pattern[] = "/tmp/nnet-average-test.XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    dir = pattern;
    const Nnet base = NnetFromConfig(kConfig);
    for (int32_t i = 0; i < num; i++) {
      Nnet nnet(base);
      for (int32_t c = 0; c < nnet.NumComponents(); c++) {
        auto *u = dynamic_cast<UpdatableComponent *>(nnet.GetComponent(c));
        if (u != nullptr) u->PerturbParams(1.0f, 100 + 10 * i + c);  // seeds
      }
      names.push_back(dir + "/" + std::to_string(i) + ".raw");
      WriteKaldiObject(nnet, names.back(), true);
      nnets.push_back(std::move(nnet));
    }
  }
  ~ModelFiles() {
    for (const std::string &name : names) std::remove(name.c_str());
    rmdir(dir.c_str());
  }
};

}  // namespace

TEST_CASE("NumAverageThreads follows Kaldi's nnet3-average", "[average]") {
  // Not set: 1 up to 5 models, 2 up to 10, then 3.
  CHECK(NumAverageThreads(-1, 1) == 1);
  CHECK(NumAverageThreads(-1, 5) == 1);
  CHECK(NumAverageThreads(-1, 6) == 2);
  CHECK(NumAverageThreads(-1, 10) == 2);
  CHECK(NumAverageThreads(-1, 11) == 3);
  CHECK(NumAverageThreads(0, 40) == 3);
  // Set: kept unless a thread would get fewer than two models.
  CHECK(NumAverageThreads(4, 8) == 4);
  CHECK(NumAverageThreads(4, 7) == 3);
  CHECK(NumAverageThreads(2, 3) == 1);
  CHECK(NumAverageThreads(8, 1) == 1);
  CHECK(NumAverageThreads(1, 100) == 1);
}

TEST_CASE("ParseAverageWeights", "[average]") {
  CHECK(ParseAverageWeights("", 4) == std::vector<float>(4, 0.25f));
  const std::vector<float> w = ParseAverageWeights("1:3", 2);
  CHECK(w[0] == Approx(0.25f));
  CHECK(w[1] == Approx(0.75f));
  CHECK_THROWS_WITH(ParseAverageWeights("1:2:3", 2),
                    Catch::Contains("list with 2 elements, got: 1:2:3"));
  CHECK_THROWS_WITH(ParseAverageWeights("1:-2", 2),
                    Catch::Contains("'-2' is not a positive number"));
}

TEST_CASE("AverageNnetFiles: the weighted mean with 1-4 threads", "[average]") {
  const int32_t num = 7;
  ModelFiles files(num);
  const std::vector<float> weights = ParseAverageWeights("1:2:3:4:5:6:7", num);
  std::vector<double> want(Params(files.nnets[0]).size(), 0.0);
  for (int32_t i = 0; i < num; i++) {
    const std::vector<double> p = Params(files.nnets[i]);
    for (size_t j = 0; j < p.size(); j++) want[j] += weights[i] * p[j];
  }
  for (int32_t threads = 1; threads <= 4; threads++) {
    INFO(threads << " threads");
    Nnet average;
    AverageNnetFiles(files.names, weights, threads, &average);
    const std::vector<double> got = Params(average);
    REQUIRE(got.size() == want.size());
    for (size_t j = 0; j < got.size(); j++)
      CHECK(got[j] == Approx(want[j]).margin(1e-5));
    // Kaldi's order: thread t sums models t, t + T, ...; then the threads'
    // sums are added in order. The same float operations give the same
    // bits.
    std::vector<Nnet> sums;
    for (int32_t t = 0; t < threads; t++) {
      Nnet sum(files.nnets[t]);
      ScaleNnet(weights[t], &sum);
      for (int32_t i = t + threads; i < num; i += threads)
        AddNnet(files.nnets[i], weights[i], &sum);
      sums.push_back(std::move(sum));
    }
    for (int32_t t = 1; t < threads; t++) AddNnet(sums[t], 1.0f, &sums[0]);
    CHECK(Params(average) == Params(sums[0]));
  }
}

TEST_CASE("AverageNnetFiles: errors name the model", "[average]") {
  ModelFiles files(4);
  const std::vector<float> weights = ParseAverageWeights("", 4);
  for (int32_t threads : {1, 2}) {
    INFO(threads << " threads");
    std::vector<std::string> names = files.names;
    names[3] = files.dir + "/missing.raw";
    Nnet average;
    CHECK_THROWS_WITH(AverageNnetFiles(names, weights, threads, &average),
                      Catch::Contains("missing.raw"));
    // A model with other dims.
    Nnet other = NnetFromConfig(
        "input-node name=input dim=4\n"
        "component name=affine type=NaturalGradientAffineComponent "
        "input-dim=4 output-dim=5\n"
        "component-node name=affine component=affine input=input\n"
        "component name=relu type=RectifiedLinearComponent dim=5\n"
        "component-node name=relu component=relu input=affine\n"
        "component name=final type=AffineComponent input-dim=5 "
        "output-dim=2\n"
        "component-node name=final component=final input=relu\n"
        "output-node name=output input=final\n");
    names[3] = files.dir + "/other.raw";
    WriteKaldiObject(other, names[3], true);
    CHECK_THROWS_WITH(
        AverageNnetFiles(names, weights, threads, &average),
        Catch::Contains("other.raw") &&
            Catch::Contains("'affine') has dims 4 -> 3 in one and 4 -> 5"));
    std::remove(names[3].c_str());
  }
}

}  // namespace nnet3
