#include "indexed-component-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <sstream>
#include <unordered_set>

#include "base/io-funcs.h"
#include "component-test-utils.h"

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

// Matrices for the component's input / output side, contiguous when the
// component asks for it (kInputContiguous / kOutputContiguous).
Matrix SideMatrix(int32_t rows, int32_t cols, bool contiguous) {
  return Matrix(rows, cols, ResizeType::kSetZero,
                contiguous ? MatrixStrideType::kStrideEqualNumCols
                           : MatrixStrideType::kDefaultStride);
}
Matrix InMatrix(const Component &c, size_t rows) {
  return SideMatrix(static_cast<int32_t>(rows), c.InputDim(),
                    c.Properties() & kInputContiguous);
}
Matrix OutMatrix(const Component &c, size_t rows) {
  return SideMatrix(static_cast<int32_t>(rows), c.OutputDim(),
                    c.Properties() & kOutputContiguous);
}

// Zeroes the rows of `m` whose Index is blank.
void ZeroBlankRows(const std::vector<Index> &indexes, Matrix *m) {
  std::vector<float> host = m->ToHost();
  const int32_t cols = m->NumCols();
  for (size_t r = 0; r < indexes.size(); r++)
    if (indexes[r].t == kNoTime)
      std::fill(host.begin() + r * cols, host.begin() + (r + 1) * cols, 0.0f);
  m->CopyFromHost(host);
}

Matrix MakeInput(const Component &c, const GeneralComponentIo &io,
                 const GeneralCheckOptions &opts, uint64_t seed) {
  Matrix in = InMatrix(c, io.input_indexes.size());
  if (opts.make_input)
    opts.make_input(seed, io, &in);
  else
    in.SetRandn(seed);
  ZeroBlankRows(io.input_indexes, &in);
  return in;
}

void Backward(const Component &c, const GeneralComponentIo &io,
              const MatrixView &in, const MatrixView &out,
              const MatrixView &out_deriv, Component *to_update,
              MatrixView *in_deriv) {
  Matrix empty;
  const int32_t props = c.Properties();
  c.Backprop("test", io.indexes.get(),
             (props & kBackpropNeedsInput) ? in : empty,
             (props & kBackpropNeedsOutput) ? out : empty, out_deriv, nullptr,
             to_update, in_deriv);
}

double Objective(const Component &c, const GeneralComponentIo &io,
                 const MatrixView &in, const MatrixView &weights) {
  return DotProduct(GeneralForward(c, io, in), weights);
}

void CheckClose(double predicted, double measured, float tolerance,
                double noise, const std::string &what) {
  INFO(what << ": predicted " << predicted << ", measured " << measured);
  const double scale = std::max(std::fabs(predicted), std::fabs(measured));
  CHECK(std::fabs(predicted - measured) <= tolerance * scale + noise);
}

// The precomputed indexes survive Write / ReadNew (binary and text).
void CheckPrecomputedIo(const Component &c, const GeneralComponentIo &io,
                        const MatrixView &in) {
  REQUIRE(io.indexes != nullptr);
  Matrix ref = GeneralForward(c, io, in);
  for (bool binary : {true, false}) {
    std::ostringstream os;
    io.indexes->Write(os, binary);
    std::istringstream is(os.str());
    GeneralComponentIo copy;
    copy.input_indexes = io.input_indexes;
    copy.output_indexes = io.output_indexes;
    copy.indexes = ComponentPrecomputedIndexes::ReadNew(is, binary);
    CHECK(copy.indexes->Type() == io.indexes->Type());
    std::ostringstream os2;
    copy.indexes->Write(os2, binary);
    CHECK(os2.str() == os.str());
    CHECK(GeneralForward(c, copy, in).ApproxEqual(ref, 1e-6f));
    copy.indexes = io.indexes->Copy();
    CHECK(GeneralForward(c, copy, in).ApproxEqual(ref, 1e-6f));
  }
}

void CheckAddSemantics(const Component &c, const GeneralComponentIo &io,
                       const MatrixView &in, uint64_t seed) {
  const int32_t props = c.Properties();
  const int32_t rows_out = static_cast<int32_t>(io.output_indexes.size());
  Matrix ref = GeneralForward(c, io, in);
  Matrix out = OutMatrix(c, rows_out);
  out.SetRandn(seed);
  Matrix before(out);
  c.DeleteMemo(c.Propagate(io.indexes.get(), in, &out));
  if (props & kPropagateAdds) out.AddMat(-1.0f, before);
  CHECK(out.ApproxEqual(ref, 1e-5f));
  Matrix out_deriv = OutMatrix(c, rows_out);
  out_deriv.SetRandn(seed + 1);
  Matrix in_deriv = InMatrix(c, in.NumRows());
  Backward(c, io, in, ref, out_deriv, nullptr, &in_deriv);
  Matrix garbage = InMatrix(c, in.NumRows());
  garbage.SetRandn(seed + 2);
  Matrix in_deriv2(garbage);
  Backward(c, io, in, ref, out_deriv, nullptr, &in_deriv2);
  if (props & kBackpropAdds) in_deriv2.AddMat(-1.0f, garbage);
  CHECK(in_deriv2.ApproxEqual(in_deriv, 1e-5f));
}

// A perturbation of the input: random, zero in blank rows and fixed
// columns.
Matrix InputDelta(const GeneralComponentIo &io, const GeneralCheckOptions &opts,
                  int32_t cols, uint64_t seed) {
  Matrix delta(static_cast<int32_t>(io.input_indexes.size()), cols);
  delta.SetRandn(seed);
  delta.Scale(opts.perturb_scale);
  ZeroBlankRows(io.input_indexes, &delta);
  for (int32_t col : opts.fixed_input_columns) delta.ColRange(col, 1).SetZero();
  return delta;
}

void CheckDataDerivative(const Component &c, const GeneralComponentIo &io,
                         const MatrixView &in, const GeneralCheckOptions &opts,
                         uint64_t seed) {
  const int32_t rows_out = static_cast<int32_t>(io.output_indexes.size());
  Matrix weights = OutMatrix(c, rows_out);
  weights.SetRandn(seed);
  ZeroBlankRows(io.output_indexes, &weights);
  Matrix out = GeneralForward(c, io, in);
  Matrix in_deriv = InMatrix(c, in.NumRows());
  Backward(c, io, in, out, weights, nullptr, &in_deriv);
  const double f0 = DotProduct(out, weights);
  const double noise = 1e-6 * (std::fabs(f0) + rows_out * c.OutputDim());
  for (int trial = 0; trial < 3; trial++) {
    Matrix delta = InputDelta(io, opts, c.InputDim(), seed + 10 + trial);
    Matrix in2 = InMatrix(c, in.NumRows());
    in2.CopyFromMat(in);
    in2.AddMat(1.0f, delta);
    CheckClose(DotProduct(in_deriv, delta), Objective(c, io, in2, weights) - f0,
               opts.tolerance, noise,
               "data derivative, trial " + std::to_string(trial));
  }
}

void CheckModelDerivative(const UpdatableComponent &c,
                          const GeneralComponentIo &io, const MatrixView &in,
                          const GeneralCheckOptions &opts, uint64_t seed) {
  const int32_t rows_out = static_cast<int32_t>(io.output_indexes.size());
  Matrix weights = OutMatrix(c, rows_out);
  weights.SetRandn(seed);
  ZeroBlankRows(io.output_indexes, &weights);
  std::unique_ptr<Component> grad_owner = c.Copy();
  auto *gradient = dynamic_cast<UpdatableComponent *>(grad_owner.get());
  gradient->Scale(0.0f);
  gradient->SetAsGradient();
  Matrix out = GeneralForward(c, io, in);
  Backward(c, io, in, out, weights, gradient, nullptr);
  const double f0 = DotProduct(out, weights);
  const double rms =
      std::sqrt(c.DotProduct(c) / std::max(1, c.NumParameters()));
  const float stddev = opts.perturb_scale * float(std::max(rms, 0.1));
  const double noise = 1e-6 * (std::fabs(f0) + rows_out * c.OutputDim());
  for (int trial = 0; trial < 3; trial++) {
    std::unique_ptr<Component> delta_owner = c.Copy();
    auto *delta = dynamic_cast<UpdatableComponent *>(delta_owner.get());
    delta->Scale(0.0f);
    delta->PerturbParams(stddev, seed + 20 + trial);
    std::unique_ptr<Component> perturbed = c.Copy();
    perturbed->Add(1.0f, *delta);
    CheckClose(gradient->DotProduct(*delta),
               Objective(*perturbed, io, in, weights) - f0, opts.tolerance,
               noise, "model derivative, trial " + std::to_string(trial));
  }
  // A real update (natural gradient or plain SGD, with a learning rate)
  // moves the parameters uphill: (new - old) . gradient > 0.
  std::unique_ptr<Component> updated_owner = c.Copy();
  auto *updated = dynamic_cast<UpdatableComponent *>(updated_owner.get());
  updated->SetActualLearningRate(0.01f);
  Backward(c, io, in, out, weights, updated, nullptr);
  std::unique_ptr<Component> change_owner = updated->Copy();
  change_owner->Add(-1.0f, c);
  auto *change = dynamic_cast<UpdatableComponent *>(change_owner.get());
  INFO("update . gradient");
  CHECK(change->DotProduct(*gradient) > 0.0f);
}

}  // namespace

std::vector<Index> FrameIndexes(int32_t num_n, int32_t t_begin, int32_t t_end,
                                int32_t t_step) {
  std::vector<Index> v;
  for (int32_t t = t_begin; t < t_end; t += t_step)
    for (int32_t n = 0; n < num_n; n++) v.push_back(Index(n, t, 0));
  return v;
}

void MakeGeneralComponentIo(const Component &c,
                            const std::vector<Index> &output_indexes,
                            const std::vector<Index> *available_inputs,
                            bool need_backprop, GeneralComponentIo *io) {
  MiscComputationInfo misc;
  std::vector<Index> wanted, all_inputs;
  for (const Index &o : output_indexes) {
    c.GetInputIndexes(misc, o, &wanted);
    all_inputs.insert(all_inputs.end(), wanted.begin(), wanted.end());
  }
  SetOfIndexes available(available_inputs != nullptr ? *available_inputs
                                                     : all_inputs);
  std::set<Index> inputs;
  io->output_indexes.clear();
  std::vector<Index> used;
  for (const Index &o : output_indexes) {
    if (!c.IsComputable(misc, o, available, &used)) continue;
    io->output_indexes.push_back(o);
    inputs.insert(used.begin(), used.end());
  }
  REQUIRE(!io->output_indexes.empty());
  io->input_indexes.assign(inputs.begin(), inputs.end());
  std::sort(io->output_indexes.begin(), io->output_indexes.end());
  if (c.Properties() & kReordersIndexes)
    c.ReorderIndexes(&io->input_indexes, &io->output_indexes);
  io->indexes = c.PrecomputeIndexes(misc, io->input_indexes, io->output_indexes,
                                    need_backprop);
}

Matrix GeneralForward(const Component &c, const GeneralComponentIo &io,
                      const MatrixView &in) {
  Matrix out = OutMatrix(c, io.output_indexes.size());
  c.DeleteMemo(c.Propagate(io.indexes.get(), in, &out));
  return out;
}

void CheckGeneralComponent(const Component &c, uint64_t seed,
                           const GeneralCheckOptions &opts) {
  INFO("general checks of " << c.Info() << ", seed " << seed);
  CHECK(!(c.Properties() & kSimpleComponent));
  CheckComponentIo(c);
  GeneralComponentIo io;
  MakeGeneralComponentIo(c, opts.output_indexes, opts.available_inputs,
                         /*need_backprop=*/true, &io);
  Matrix in = MakeInput(c, io, opts, seed);
  CheckPrecomputedIo(c, io, in);
  CheckAddSemantics(c, io, in, seed + 1);
  CheckDataDerivative(c, io, in, opts, seed + 100);
  auto *u = dynamic_cast<const UpdatableComponent *>(&c);
  if (u != nullptr && (c.Properties() & kUpdatableComponent)) {
    CheckUpdatableInterface(*u, seed + 200);
    if (opts.check_model_derivative)
      CheckModelDerivative(*u, io, in, opts, seed + 300);
  }
}

}  // namespace nnet3
