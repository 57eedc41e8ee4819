#include "general-component-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "base/io-funcs.h"

namespace nnet3 {
namespace {

class SetOfIndexes : public IndexSet {
 public:
  explicit SetOfIndexes(const std::vector<Index> &v)
      : set_(v.begin(), v.end()) {}
  bool operator()(const Index &index) const override {
    return set_.count(index) != 0;
  }

 private:
  std::unordered_set<Index, IndexHasher> set_;
};

void ResetIfRandom(Component *c, uint64_t seed) {
  if (auto *r = dynamic_cast<RandomComponent *>(c)) r->ResetGenerator(seed);
}

// Rows of the blank (t == kNoTime) Indexes: the compiler keeps them zero.
Matrix BlankMask(const std::vector<Index> &indexes, int32_t cols) {
  Matrix mask(static_cast<int32_t>(indexes.size()), cols);
  mask.Set(1.0f);
  for (size_t i = 0; i < indexes.size(); i++)
    if (indexes[i].t == kNoTime) mask.Row(static_cast<int32_t>(i)).SetZero();
  return mask;
}

Matrix RandomRows(const std::vector<Index> &indexes, int32_t cols,
                  uint64_t seed, float scale) {
  Matrix m(static_cast<int32_t>(indexes.size()), cols);
  m.SetRandn(seed);
  m.Scale(scale);
  m.MulElements(BlankMask(indexes, cols));
  return m;
}

std::unique_ptr<ComponentPrecomputedIndexes> RoundTrip(
    const ComponentPrecomputedIndexes &p, bool binary) {
  std::ostringstream os;
  p.Write(os, binary);
  std::istringstream is(os.str());
  std::unique_ptr<ComponentPrecomputedIndexes> r =
      ComponentPrecomputedIndexes::ReadNew(is, binary);
  REQUIRE(r != nullptr);
  CHECK(r->Type() == p.Type());
  std::ostringstream os2;
  r->Write(os2, binary);
  CHECK(os2.str() == os.str());
  return r;
}

struct Setup {
  const Component &c;
  const ComponentPrecomputedIndexes *indexes;
  int32_t in_rows, out_rows;
  uint64_t mask_seed;
};

// A fresh copy's output (zero-initialized), its memo optionally kept.
Matrix Forward(const Setup &s, const Component &c, const MatrixView &in,
               void **memo_out) {
  Matrix out(s.out_rows, c.OutputDim());
  void *memo = c.Propagate(s.indexes, in, &out);
  if (memo_out != nullptr)
    *memo_out = memo;
  else
    c.DeleteMemo(memo);
  return out;
}

double Objective(const Setup &s, const Component &c, const MatrixView &in,
                 const MatrixView &weights) {
  std::unique_ptr<Component> copy = c.Copy();
  ResetIfRandom(copy.get(), s.mask_seed);
  return DotProduct(Forward(s, *copy, in, nullptr), weights);
}

// in_deriv from a backprop into `start` (which Backprop may add to).
Matrix Backward(const Setup &s, const MatrixView &in, const MatrixView &weights,
                Component *to_update, const Matrix &start) {
  std::unique_ptr<Component> copy = s.c.Copy();
  ResetIfRandom(copy.get(), s.mask_seed);
  void *memo = nullptr;
  Matrix out = Forward(s, *copy, in, &memo);
  Matrix empty;
  const int32_t props = s.c.Properties();
  Matrix in_deriv(start);
  copy->Backprop("test", s.indexes, (props & kBackpropNeedsInput) ? in : empty,
                 (props & kBackpropNeedsOutput) ? out : empty, weights, memo,
                 to_update, &in_deriv);
  copy->DeleteMemo(memo);
  return in_deriv;
}

void CheckClose(double predicted, double measured, float tolerance,
                double noise, const std::string &what) {
  INFO(what << ": predicted " << predicted << ", measured " << measured);
  const double scale = std::max(std::fabs(predicted), std::fabs(measured));
  CHECK(std::fabs(predicted - measured) <= tolerance * scale + noise);
}

void CheckSemantics(const Setup &s, const MatrixView &in,
                    const MatrixView &weights, uint64_t seed) {
  const int32_t props = s.c.Properties();
  std::unique_ptr<Component> a = s.c.Copy(), b = s.c.Copy();
  ResetIfRandom(a.get(), s.mask_seed);
  ResetIfRandom(b.get(), s.mask_seed);
  const Matrix ref = Forward(s, *a, in, nullptr);
  Matrix out(s.out_rows, s.c.OutputDim());
  out.SetRandn(seed);
  const Matrix before(out);
  b->DeleteMemo(b->Propagate(s.indexes, in, &out));
  if (props & kPropagateAdds) out.AddMat(-1.0f, before);
  CHECK(out.ApproxEqual(ref, 1e-5f));
  if ((props & kPropagateInPlace) && s.in_rows == s.out_rows &&
      s.c.InputDim() == s.c.OutputDim()) {
    std::unique_ptr<Component> d = s.c.Copy();
    ResetIfRandom(d.get(), s.mask_seed);
    Matrix m(in);
    d->DeleteMemo(d->Propagate(s.indexes, m, &m));
    CHECK(m.ApproxEqual(ref, 1e-5f));
  }
  const Matrix zero(s.in_rows, s.c.InputDim());
  Matrix garbage(s.in_rows, s.c.InputDim());
  garbage.SetRandn(seed + 1);
  const Matrix d0 = Backward(s, in, weights, nullptr, zero);
  Matrix d1 = Backward(s, in, weights, nullptr, garbage);
  if (props & kBackpropAdds) d1.AddMat(-1.0f, garbage);
  CHECK(d1.ApproxEqual(d0, 1e-5f));
}

void CheckDerivatives(const Setup &s, const std::vector<Index> &inputs,
                      const MatrixView &in, const MatrixView &weights,
                      uint64_t seed, const ComponentCheckOptions &opts) {
  const double f0 = Objective(s, s.c, in, weights);
  const double noise =
      1e-6 * (std::fabs(f0) + double(s.out_rows) * s.c.OutputDim());
  if (opts.check_data_derivative) {
    const Matrix in_deriv =
        Backward(s, in, weights, nullptr, Matrix(s.in_rows, s.c.InputDim()));
    for (int trial = 0; trial < 3; trial++) {
      const Matrix delta = RandomRows(inputs, s.c.InputDim(), seed + 10 + trial,
                                      opts.perturb_scale * opts.input_scale);
      Matrix in2(in);
      in2.AddMat(1.0f, delta);
      CheckClose(DotProduct(in_deriv, delta),
                 Objective(s, s.c, in2, weights) - f0, opts.tolerance, noise,
                 "data derivative, trial " + std::to_string(trial));
    }
  }
  const auto *u = dynamic_cast<const UpdatableComponent *>(&s.c);
  if (u == nullptr || !(s.c.Properties() & kUpdatableComponent) ||
      !opts.check_model_derivative)
    return;
  std::unique_ptr<Component> grad_owner = s.c.Copy();
  auto *gradient = dynamic_cast<UpdatableComponent *>(grad_owner.get());
  gradient->Scale(0.0f);
  gradient->SetAsGradient();
  Backward(s, in, weights, gradient, Matrix(s.in_rows, s.c.InputDim()));
  const double rms =
      std::sqrt(u->DotProduct(*u) / std::max(1, u->NumParameters()));
  const float stddev =
      opts.perturb_scale * static_cast<float>(std::max(rms, 0.1));
  for (int trial = 0; trial < 3; trial++) {
    std::unique_ptr<Component> delta_owner = s.c.Copy();
    auto *delta = dynamic_cast<UpdatableComponent *>(delta_owner.get());
    delta->Scale(0.0f);
    delta->PerturbParams(stddev, seed + 20 + trial);
    std::unique_ptr<Component> perturbed = s.c.Copy();
    perturbed->Add(1.0f, *delta);
    CheckClose(gradient->DotProduct(*delta),
               Objective(s, *perturbed, in, weights) - f0, opts.tolerance,
               noise, "model derivative, trial " + std::to_string(trial));
  }
}

}  // namespace

std::vector<Index> FrameGrid(int32_t num_n, int32_t t_begin, int32_t t_end,
                             int32_t t_step, bool t_major) {
  std::vector<Index> v;
  if (t_major) {
    for (int32_t t = t_begin; t < t_end; t += t_step)
      for (int32_t n = 0; n < num_n; n++) v.push_back(Index(n, t, 0));
  } else {
    for (int32_t n = 0; n < num_n; n++)
      for (int32_t t = t_begin; t < t_end; t += t_step)
        v.push_back(Index(n, t, 0));
  }
  return v;
}

void CheckGeneralComponent(const Component &c,
                           const std::vector<Index> &output_indexes,
                           const std::vector<Index> &available_inputs,
                           uint64_t seed, const ComponentCheckOptions &opts,
                           GeneralComponentRun *run) {
  INFO("general checks of " << c.Info() << ", seed " << seed);
  CheckComponentIo(c);
  const MiscComputationInfo misc;
  const SetOfIndexes available(available_inputs);
  std::vector<Index> inputs;
  for (const Index &o : output_indexes) {
    std::vector<Index> used, desired;
    INFO("output " << o.n << "," << o.t << "," << o.x);
    REQUIRE(c.IsComputable(misc, o, available, &used));
    CHECK(c.IsComputable(misc, o, available, nullptr));
    c.GetInputIndexes(misc, o, &desired);
    for (const Index &i : used) {
      CHECK(std::find(desired.begin(), desired.end(), i) != desired.end());
      CHECK(available(i));
    }
    inputs.insert(inputs.end(), used.begin(), used.end());
  }
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  std::vector<Index> outputs = output_indexes;
  if (c.Properties() & kReordersIndexes) {
    const std::vector<Index> orig_in = inputs, orig_out = outputs;
    c.ReorderIndexes(&inputs, &outputs);
    for (const auto *pair : {&orig_in, &orig_out}) {
      const std::vector<Index> &orig = *pair;
      const std::vector<Index> &now = pair == &orig_in ? inputs : outputs;
      size_t non_blank = 0;
      for (const Index &i : now) non_blank += (i.t != kNoTime);
      CHECK(non_blank == orig.size());
      for (const Index &i : orig)
        CHECK(std::find(now.begin(), now.end(), i) != now.end());
    }
  }
  std::unique_ptr<ComponentPrecomputedIndexes> pre =
      c.PrecomputeIndexes(misc, inputs, outputs, true);
  if (pre != nullptr) {
    RoundTrip(*pre, false);
    pre = RoundTrip(*pre, true);
  }
  const Setup s{c, pre.get(), static_cast<int32_t>(inputs.size()),
                static_cast<int32_t>(outputs.size()), seed + 5};
  const Matrix in = RandomRows(inputs, c.InputDim(), seed, opts.input_scale);
  const Matrix weights = RandomRows(outputs, c.OutputDim(), seed + 1, 1.0f);
  CheckSemantics(s, in, weights, seed + 2);
  CheckDerivatives(s, inputs, in, weights, seed + 100, opts);
  if (c.Properties() & kStoresStats) {
    std::unique_ptr<Component> st = c.Copy();
    void *memo = nullptr;
    Matrix out = Forward(s, *st, in, &memo);
    st->StoreStats(in, out, memo);
    st->DeleteMemo(memo);
    CheckComponentIo(*st);
    st->Scale(0.5f);
    st->Add(1.0f, c);
    CheckComponentIo(*st);
    st->ZeroStats();
    CheckComponentIo(*st);
  }
  if (run != nullptr) {
    std::unique_ptr<Component> copy = c.Copy();
    ResetIfRandom(copy.get(), s.mask_seed);
    run->output = Forward(s, *copy, in, nullptr);
    run->input = in;
    run->input_indexes = inputs;
    run->output_indexes = outputs;
    run->indexes = std::move(pre);
  }
}

}  // namespace nnet3
