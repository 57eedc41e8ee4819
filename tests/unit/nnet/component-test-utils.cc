#include "component-test-utils.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "base/io-funcs.h"

namespace nnet3 {
namespace {

struct Owned {  // a component copy that may be mutated
  std::unique_ptr<Component> c;
  explicit Owned(const Component &src) : c(src.Copy()) {}
};

// Propagates `in` through `c` into a fresh zeroed output; deletes the memo
// unless the caller takes it.
Matrix Forward(const Component &c, const MatrixView &in, void **memo_out) {
  Matrix out(in.NumRows(), c.OutputDim());
  void *memo = c.Propagate(nullptr, in, &out);
  if (memo_out != nullptr)
    *memo_out = memo;
  else
    c.DeleteMemo(memo);
  return out;
}

// Backprop with in_value / out_value replaced by empty views when the
// component says it does not need them.
void Backward(const Component &c, const MatrixView &in, const MatrixView &out,
              const MatrixView &out_deriv, void *memo, Component *to_update,
              MatrixView *in_deriv) {
  Matrix empty;
  int32_t props = c.Properties();
  const MatrixView &in_arg = (props & kBackpropNeedsInput) ? in : empty;
  const MatrixView &out_arg = (props & kBackpropNeedsOutput) ? out : empty;
  c.Backprop("test", nullptr, in_arg, out_arg, out_deriv, memo, to_update,
             in_deriv);
}

// Random components get the same mask on every propagate.
void ResetIfRandom(Component *c, uint64_t seed) {
  if (auto *r = dynamic_cast<RandomComponent *>(c)) r->ResetGenerator(seed);
}

double Objective(const Component &c, const MatrixView &in,
                 const MatrixView &weights, uint64_t mask_seed) {
  Owned copy(c);
  ResetIfRandom(copy.c.get(), mask_seed);
  Matrix out = Forward(*copy.c, in, nullptr);
  return DotProduct(out, weights);
}

// Checks one trial: predicted and measured objective changes agree to a
// relative tolerance, plus an absolute allowance for float round-off in
// the objective itself (`noise`).
void CheckClose(double predicted, double measured, float tolerance,
                double noise, const std::string &what) {
  INFO(what << ": predicted " << predicted << ", measured " << measured);
  double scale = std::max(std::fabs(predicted), std::fabs(measured));
  CHECK(std::fabs(predicted - measured) <= tolerance * scale + noise);
}

std::string WriteToString(const Component &c, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  c.Write(os, binary);
  return os.str();
}

std::unique_ptr<Component> ReadFromString(const std::string &s) {
  std::istringstream is(s);
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  return Component::ReadNew(is, binary);
}

}  // namespace

std::unique_ptr<Component> ComponentFromConfig(const std::string &config) {
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine(config));
  std::string type;
  REQUIRE(cfl.GetValue("type", &type));
  std::unique_ptr<Component> c = Component::NewComponentOfType(type);
  INFO("config: " << config);
  REQUIRE(c != nullptr);
  c->InitFromConfig(&cfl);
  INFO("unused: " << cfl.UnusedValues());
  REQUIRE(!cfl.HasUnusedValues());
  return c;
}

void CheckComponentIo(const Component &c) {
  INFO("I/O of " << c.Info());
  std::string bin1 = WriteToString(c, true);
  std::unique_ptr<Component> r = ReadFromString(bin1);
  CHECK(r->Type() == c.Type());
  CHECK(WriteToString(*r, true) == bin1);
  CHECK(WriteToString(*c.Copy(), true) == bin1);
  std::string text1 = WriteToString(c, false);
  std::unique_ptr<Component> t1 = ReadFromString(text1);
  std::string text2 = WriteToString(*t1, false);
  std::unique_ptr<Component> t2 = ReadFromString(text2);
  CHECK(WriteToString(*t2, false) == text2);
  CHECK(t1->Info() == t2->Info());
}

void CheckPropagateProperties(const Component &c, uint64_t seed,
                              const ComponentCheckOptions &opts) {
  INFO("propagate/backprop properties of " << c.Info() << ", seed " << seed);
  int32_t props = c.Properties();
  int32_t rows = opts.num_rows;
  Matrix in(rows, c.InputDim());
  in.SetRandn(seed);
  in.Scale(opts.input_scale);
  Owned a(c), b(c);
  ResetIfRandom(a.c.get(), seed + 1);
  ResetIfRandom(b.c.get(), seed + 1);
  void *memo = nullptr;
  Matrix ref = Forward(*a.c, in, &memo);

  // Overwrite vs add semantics of Propagate.
  Matrix out(rows, c.OutputDim());
  out.SetRandn(seed + 2);
  Matrix before(out);
  b.c->DeleteMemo(b.c->Propagate(nullptr, in, &out));
  if (props & kPropagateAdds) out.AddMat(-1.0f, before);
  CHECK(out.ApproxEqual(ref, 1e-5f));

  if ((props & kPropagateInPlace) && c.InputDim() == c.OutputDim()) {
    Owned d(c);
    ResetIfRandom(d.c.get(), seed + 1);
    Matrix m(in);
    d.c->DeleteMemo(d.c->Propagate(nullptr, m, &m));
    CHECK(m.ApproxEqual(ref, 1e-5f));
  }

  Matrix out_deriv(rows, c.OutputDim());
  out_deriv.SetRandn(seed + 3);
  Matrix in_deriv(rows, c.InputDim());
  Backward(*a.c, in, ref, out_deriv, memo, nullptr, &in_deriv);
  a.c->DeleteMemo(memo);

  // Overwrite vs add semantics of Backprop, and in-place backprop.
  Owned e(c);
  ResetIfRandom(e.c.get(), seed + 1);
  void *memo2 = nullptr;
  Matrix ref2 = Forward(*e.c, in, &memo2);
  Matrix garbage(rows, c.InputDim());
  garbage.SetRandn(seed + 4);
  Matrix in_deriv2(garbage);
  Backward(*e.c, in, ref2, out_deriv, memo2, nullptr, &in_deriv2);
  e.c->DeleteMemo(memo2);
  if (props & kBackpropAdds) in_deriv2.AddMat(-1.0f, garbage);
  CHECK(in_deriv2.ApproxEqual(in_deriv, 1e-5f));

  if ((props & kBackpropInPlace) && c.InputDim() == c.OutputDim() &&
      !(props & kBackpropAdds)) {
    Owned f(c);
    ResetIfRandom(f.c.get(), seed + 1);
    void *memo3 = nullptr;
    Matrix ref3 = Forward(*f.c, in, &memo3);
    Matrix m(out_deriv);
    Backward(*f.c, in, ref3, m, memo3, nullptr, &m);
    f.c->DeleteMemo(memo3);
    CHECK(m.ApproxEqual(in_deriv, 1e-5f));
  }
}

void CheckDataDerivative(const Component &c, uint64_t seed,
                         const ComponentCheckOptions &opts) {
  INFO("data derivative of " << c.Info() << ", seed " << seed);
  int32_t rows = opts.num_rows;
  Matrix in(rows, c.InputDim());
  in.SetRandn(seed);
  in.Scale(opts.input_scale);
  Matrix weights(rows, c.OutputDim());
  weights.SetRandn(seed + 1);
  Owned a(c);
  ResetIfRandom(a.c.get(), seed + 2);
  void *memo = nullptr;
  Matrix out = Forward(*a.c, in, &memo);
  Matrix in_deriv(rows, c.InputDim());
  Backward(*a.c, in, out, weights, memo, nullptr, &in_deriv);
  a.c->DeleteMemo(memo);
  double f0 = Objective(c, in, weights, seed + 2);
  double noise = 1e-6 * (std::fabs(f0) + rows * c.OutputDim());
  for (int trial = 0; trial < 3; trial++) {
    Matrix delta(rows, c.InputDim());
    delta.SetRandn(seed + 10 + trial);
    delta.Scale(opts.perturb_scale * opts.input_scale);
    Matrix in2(in);
    in2.AddMat(1.0f, delta);
    double predicted = DotProduct(in_deriv, delta);
    double measured = Objective(c, in2, weights, seed + 2) - f0;
    CheckClose(predicted, measured, opts.tolerance, noise,
               "data derivative, trial " + std::to_string(trial));
  }
}

void CheckModelDerivative(const UpdatableComponent &c, uint64_t seed,
                          const ComponentCheckOptions &opts) {
  INFO("model derivative of " << c.Info() << ", seed " << seed);
  int32_t rows = opts.num_rows;
  Matrix in(rows, c.InputDim());
  in.SetRandn(seed);
  in.Scale(opts.input_scale);
  Matrix weights(rows, c.OutputDim());
  weights.SetRandn(seed + 1);
  std::unique_ptr<Component> grad_owner = c.Copy();
  auto *gradient = dynamic_cast<UpdatableComponent *>(grad_owner.get());
  REQUIRE(gradient != nullptr);
  gradient->Scale(0.0f);
  gradient->SetAsGradient();
  void *memo = nullptr;
  Matrix out = Forward(c, in, &memo);
  Backward(c, in, out, weights, memo, gradient, nullptr);
  c.DeleteMemo(memo);
  double f0 = Objective(c, in, weights, seed + 2);
  double param_rms =
      std::sqrt(c.DotProduct(c) / std::max(1, c.NumParameters()));
  float stddev = opts.perturb_scale * static_cast<float>(std::max(param_rms, 0.1));
  double noise = 1e-6 * (std::fabs(f0) + rows * c.OutputDim());
  for (int trial = 0; trial < 3; trial++) {
    std::unique_ptr<Component> delta_owner = c.Copy();
    auto *delta = dynamic_cast<UpdatableComponent *>(delta_owner.get());
    delta->Scale(0.0f);
    delta->PerturbParams(stddev, seed + 20 + trial);
    std::unique_ptr<Component> perturbed = c.Copy();
    perturbed->Add(1.0f, *delta);
    double predicted = gradient->DotProduct(*delta);
    double measured = Objective(*perturbed, in, weights, seed + 2) - f0;
    CheckClose(predicted, measured, opts.tolerance, noise,
               "model derivative, trial " + std::to_string(trial));
  }
}

void CheckUpdatableInterface(const UpdatableComponent &c, uint64_t seed) {
  INFO("updatable interface of " << c.Info());
  int32_t n = c.NumParameters();
  REQUIRE(n > 0);
  double self = c.DotProduct(c);
  Vector params(n);
  c.Vectorize(&params);
  CHECK(VecVec(params, params) == Approx(self).epsilon(1e-4));
  std::unique_ptr<Component> copy = c.Copy();
  auto *u = dynamic_cast<UpdatableComponent *>(copy.get());
  u->Scale(0.0f);
  CHECK(u->DotProduct(*u) == 0.0);
  u->UnVectorize(params);
  CHECK(u->DotProduct(c) == Approx(self).epsilon(1e-4));
  u->Scale(2.0f);
  CHECK(u->DotProduct(c) == Approx(2 * self).epsilon(1e-4));
  u->Add(-1.0f, c);
  CHECK(u->DotProduct(c) == Approx(self).epsilon(1e-4));
  u->PerturbParams(0.1f, seed);
  CHECK(u->DotProduct(*u) != Approx(self).epsilon(1e-6));
  float lr = c.LearningRate();
  u->SetUnderlyingLearningRate(0.5f);
  CHECK(u->LearningRate() == Approx(0.5f * c.LearningRateFactor()));
  u->SetActualLearningRate(lr);
}

void CheckComponent(const Component &c, uint64_t seed,
                    const ComponentCheckOptions &opts) {
  CheckComponentIo(c);
  CheckPropagateProperties(c, seed, opts);
  if (opts.check_data_derivative) CheckDataDerivative(c, seed + 100, opts);
  // An UpdatableComponent may be configured as not updatable (e.g.
  // ConstantFunctionComponent is-updatable=false): the flag decides.
  auto *u = dynamic_cast<const UpdatableComponent *>(&c);
  if (u != nullptr && (c.Properties() & kUpdatableComponent)) {
    CheckUpdatableInterface(*u, seed + 200);
    if (opts.check_model_derivative)
      CheckModelDerivative(*u, seed + 300, opts);
  }
  if (c.Properties() & kStoresStats) {
    std::unique_ptr<Component> s = c.Copy();
    Matrix in(opts.num_rows, c.InputDim());
    in.SetRandn(seed + 400);
    void *memo = nullptr;
    Matrix out = Forward(*s, in, &memo);
    s->StoreStats(in, out, memo);
    s->DeleteMemo(memo);
    s->Scale(0.5f);
    s->Add(1.0f, c);
    CheckComponentIo(*s);
    s->ZeroStats();
    CheckComponentIo(*s);
  }
}

}  // namespace nnet3
