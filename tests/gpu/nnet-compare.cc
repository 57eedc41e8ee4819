#include "nnet-compare.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <vector>

#include "../unit/compile/nnet-test-utils.h"
#include "../unit/compute/compute-test-utils.h"
#include "../unit/compute/random-computation-utils.h"
#include "base/random.h"
#include "compile/nnet-context.h"
#include "nnet/nnet-utils.h"
#include "train/nnet-example-utils.h"
#include "train/nnet-training.h"

namespace nnet3 {
namespace gpu_test {

void Comparison::Merge(const std::string &what, const Comparison &other) {
  if (differences == 0 && other.differences > 0)
    first = what + ": " + other.first;
  differences += other.differences;
  margin += (margin.empty() ? "" : "; ") + what + ": " + other.margin;
}

std::string Comparison::Describe() const {
  std::ostringstream os;
  os << differences << " differences";
  if (differences > 0) os << "; first: " << first;
  os << "; largest: " << margin;
  if (differences > 0 && !context.empty()) os << "\n" << context;
  return os.str();
}

void ExpectAgreement(const std::string &what, const Comparison &c) {
  INFO(what << ": " << c.Describe());
  CHECK(c.Agree());
}

Nnet CopyTo(const Nnet &nnet, Device &device) {
  std::ostringstream os;
  nnet.Write(os, true);
  Device &before = ActiveDevice();
  SetActiveDevice(device);
  Nnet copy;
  std::istringstream is(os.str());
  copy.Read(is, true);
  SetActiveDevice(before);
  return copy;
}

namespace {

// "x of its bound y (ratio)": how near a difference came to its bound.
std::string Margin(double difference, double bound) {
  std::ostringstream os;
  os << difference << " against a bound of " << bound << " ("
     << std::setprecision(2) << (bound > 0 ? difference / bound : 0.0)
     << " of it)";
  return os.str();
}

// Keeps the nearest call so far in *c (by difference / bound).
void Note(double difference, double bound, double *worst, Comparison *c) {
  const double ratio = bound > 0 ? difference / bound : 0.0;
  if (c->margin.empty() || ratio > *worst) {
    *worst = ratio;
    c->margin = Margin(difference, bound);
  }
}

// An nnet written as text, word by word, with each matrix or vector
// ("[ ... ]") as one item.
struct TextItem {
  std::string word;            // a word that is not a number, or "[]"
  std::vector<double> values;  // a number, or a block's numbers
};

bool IsNumber(const std::string &w, double *value) {
  char *end = nullptr;
  *value = std::strtod(w.c_str(), &end);
  return !w.empty() && *end == '\0';
}

// `nnet` written as text with every float exact.
std::vector<TextItem> TextItems(const Nnet &nnet) {
  std::ostringstream os;
  os << std::setprecision(9);
  nnet.Write(os, false);
  std::istringstream is(os.str());
  std::vector<TextItem> items;
  bool in_block = false;
  for (std::string w; is >> w;) {
    double x = 0.0;
    if (in_block && w == "]") {
      in_block = false;
    } else if (in_block && IsNumber(w, &x)) {
      items.back().values.push_back(x);
    } else if (w == "[") {
      in_block = true;
      items.push_back({"[]", {}});
    } else if (IsNumber(w, &x)) {
      items.push_back({"", {x}});
    } else {
      items.push_back({w, {}});
    }
  }
  return items;
}

// Bounds each item's difference test - ref by rel times the change from
// `before` (nullptr: from zero; an empty block before: from zeros) plus a
// rounding floor of 1e-5 of before's norm and 1e-6.
Comparison CompareItems(const std::vector<TextItem> *before,
                        const std::vector<TextItem> &ref,
                        const std::vector<TextItem> &test, double rel) {
  Comparison result;
  double worst = 0.0;
  std::string component, tag;  // where item i is, for the messages
  auto report = [&](size_t i, const std::string &problem) {
    if (result.differences++ == 0)
      result.first = "item " + std::to_string(i) + ", component " + component +
                     ", after " + tag + ": " + problem;
  };
  const size_t n = std::min(ref.size(), test.size());
  if (ref.size() != test.size() || (before != nullptr && before->size() != n))
    report(n, "the text forms have " + std::to_string(ref.size()) + " and " +
                  std::to_string(test.size()) + " items");
  for (size_t i = 0; i < n && (before == nullptr || i < before->size()); i++) {
    const TextItem &a = ref[i], &b = test[i];
    const TextItem &a0 = before != nullptr ? (*before)[i] : a;
    if (i > 0 && ref[i - 1].word == "<ComponentName>") component = a.word;
    if (a.word.size() > 2 && a.word.front() == '<') tag = a.word;
    const bool numbers =
        a.values.size() == b.values.size() &&
        (before == nullptr || a0.values.size() == a.values.size() ||
         a0.values.empty());
    if (a.word != b.word || a0.word != a.word || !numbers) {
      report(i, "'" + a0.word + "' then '" + a.word + "' vs '" + b.word +
                    "' (" + std::to_string(a.values.size()) + " and " +
                    std::to_string(b.values.size()) + " numbers)");
      continue;
    }
    if (a.values.empty()) continue;
    double diff2 = 0.0, change2 = 0.0, before2 = 0.0;
    for (size_t k = 0; k < a.values.size(); k++) {
      const double x0 =
          before == nullptr || a0.values.empty() ? 0.0 : a0.values[k];
      diff2 += (b.values[k] - a.values[k]) * (b.values[k] - a.values[k]);
      change2 += (a.values[k] - x0) * (a.values[k] - x0);
      before2 += x0 * x0;
    }
    const double d = std::sqrt(diff2);
    if (tag == "<NumDimsSelfRepaired>" && a.word.empty()) {
      // How many dimensions self-repair touched: a threshold decision on
      // each dimension's statistics, so rounding may move a few of them.
      if (d > 0.02 * std::fabs(a.values[0]) + 2)
        report(i, std::to_string(a.values[0]) + " vs " +
                      std::to_string(b.values[0]));
      continue;
    }
    const double bound =
        rel * std::sqrt(change2) + 1e-5 * std::sqrt(before2) + 1e-6;
    Note(d, bound, &worst, &result);
    if (!(d <= bound)) report(i, Margin(d, bound));
  }
  return result;
}

}  // namespace

Comparison CompareMatrices(const Matrix &ref, const Matrix &test,
                           double tol_rel, double tol_abs) {
  Comparison result;
  if (ref.NumRows() != test.NumRows() || ref.NumCols() != test.NumCols()) {
    result.differences = 1;
    result.first = "different shapes";
    return result;
  }
  const std::vector<float> a = ref.ToHost(), b = test.ToHost();
  double scale = 0.0, worst = 0.0;
  int64_t first = -1;
  for (float x : a) scale = std::max(scale, double(std::fabs(x)));
  const double bound = tol_rel * scale + tol_abs;
  for (size_t i = 0; i < a.size(); i++) {
    const double d = std::fabs(double(b[i]) - a[i]);
    worst = std::max(worst, d);
    if (!(d <= bound) && result.differences++ == 0) first = int64_t(i);
  }
  std::ostringstream os;
  os << ref.NumRows() << "x" << ref.NumCols() << ", largest |ref| " << scale;
  if (first >= 0)
    os << "; element " << first << ": ref " << a[first] << ", test "
       << b[first];
  result.first = os.str();
  result.margin = Margin(worst, bound);
  return result;
}

Comparison CompareNnets(const Nnet &ref, const Nnet &test, double rel) {
  return CompareItems(nullptr, TextItems(ref), TextItems(test), rel);
}

Comparison CompareUpdates(const Nnet &before, const Nnet &ref, const Nnet &test,
                          double rel) {
  const std::vector<TextItem> items = TextItems(before);
  Comparison result =
      CompareItems(&items, TextItems(ref), TextItems(test), rel);
  // The parameters' update, on the CPU.
  Nnet change = CopyTo(ref, CpuDevice());
  const Nnet start = CopyTo(before, CpuDevice());
  AddNnet(start, -1.0f, &change);
  const double update = std::sqrt(DotProduct(change, change)),
               norm = std::sqrt(DotProduct(start, start));
  std::ostringstream os;
  os << "the reference update of the parameters has norm " << update << ", "
     << update / norm << " of theirs";
  if (!(update >= 1e-4 * norm)) {
    if (result.differences++ == 0)
      result.first = os.str() + ": too small to tell";
  }
  result.margin += "; " + os.str();
  return result;
}

Comparison CompareRandomNetwork(uint64_t seed, Device &test) {
  RandomState rng(seed);
  std::vector<std::string> configs;
  NnetGenerationOptions gen;
  gen.allow_multiple_outputs = true;
  gen.allow_ivector = true;
  GenerateConfigSequence(gen, &rng, &configs);
  INFO("seed " << seed << "; configs:\n" << ConfigsToString(configs));
  SetActiveDevice(CpuDevice());
  Nnet nnet = NnetFromConfigSequence(configs);
  PrepareNnetForTest(seed, &nnet);
  ComputationRequest request;
  std::vector<Matrix> inputs;
  ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
  INFO("request:\n" << RequestToString(request));
  ComputationIo io[2];
  for (ComputationIo &x : io) x.inputs = inputs;
  for (const IoSpecification &o : request.outputs) {
    Matrix d(static_cast<int32_t>(o.indexes.size()), nnet.OutputDim(o.name));
    d.SetRandn(rng.NextSeed());
    for (ComputationIo &x : io) x.output_derivs.push_back(d);
  }
  Nnet delta = nnet;
  SetNnetAsGradient(&delta);
  Nnet nets[2] = {nnet, CopyTo(nnet, test)};
  Nnet deltas[2] = {delta, CopyTo(delta, test)};
  Device *devices[2] = {&CpuDevice(), &test};
  for (int s : {0, 1}) {
    // Compiled with the device active, as programs do: precomputed indexes
    // live on the device that runs them.
    SetActiveDevice(*devices[s]);
    const NnetComputation computation =
        CompileAndCheck(nets[s], request, /*optimize=*/seed % 2 == 0);
    // Stats go into the delta nnet (the first constructor's rule).
    RunComputationIo(request, computation, nets[s], &deltas[s], &io[s]);
  }
  SetActiveDevice(CpuDevice());
  Comparison result;
  for (size_t o = 0; o < io[0].outputs.size(); o++)
    result.Merge(
        "output " + std::to_string(o),
        CompareMatrices(io[0].outputs[o], io[1].outputs[o], 1e-4, 1e-5));
  for (size_t i = 0; i < io[0].input_derivs.size(); i++)
    if (!io[0].input_derivs[i].IsEmpty())
      result.Merge("input derivative " + std::to_string(i),
                   CompareMatrices(io[0].input_derivs[i], io[1].input_derivs[i],
                                   1e-3, 1e-5));
  result.Merge("model derivative", CompareNnets(deltas[0], deltas[1], 1e-4));
  result.Merge("nnet with stats", CompareNnets(nets[0], nets[1], 1e-4));
  result.context = "seed " + std::to_string(seed) + "; configs:\n" +
                   ConfigsToString(configs) + "request:\n" +
                   RequestToString(request);
  return result;
}

namespace {

// Egs for `nnet`: `num_seq` sequences of `frames` output frames each, with
// the inputs the network's context needs, random N(0, 1) features, an
// "ivector" (if the network has one) at t = 0, and as targets either
// random labels (`sparse`) or random dense rows.
NnetExample RandomEg(const Nnet &nnet, int32_t num_seq, int32_t frames,
                     bool sparse, RandomState *rng) {
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  std::vector<NnetExample> egs(num_seq);
  for (NnetExample &eg : egs) {
    for (const char *name : {"input", "ivector"}) {
      const int32_t node = nnet.GetNodeIndex(name);
      if (node < 0) continue;
      const bool iv = std::string(name) == "ivector";
      Matrix x(iv ? 1 : frames + left + right, nnet.InputDim(name),
               ResizeType::kSetZero, CpuDevice());
      x.SetRandn(rng->NextSeed());
      eg.io.emplace_back(name, iv ? 0 : -left, x);
    }
    const int32_t dim = nnet.OutputDim("output");
    if (sparse) {
      Posterior labels(frames);
      for (auto &l : labels) l.push_back({rng->Int(0, dim - 1), 1.0f});
      eg.io.emplace_back("output", dim, 0, labels);
    } else {
      Matrix y(frames, dim, ResizeType::kSetZero, CpuDevice());
      y.SetRandn(rng->NextSeed());
      eg.io.emplace_back("output", 0, y);
    }
  }
  NnetExample merged;
  MergeExamples(egs, false, &merged);
  return merged;
}

}  // namespace

std::string ExampleConfig(const std::string &name) {
  const std::string path =
      std::string(NNET3_SOURCE_DIR) + "/configs/" + name + ".config";
  std::ifstream is(path);
  REQUIRE(is.good());
  return std::string(std::istreambuf_iterator<char>(is),
                     std::istreambuf_iterator<char>());
}

std::string Replaced(std::string text, const std::string &from,
                     const std::string &to) {
  for (size_t p = 0; (p = text.find(from, p)) != std::string::npos;
       p += to.size())
    text.replace(p, from.size(), to);
  return text;
}

Nnet ExampleNnet(const std::string &name, bool natural_gradient) {
  std::string text =
      Replaced(ExampleConfig(name), " param-stddev=0.0 bias-stddev=0.0", "");
  if (!natural_gradient)
    text = Replaced(text, "NaturalGradientAffineComponent", "AffineComponent");
  return NnetFromConfigText(text, name + ".config");
}

Comparison CompareTraining(const TrainingCase &c, Device &test) {
  SetActiveDevice(CpuDevice());
  RandomState rng(4242);
  std::vector<NnetExample> egs;
  for (int k = 0; k < 2; k++)
    egs.push_back(RandomEg(c.nnet, 4, 8, c.sparse, &rng));
  NnetTrainerOptions opts;
  opts.momentum = c.optimizer == "sgd" ? 0.5f : 0.0f;
  opts.optimizer_config.optimizer = c.optimizer;
  opts.optimizer_config.adam_epsilon = c.adam_epsilon;
  Device *devices[2] = {&CpuDevice(), &test};
  Nnet nets[2] = {c.nnet, CopyTo(c.nnet, test)};
  for (int s : {0, 1}) {
    SetActiveDevice(*devices[s]);
    NnetTrainer trainer(opts, &nets[s], /*srand_seed=*/7);
    trainer.SetReportSink([](const std::string &) {});
    for (const NnetExample &eg : egs) trainer.Train(eg);
  }
  SetActiveDevice(CpuDevice());
  return CompareUpdates(c.nnet, nets[0], nets[1], c.rel);
}

}  // namespace gpu_test
}  // namespace nnet3
