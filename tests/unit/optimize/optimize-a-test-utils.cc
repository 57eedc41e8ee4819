#include "optimize-a-test-utils.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compute/nnet-computer.h"
#include "matrix/vector.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace passes_a {

Nnet NnetFromConfigText(const std::string &config) {
  std::istringstream is(config);
  Nnet nnet;
  nnet.ReadConfig(is, "optimize-a-test.config");
  return nnet;
}

const char *const kFeedForwardConfig =
    "input-node name=input dim=3\n"
    "component name=affine type=AffineComponent input-dim=3 output-dim=3\n"
    "component-node name=affine component=affine input=input\n"
    "component name=relu type=RectifiedLinearComponent dim=3\n"
    "component-node name=relu component=relu input=affine\n"
    "output-node name=output input=Sum(relu, Offset(relu, 1))\n";

const char *const kRecurrentConfig =
    "input-node name=input dim=2\n"
    "component name=affine type=AffineComponent input-dim=4 output-dim=2\n"
    "component-node name=affine component=affine "
    "input=Append(input, IfDefined(Offset(tanh, -1)))\n"
    "component name=tanh type=TanhComponent dim=2\n"
    "component-node name=tanh component=tanh input=affine\n"
    "output-node name=output input=tanh\n";

Nnet IoNnet() {
  return NnetFromConfigText(
      "input-node name=input dim=3\n"
      "output-node name=o1 input=input\n"
      "output-node name=o2 input=input\n"
      "output-node name=o3 input=input\n"
      "output-node name=o4 input=input\n");
}

ComputationRequest SimpleTrainingRequest(int32_t in_begin, int32_t in_end,
                                         int32_t out_begin, int32_t out_end,
                                         bool backward) {
  ComputationRequest request;
  request.inputs.emplace_back("input", in_begin, in_end);
  request.outputs.emplace_back("output", out_begin, out_end);
  request.inputs[0].has_deriv = backward;
  request.outputs[0].has_deriv = backward;
  request.need_model_derivative = backward;
  return request;
}

NnetComputation Compile(const Nnet &nnet, const ComputationRequest &request) {
  NnetComputation computation;
  Compiler compiler(request, nnet);
  CompilerOptions opts;
  compiler.CreateComputation(opts, &computation);
  CheckComputation(nnet, computation, /*check_rewrite=*/true);
  return computation;
}

std::string Listing(const Nnet &nnet, const NnetComputation &computation) {
  std::vector<std::string> lines;
  computation.GetCommandStrings(nnet, &lines);
  std::string ans;
  for (const std::string &line : lines) ans += line + "\n";
  return ans;
}

namespace {

Matrix RandomMatrixOfSize(int32_t rows, int32_t cols, std::mt19937_64 *gen) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> data(static_cast<size_t>(rows) * cols);
  for (float &x : data) x = normal(*gen);
  Matrix m(rows, cols);
  m.CopyFromHost(data);
  return m;
}

bool IsIo(const NnetComputation::Command &c) {
  return c.command_type == kAcceptInput || c.command_type == kProvideOutput;
}

// max |a - b| <= tol * max(1, max |a|); "" or a description.
std::string CompareVectors(const std::string &what, const std::vector<float> &a,
                           const std::vector<float> &b, float tol) {
  if (a.size() != b.size())
    return what + ": sizes " + std::to_string(a.size()) + " vs " +
           std::to_string(b.size());
  float scale = 1.0f, max_diff = 0.0f;
  for (size_t i = 0; i < a.size(); i++) {
    scale = std::max(scale, std::fabs(a[i]));
    max_diff = std::max(max_diff, std::fabs(a[i] - b[i]));
    if (!std::isfinite(a[i]) || !std::isfinite(b[i]))
      return what + ": non-finite value";
  }
  if (max_diff <= tol * scale) return "";
  return what + ": max difference " + std::to_string(max_diff) + " (scale " +
         std::to_string(scale) + ")";
}

std::vector<float> ComponentParams(const Component *c) {
  auto *u = dynamic_cast<const UpdatableComponent *>(c);
  if (u == nullptr) return {};
  Vector params(u->NumParameters());
  VectorView view = params;
  u->Vectorize(&view);
  return params.AsRowMatrix().ToHost();
}

}  // namespace

Io RandomIo(const Nnet &nnet, const ComputationRequest &request,
            uint64_t seed) {
  std::mt19937_64 gen(seed);
  Io io;
  for (const IoSpecification &spec : request.inputs) {
    int32_t dim = nnet.GetNode(nnet.GetNodeIndex(spec.name)).Dim(nnet);
    io.input_values[spec.name] = RandomMatrixOfSize(
        static_cast<int32_t>(spec.indexes.size()), dim, &gen);
  }
  for (const IoSpecification &spec : request.outputs) {
    if (!spec.has_deriv) continue;
    int32_t dim = nnet.GetNode(nnet.GetNodeIndex(spec.name)).Dim(nnet);
    io.output_derivs[spec.name] = RandomMatrixOfSize(
        static_cast<int32_t>(spec.indexes.size()), dim, &gen);
  }
  return io;
}

Io RandomIoForComputation(const Nnet &nnet, const NnetComputation &computation,
                          uint64_t seed) {
  std::mt19937_64 gen(seed);
  Io io;
  for (const NnetComputation::Command &c : computation.commands) {
    if (c.command_type != kAcceptInput) continue;
    const NnetComputation::MatrixInfo &info =
        computation.matrices[computation.submatrices[c.arg1].matrix_index];
    const std::string &name = nnet.GetNodeName(c.arg2);
    auto &map = nnet.IsInputNode(c.arg2) ? io.input_values : io.output_derivs;
    map[name] = RandomMatrixOfSize(info.num_rows, info.num_cols, &gen);
  }
  return io;
}

void CheckSameResults(const Nnet &nnet, const NnetComputation &before,
                      const NnetComputation &after, uint64_t seed) {
  CHECK_NOTHROW(CheckComputation(nnet, after));
  const Io io = RandomIoForComputation(nnet, before, seed);
  CHECK(Compare(Run(nnet, before, io), Run(nnet, after, io), 1e-4f) == "");
}

int32_t CountOf(const std::string &text, const std::string &what) {
  int32_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + 1))
    n++;
  return n;
}

Results Run(const Nnet &nnet, const NnetComputation &computation,
            const Io &io) {
  Results results;
  results.gradient = nnet;
  ScaleNnet(0.0f, &results.gradient);
  SetNnetAsGradient(&results.gradient);
  NnetComputer computer(NnetComputeOptions(), computation, nnet,
                        &results.gradient);
  const auto &commands = computation.commands;
  const int32_t n = static_cast<int32_t>(commands.size());
  int32_t pc = 0;
  while (true) {
    // The I/O commands where the computer stopped (it skips markers there).
    for (; pc < n && (IsIo(commands[pc]) ||
                      commands[pc].command_type == kNoOperationMarker);
         pc++) {
      const NnetComputation::Command &c = commands[pc];
      if (!IsIo(c)) continue;
      const std::string &name = nnet.GetNodeName(c.arg2);
      bool is_input_node = nnet.IsInputNode(c.arg2);
      if (c.command_type == kAcceptInput) {
        const Matrix &m = is_input_node ? io.input_values.at(name)
                                        : io.output_derivs.at(name);
        Matrix copy(m);
        computer.AcceptInput(name, &copy);
      } else {
        std::string key = (is_input_node ? "deriv:" : "value:") + name;
        results.provided[key] = Matrix(computer.GetOutput(name));
      }
    }
    if (pc >= n) break;
    computer.Run();
    while (pc < n && !IsIo(commands[pc])) pc++;
  }
  return results;
}

std::string Compare(const Results &a, const Results &b, float tol) {
  std::string diffs;
  for (const auto &p : a.provided) {
    auto it = b.provided.find(p.first);
    if (it == b.provided.end()) {
      diffs += p.first + " missing; ";
      continue;
    }
    std::string d =
        CompareVectors(p.first, p.second.ToHost(), it->second.ToHost(), tol);
    if (!d.empty()) diffs += d + "; ";
  }
  if (a.provided.size() != b.provided.size()) diffs += "extra outputs; ";
  for (int32_t c = 0; c < a.gradient.NumComponents(); c++) {
    std::string d =
        CompareVectors("gradient of " + a.gradient.GetComponentName(c),
                       ComponentParams(a.gradient.GetComponent(c)),
                       ComponentParams(b.gradient.GetComponent(c)), tol);
    if (!d.empty()) diffs += d + "; ";
  }
  return diffs;
}

QuietStderr::QuietStderr() {
  std::fflush(stderr);
  saved_fd_ = dup(2);
  int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd >= 0) {
    dup2(null_fd, 2);
    close(null_fd);
  }
}

QuietStderr::~QuietStderr() {
  std::fflush(stderr);
  if (saved_fd_ >= 0) {
    dup2(saved_fd_, 2);
    close(saved_fd_);
  }
}

CaptureStderr::CaptureStderr(std::string *text) : text_(text) {
  std::fflush(stderr);
  file_ = std::tmpfile();
  saved_fd_ = dup(2);
  if (file_ != nullptr) dup2(fileno(file_), 2);
}

CaptureStderr::~CaptureStderr() {
  std::fflush(stderr);
  if (saved_fd_ >= 0) {
    dup2(saved_fd_, 2);
    close(saved_fd_);
  }
  text_->clear();
  if (file_ == nullptr) return;
  std::rewind(file_);
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file_)) > 0)
    text_->append(buffer, n);
  std::fclose(file_);
}

}  // namespace passes_a
}  // namespace nnet3
