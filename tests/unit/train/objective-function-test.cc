// Objectives (linear and quadratic, with sparse, full and compressed
// supervision), the Kaldi-signature ComputeObjectiveFunction on a running
// computer, ComputeAccuracy, and ObjectiveFunctionInfo's report lines.
#include "train/objective-function.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "compile/compiler.h"
#include "train-test-utils.h"

namespace nnet3 {
namespace {

using namespace train_test;

const Rows kOutput = {{-0.5, -1.5, -2.0}, {-3.0, -0.1, -2.5}};
// Posterior-like rows: row 0 mostly class 0, row 1 all class 1.
const Rows kSupervision = {{0.75, 0.25, 0.0}, {0.0, 1.0, 0.0}};

SparseMatrix SparseSupervision() {
  return SparseMatrix(3, std::vector<std::vector<SparseVector::Pair>>{
                             {{0, 0.75f}, {1, 0.25f}}, {{1, 1.0f}}});
}

double LinearObjf(const Rows &y, const Rows &s) {
  double objf = 0.0;
  for (size_t r = 0; r < y.size(); r++)
    for (size_t c = 0; c < y[r].size(); c++) objf += y[r][c] * s[r][c];
  return objf;
}

void CheckRows(const Rows &got, const Rows &want, double tol) {
  REQUIRE(got.size() == want.size());
  for (size_t r = 0; r < got.size(); r++)
    for (size_t c = 0; c < got[r].size(); c++)
      CHECK(got[r][c] == Approx(want[r][c]).margin(tol));
}

TEST_CASE("Linear objective for sparse, full and compressed supervision",
          "[trainer]") {
  const Matrix output = HostMatrix(kOutput);
  CompressedMatrix compressed(HostMatrix(kSupervision));
  Matrix decompressed(2, 3, ResizeType::kSetZero, CpuDevice());
  compressed.CopyToMatrix(&decompressed);
  struct Case {
    const char *name;
    GeneralMatrix supervision;
    Rows dense;
  };
  const std::vector<Case> cases = {
      {"sparse", GeneralMatrix(SparseSupervision()), kSupervision},
      {"full", GeneralMatrix(HostMatrix(kSupervision)), kSupervision},
      {"compressed", GeneralMatrix(compressed), ToRows(decompressed)}};
  for (const Case &c : cases) {
    INFO(c.name);
    double weight = 0.0, objf = 0.0;
    Matrix deriv;
    ComputeObjectiveFromOutput(c.supervision, kLinear, "output", output,
                               &weight, &objf, &deriv);
    double sum = 0.0;
    for (const auto &row : c.dense)
      for (double v : row) sum += v;
    CHECK(weight == Approx(sum).epsilon(1e-6));
    CHECK(objf == Approx(LinearObjf(kOutput, c.dense)).epsilon(1e-6));
    CheckRows(ToRows(deriv), c.dense, 1e-6);  // d objf / d y = s
  }
}

TEST_CASE("Quadratic objective", "[trainer]") {
  const Matrix output = HostMatrix(kOutput);
  for (const GeneralMatrix &supervision :
       {GeneralMatrix(SparseSupervision()),
        GeneralMatrix(HostMatrix(kSupervision))}) {
    double weight = 0.0, objf = 0.0;
    Matrix deriv;
    ComputeObjectiveFromOutput(supervision, kQuadratic, "output", output,
                               &weight, &objf, &deriv);
    Rows diff = kSupervision;
    double want = 0.0;
    for (size_t r = 0; r < diff.size(); r++)
      for (size_t c = 0; c < diff[r].size(); c++) {
        diff[r][c] -= kOutput[r][c];
        want -= 0.5 * diff[r][c] * diff[r][c];
      }
    CHECK(weight == 2.0);  // rows
    CHECK(objf == Approx(want).epsilon(1e-6));
    CheckRows(ToRows(deriv), diff, 1e-6);  // d objf / d y = s − y
  }
}

TEST_CASE("Objective errors", "[trainer]") {
  const Matrix output = HostMatrix(kOutput);
  double weight, objf;
  CHECK_THROWS_WITH(
      ComputeObjectiveFromOutput(GeneralMatrix(HostMatrix({{1, 0}, {0, 1}})),
                                 kLinear, "output", output, &weight, &objf,
                                 nullptr),
      "Nnet versus example output dimension (num-classes) mismatch for "
      "'output': 3 (nnet) vs. 2 (egs)");
}

TEST_CASE("ComputeObjectiveFunction on a running computer", "[trainer]") {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=2\n"
      "component name=a type=AffineComponent input-dim=2 output-dim=3\n"
      "component-node name=a component=a input=input\n"
      "output-node name=output input=a objective=quadratic\n");
  SetAffine(&nnet, "a", {{1, 0}, {0, 1}, {1, 1}}, {0, 0, 0});
  ComputationRequest request;
  request.inputs.emplace_back("input", 0, 2);
  request.outputs.emplace_back("output", 0, 2);
  request.outputs[0].has_deriv = true;
  request.inputs[0].has_deriv = true;
  NnetComputation computation;
  Compiler(request, nnet).CreateComputation(CompilerOptions(), &computation);
  NnetComputer computer(NnetComputeOptions(), computation, nnet, nullptr);
  if (computation.commands[0].command_type != kAcceptInput) computer.Run();
  Matrix input = HostMatrix({{1, 2}, {3, 4}});
  computer.AcceptInput("input", &input);
  computer.Run();
  double weight = 0.0, objf = 0.0;
  ComputeObjectiveFunction(GeneralMatrix(HostMatrix(kSupervision)), kQuadratic,
                           "output", true, &computer, &weight, &objf);
  computer.Run();
  // y = [[1, 2, 3], [3, 4, 7]]; d = s − y; input deriv = d W.
  const Rows y = {{1, 2, 3}, {3, 4, 7}};
  Rows d = kSupervision;
  double want = 0.0;
  for (size_t r = 0; r < 2; r++)
    for (size_t c = 0; c < 3; c++) {
      d[r][c] -= y[r][c];
      want -= 0.5 * d[r][c] * d[r][c];
    }
  CHECK(objf == Approx(want));
  const Rows in_deriv = {{d[0][0] + d[0][2], d[0][1] + d[0][2]},
                         {d[1][0] + d[1][2], d[1][1] + d[1][2]}};
  CheckRows(ToRows(computer.GetOutput("input")), in_deriv, 1e-5);
}

TEST_CASE("ComputeAccuracy weighs rows by their supervision sum", "[trainer]") {
  // Output argmax: row 0 -> 0, row 1 -> 1, row 2 -> 2 (a tie 2/2 -> first).
  const Matrix output =
      HostMatrix({{0.9, 0.1, 0.0}, {0.2, 0.7, 0.1}, {0.0, 0.3, 0.3}});
  const SparseMatrix sparse(
      3, std::vector<std::vector<SparseVector::Pair>>{
             {{0, 0.5f}, {2, 0.25f}}, {{2, 2.0f}}, {{1, 1.0f}}});
  Matrix dense_m(3, 3, ResizeType::kSetZero, CpuDevice());
  sparse.CopyToMatrix(&dense_m);
  for (const GeneralMatrix &supervision :
       {GeneralMatrix(sparse), GeneralMatrix(dense_m)}) {
    double weight = 0.0, correct = 0.0;
    std::vector<double> weight_vec, correct_vec;
    ComputeAccuracy(supervision, output, &weight, &correct, &weight_vec,
                    &correct_vec);
    // Row weights 0.75, 2, 1 (labels 0, 2, 1): rows 0 and 2 are right (row
    // 2's output tie between classes 1 and 2 goes to 1), row 1 is wrong.
    CHECK(weight == Approx(3.75));
    CHECK(correct == Approx(1.75));
    CHECK(weight_vec == std::vector<double>{0.75, 1.0, 2.0});
    CHECK(correct_vec == std::vector<double>{0.75, 1.0, 0.0});
  }
}

TEST_CASE("ObjectiveFunctionInfo phase and total lines", "[trainer]") {
  std::vector<std::string> lines;
  ReportSink sink = [&](const std::string &l) { lines.push_back(l); };
  ObjectiveFunctionInfo info;
  info.UpdateStats("output", 2, 0, 10.0, -20.0, 0.0, sink);
  info.UpdateStats("output", 2, 1, 10.0, -10.0, 0.0, sink);
  CHECK(lines.empty());
  info.UpdateStats("output", 2, 2, 5.0, -1.0, 0.0, sink);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] ==
        "Average objective function for 'output' for minibatches 0-1 is -1.5 "
        "over 20 frames.");
  info.UpdateStats("output", 2, 6, 5.0, -5.0, 0.0, sink);  // phase 2 skipped
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] ==
        "Average objective function for 'output' using 1 minibatches in "
        "minibatch range 2-5 is -0.2 over 5 frames.");
  lines.clear();
  CHECK(info.PrintTotalStats("output", sink));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] ==
        "Overall average objective function for 'output' is -1.2 over 30 "
        "frames.");
  CHECK(lines[1] ==
        "[this line is to be parsed by a script:] log-prob-per-frame=-1.2");
  CHECK_FALSE(ObjectiveFunctionInfo().PrintTotalStats("x", sink));
}

}  // namespace
}  // namespace nnet3
