// Whole-network numeric derivative checks on the compiler tests' random
// networks (the idea of Kaldi's nnet-derivative-test; our own code).
//
// Objective: f = sum over outputs of sum(output .* R) with a fixed random R,
// so R is exactly the derivative to supply for each output. One compiled
// computation with derivatives gives df/dinput and (into a zeroed gradient
// copy of the network, lr 1) df/dparams; a forward-only computation then
// measures f at perturbed points with a central difference,
//   measured = (f(x + d) - f(x - d)) / 2,  predicted = <df/dx, d>,
// for random directions d of inputs (N(0, 1) * kInputDelta) and of the
// parameters (PerturbParams(kParamDelta) on every updatable component).
// They must agree within kRelTol of the larger, plus an absolute allowance
// for float rounding in f (kAbsTol * the 2-norm of output .* R, i.e. its
// rms times the square root of its element count).
//
// ReLU kinks: a perturbation that moves a ReLU input across 0 makes f
// locally non-linear and spoils the comparison. Instead of a loose
// tolerance, each attempt asks the reference evaluator for every ReLU row
// the outputs need at x + d and x - d; if any element changes sign, the
// attempt is dropped and retried with a fresh direction of half the size
// (up to kMaxAttempts). The first kink-free attempt must agree. A test case
// fails if more than 1 in 20 trials found no kink-free attempt.
// Batch-norm and dropout are in test mode (PrepareNnetForTest) so that f
// is a fixed, row-wise function; Sigmoid, Tanh and (Log)Softmax are smooth.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../compile/nnet-test-utils.h"
#include "base/error.h"
#include "base/random.h"
#include "compile/computation-request.h"
#include "nnet/init-random.h"
#include "nnet/nnet-utils.h"
#include "nnet/components/nonlinear-components.h"
#include "random-computation-utils.h"
#include "reference-evaluator.h"

namespace nnet3 {
namespace {

constexpr float kInputDelta = 1.0e-3f;
constexpr float kParamDelta = 1.0e-3f;
constexpr double kRelTol = 0.01;
constexpr double kAbsTol = 1.0e-6;
constexpr int32_t kNumTrials = 3;
constexpr int32_t kMaxAttempts = 6;

struct Objective {
  double value = 0.0;
  double noise = 0.0;  // the absolute allowance for float rounding
};

// f for the outputs in `outputs` (by request position) and the R's.
Objective ComputeObjective(const std::vector<Matrix> &outputs,
                           const std::vector<Matrix> &r) {
  Objective f;
  double sum_sq = 0.0;
  for (size_t o = 0; o < outputs.size(); o++) {
    const std::vector<float> y = outputs[o].ToHost(), w = r[o].ToHost();
    NNET3_ASSERT(y.size() == w.size());
    for (size_t i = 0; i < y.size(); i++) {
      const double p = static_cast<double>(y[i]) * w[i];
      f.value += p;
      sum_sq += p * p;
    }
  }
  f.noise = kAbsTol * std::sqrt(sum_sq);
  return f;
}

// Sum over matrices of a .* b.
double Dot(const std::vector<Matrix> &a, const std::vector<Matrix> &b) {
  double ans = 0.0;
  for (size_t i = 0; i < a.size(); i++)
    if (!a[i].IsEmpty()) ans += DotProduct(a[i], b[i]);
  return ans;
}

// The network and inputs at x + d and x - d, and the predicted change
// <df/dx, d>.
struct Perturbation {
  Nnet plus, minus;
  std::vector<Matrix> plus_inputs, minus_inputs;
  double predicted = 0.0;
};

// Counts over a test case's trials.
struct TrialCounts {
  int32_t checked = 0;
  int32_t all_kinked = 0;  // every attempt crossed a ReLU kink
  int32_t retries = 0;     // attempts given up for a kink
};

// Everything one network's checks share.
class DerivativeChecker {
 public:
  DerivativeChecker(const Nnet &nnet, const ComputationRequest &request,
                    const std::vector<Matrix> &inputs, RandomState *rng)
      : nnet_(nnet), request_(request), inputs_(inputs), rng_(rng) {
    forward_request_ = request;
    for (IoSpecification &io : forward_request_.inputs) io.has_deriv = false;
    for (IoSpecification &io : forward_request_.outputs) io.has_deriv = false;
    forward_request_.need_model_derivative = false;
    forward_request_.store_component_stats = false;
    forward_ = CompileAndCheck(nnet, forward_request_);
    for (const IoSpecification &io : request.outputs) {
      Matrix m(static_cast<int32_t>(io.indexes.size()),
               nnet.OutputDim(io.name));
      m.SetRandn(rng->NextSeed());
      r_.push_back(std::move(m));
    }
  }

  // Runs the backward computation; `stats` receives model derivatives and
  // component stats. Returns f at the unperturbed point.
  Objective RunBackward(Nnet *stats) {
    const NnetComputation computation = CompileAndCheck(nnet_, request_);
    ComputationIo io;
    io.inputs = inputs_;
    io.output_derivs = r_;
    RunComputationIo(request_, computation, nnet_, stats, &io);
    input_derivs_ = io.input_derivs;
    return ComputeObjective(io.outputs, r_);
  }

  Objective Forward(const Nnet &nnet, const std::vector<Matrix> &inputs) {
    ComputationIo io;
    io.inputs = inputs;
    RunComputationIo(forward_request_, forward_, nnet, nullptr, &io);
    return ComputeObjective(io.outputs, r_);
  }

  // Directions d of the inputs whose derivative was requested.
  void CheckInputDerivatives(double noise, TrialCounts *counts) {
    CheckDirections(
        "input",
        [this](float scale, Perturbation *p) { PerturbInputs(scale, p); },
        noise, counts);
  }
  // Directions d of every updatable component's parameters.
  void CheckModelDerivatives(const Nnet &gradient, double noise,
                             TrialCounts *counts) {
    CheckDirections(
        "model",
        [this, &gradient](float scale, Perturbation *p) {
          PerturbModel(gradient, scale, p);
        },
        noise, counts);
  }

 private:
  void PerturbInputs(float scale, Perturbation *p);
  void PerturbModel(const Nnet &gradient, float scale, Perturbation *p);
  // kNumTrials trials; each tries directions of sizes 1, 1/2, 1/4, ...
  // times the delta until one crosses no ReLU kink, and compares there.
  void CheckDirections(
      const char *what,
      const std::function<void(float, Perturbation *)> &perturb, double noise,
      TrialCounts *counts);
  // Whether some ReLU input (of a row the outputs need) has different
  // signs at the two points, by the reference evaluator.
  bool CrossesReluKink(const Perturbation &p) const;
  // Whether measured and predicted agree; adds the comparison to *log.
  static bool Agree(double measured, double predicted, double noise,
                    std::ostringstream *log);

  const Nnet &nnet_;
  const ComputationRequest &request_;
  const std::vector<Matrix> &inputs_;
  RandomState *rng_;
  ComputationRequest forward_request_;
  NnetComputation forward_;
  std::vector<Matrix> r_;
  std::vector<Matrix> input_derivs_;
};

bool DerivativeChecker::Agree(double measured, double predicted, double noise,
                              std::ostringstream *log) {
  const double diff = std::fabs(measured - predicted);
  const double allowed =
      kRelTol * std::max(std::fabs(measured), std::fabs(predicted)) + noise;
  *log << " measured " << measured << ", predicted " << predicted
       << ", allowed difference " << allowed << "\n";
  return diff <= allowed;
}

void DerivativeChecker::PerturbInputs(float scale, Perturbation *p) {
  p->plus = p->minus = nnet_;
  p->plus_inputs = p->minus_inputs = inputs_;
  std::vector<Matrix> delta;
  for (size_t i = 0; i < inputs_.size(); i++) {
    Matrix d(inputs_[i].NumRows(), inputs_[i].NumCols());
    if (request_.inputs[i].has_deriv) d.SetRandn(rng_->NextSeed());
    d.Scale(kInputDelta * scale);
    p->plus_inputs[i].AddMat(1.0f, d);
    p->minus_inputs[i].AddMat(-1.0f, d);
    delta.push_back(std::move(d));
  }
  p->predicted = Dot(input_derivs_, delta);
}

void DerivativeChecker::PerturbModel(const Nnet &gradient, float scale,
                                     Perturbation *p) {
  p->plus = p->minus = nnet_;
  p->plus_inputs = p->minus_inputs = inputs_;
  p->predicted = 0.0;
  for (int32_t c = 0; c < nnet_.NumComponents(); c++) {
    auto *u = dynamic_cast<UpdatableComponent *>(p->plus.GetComponent(c));
    if (u == nullptr) continue;
    u->PerturbParams(kParamDelta * scale, rng_->NextSeed());
    std::unique_ptr<Component> d = u->Copy();  // d = plus - nnet
    d->Add(-1.0f, *nnet_.GetComponent(c));
    p->minus.GetComponent(c)->Add(-1.0f, *d);
    p->predicted +=
        dynamic_cast<const UpdatableComponent &>(*gradient.GetComponent(c))
            .DotProduct(dynamic_cast<UpdatableComponent &>(*d));
  }
}

bool DerivativeChecker::CrossesReluKink(const Perturbation &p) const {
  ReferenceEvaluator plus(p.plus), minus(p.minus);
  for (size_t i = 0; i < request_.inputs.size(); i++) {
    plus.SetInput(request_.inputs[i].name, request_.inputs[i].indexes,
                  p.plus_inputs[i]);
    minus.SetInput(request_.inputs[i].name, request_.inputs[i].indexes,
                   p.minus_inputs[i]);
  }
  Matrix unused;
  for (const IoSpecification &io : request_.outputs)
    NNET3_ASSERT(plus.ComputeRows(io.name, io.indexes, &unused));
  for (const auto &entry : plus.Values()) {
    const int32_t node = entry.first.first;
    if (!nnet_.IsComponentNode(node) ||
        dynamic_cast<const RectifiedLinearComponent *>(
            nnet_.GetComponent(nnet_.GetNode(node).component_index)) == nullptr)
      continue;
    const std::vector<float> &a = entry.second, &b = minus.Value(entry.first);
    for (size_t k = 0; k < a.size(); k++)
      if ((a[k] > 0.0f) != (b[k] > 0.0f)) return true;
  }
  return false;
}

void DerivativeChecker::CheckDirections(
    const char *what, const std::function<void(float, Perturbation *)> &perturb,
    double noise, TrialCounts *counts) {
  for (int32_t trial = 0; trial < kNumTrials; trial++) {
    std::ostringstream log;
    bool checked = false, ok = true;
    float scale = 1.0f;
    for (int32_t attempt = 0; attempt < kMaxAttempts && !checked;
         attempt++, scale *= 0.5f) {
      Perturbation p;
      perturb(scale, &p);
      log << what << " trial " << trial << " attempt " << attempt
          << " (delta scale " << scale << "):";
      if (CrossesReluKink(p)) {
        log << " crosses a ReLU kink, retrying\n";
        counts->retries++;
        continue;
      }
      const double measured = 0.5 * (Forward(p.plus, p.plus_inputs).value -
                                     Forward(p.minus, p.minus_inputs).value);
      ok = Agree(measured, p.predicted, noise, &log);
      checked = true;
    }
    INFO(log.str());
    CHECK(ok);
    (checked ? counts->checked : counts->all_kinked)++;
  }
}

// A copy of `nnet` to receive its gradient: updatable components zeroed,
// lr 1, is-gradient; stats zeroed. (Not ScaleNnet(0): that would also
// zero the test-mode batch-norm stats.)
Nnet ZeroGradient(const Nnet &nnet) {
  Nnet gradient(nnet);
  for (int32_t c = 0; c < gradient.NumComponents(); c++)
    if (auto *u = dynamic_cast<UpdatableComponent *>(gradient.GetComponent(c)))
      u->Scale(0.0f);
  ZeroComponentStats(&gradient);
  SetNnetAsGradient(&gradient);
  return gradient;
}

// What the component stats of `stats` must look like after the run.
void CheckStats(const Nnet &stats, bool stored) {
  for (int32_t c = 0; c < stats.NumComponents(); c++) {
    const auto *nl =
        dynamic_cast<const NonlinearComponent *>(stats.GetComponent(c));
    if (nl == nullptr) continue;
    INFO("component " << stats.GetComponentName(c));
    // As Kaldi, log-softmax never stores value stats; the others store
    // them on the first minibatch (this is the only one).
    if (stored && nl->Type() != "LogSoftmaxComponent")
      CHECK(nl->Count() > 0.0);
    else
      CHECK(nl->Count() == 0.0);
  }
}

// Network i: mode i % 3 is 0 (input and model derivatives), 1 (input
// derivatives only) or 2 (model derivatives only).
void CheckRandomNetwork(uint32_t seed, uint32_t i, bool store_stats,
                        TrialCounts *counts) {
  RandomState rng(seed);
  NnetGenerationOptions gen_opts;
  gen_opts.allow_ivector = (i % 3 == 0);
  gen_opts.allow_multiple_outputs = (i % 4 == 1);
  std::vector<std::string> configs;
  GenerateConfigSequence(gen_opts, &rng, &configs);
  INFO("configs:\n" << ConfigsToString(configs));
  SetComponentInitSeed(seed);  // parameters depend on the seed alone
  Nnet nnet = NnetFromConfigSequence(configs);
  PrepareNnetForTest(seed, &nnet);
  ComputationRequest request;
  std::vector<Matrix> inputs;
  ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
  const bool want_input = (i % 3 != 2), want_model = (i % 3 != 1);
  for (IoSpecification &io : request.inputs) io.has_deriv = want_input;
  for (IoSpecification &io : request.outputs) io.has_deriv = true;
  request.need_model_derivative = want_model;
  request.store_component_stats = store_stats;
  INFO("request: " << RequestToString(request));

  DerivativeChecker checker(nnet, request, inputs, &rng);
  Nnet gradient = ZeroGradient(nnet);
  const Objective f = checker.RunBackward(&gradient);
  // The backward pass must not have disturbed the network's output.
  CHECK(checker.Forward(nnet, inputs).value == Approx(f.value).margin(f.noise));
  CheckStats(gradient, store_stats);
  if (want_input) checker.CheckInputDerivatives(f.noise, counts);
  if (want_model)
    checker.CheckModelDerivatives(gradient, f.noise, counts);
  else
    CHECK(DotProduct(gradient, gradient) == 0.0);  // nothing was updated
}

void CheckRandomNetworks(uint32_t base_seed, uint32_t num_networks,
                         bool store_stats) {
  TrialCounts counts;
  for (uint32_t i = 0; i < num_networks; i++) {
    INFO("seed " << base_seed + i);
    CheckRandomNetwork(base_seed + i, i, store_stats, &counts);
  }
  // Kinks must not have left too many trials unchecked.
  INFO("checked " << counts.checked << " trials, " << counts.all_kinked
                  << " unchecked (a ReLU kink in every attempt), "
                  << counts.retries << " attempts retried");
  CHECK(counts.all_kinked * 20 <= counts.checked);
}

}  // namespace

// Seeds 34000..34099 without stats, 35000..35099 with store-stats.
TEST_CASE("Random networks: numeric input and model derivatives",
          "[reference]") {
  CheckRandomNetworks(34000, 100, false);
}

TEST_CASE("Random networks: numeric derivatives with store-stats",
          "[reference]") {
  CheckRandomNetworks(35000, 100, true);
}

// For reproducing one network of the tests above, e.g.
//   NNET3_SEED=34007 NNET3_I=7 NNET3_STATS=0 compute-test "[.debug]"
TEST_CASE("Random networks: one numeric derivative check (debug)", "[.debug]") {
  TrialCounts counts;
  const char *seed = std::getenv("NNET3_SEED");
  const char *i = std::getenv("NNET3_I");
  const char *stats = std::getenv("NNET3_STATS");
  REQUIRE(seed != nullptr);
  CheckRandomNetwork(std::atoi(seed), i ? std::atoi(i) : 0,
                     stats != nullptr && stats[0] == '1', &counts);
}

TEST_CASE("Random networks: many numeric derivative checks",
          "[.slow][reference]") {
  CheckRandomNetworks(3000000, 1000, false);
  CheckRandomNetworks(4000000, 1000, true);
}

}  // namespace nnet3
