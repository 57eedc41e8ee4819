#include "inference-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "compile/compiler.h"
#include "compile/computation-request.h"
#include "compile/nnet-context.h"
#include "compute/nnet-computer.h"

namespace nnet3 {

float MaxAbsDiff(const MatrixView &a, const MatrixView &b) {
  REQUIRE(a.NumRows() == b.NumRows());
  REQUIRE(a.NumCols() == b.NumCols());
  const std::vector<float> x = a.ToHost(), y = b.ToHost();
  float d = 0.0f;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

Matrix PadEdges(const MatrixView &features, int32_t left, int32_t right) {
  const int32_t rows = features.NumRows();
  Matrix padded(rows + left + right, features.NumCols());
  for (int32_t r = 0; r < padded.NumRows(); ++r) {
    const int32_t src = std::min(rows - 1, std::max(0, r - left));
    padded.RowRange(r, 1).CopyFromMat(features.RowRange(src, 1));
  }
  return padded;
}

Matrix DirectCompute(const Nnet &nnet, const MatrixView &input, int32_t first_t,
                     const std::vector<int32_t> &output_ts,
                     const MatrixView *ivector) {
  ComputationRequest request;
  request.inputs.emplace_back("input", first_t, first_t + input.NumRows());
  if (ivector != nullptr)
    request.inputs.emplace_back("ivector", std::vector<Index>{Index(0, 0)});
  std::vector<Index> outputs;
  for (int32_t t : output_ts) outputs.emplace_back(0, t);
  request.outputs.emplace_back("output", outputs);
  NnetComputation computation;
  Compiler(request, nnet).CreateComputation(CompilerOptions(), &computation);
  NnetComputer computer(NnetComputeOptions(), computation, nnet, nullptr);
  // Unoptimized: run up to each input before giving it.
  Matrix in(input), iv;
  if (ivector != nullptr) iv = Matrix(*ivector);
  bool work_pending = false;
  for (const NnetComputation::Command &c : computation.commands) {
    if (c.command_type == kProvideOutput) break;
    if (c.command_type != kAcceptInput) {
      work_pending = true;
      continue;
    }
    if (work_pending) computer.Run();
    work_pending = false;
    const std::string &name = nnet.GetNodeName(c.arg2);
    computer.AcceptInput(name, name == "ivector" ? &iv : &in);
  }
  computer.Run();
  return Matrix(computer.GetOutput("output"));
}

std::vector<RefChunk> KaldiSimpleChunks(int32_t num_output_frames,
                                        int32_t per_chunk,
                                        const RefContextOptions &opts) {
  std::vector<RefChunk> chunks;
  for (int32_t begin = 0; begin < num_output_frames; begin += per_chunk) {
    RefChunk c;
    c.begin = begin;
    c.end = std::min(num_output_frames, begin + per_chunk);
    c.extra_left = (begin == 0 && opts.extra_left_initial >= 0)
                       ? opts.extra_left_initial
                       : opts.extra_left;
    c.extra_right = (c.end == num_output_frames && opts.extra_right_final >= 0)
                        ? opts.extra_right_final
                        : opts.extra_right;
    chunks.push_back(c);
  }
  return chunks;
}

Matrix ReferenceChunkedOutput(const Nnet &nnet, const MatrixView &features,
                              int32_t fss, const std::vector<RefChunk> &chunks,
                              const MatrixView *ivector_rows) {
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  const int32_t num_frames = features.NumRows();
  const int32_t num_out = (num_frames + fss - 1) / fss;
  Matrix output(num_out, nnet.OutputDim("output"));
  for (size_t i = 0; i < chunks.size(); ++i) {
    const RefChunk &c = chunks[i];
    const int32_t first_in = c.begin * fss - left - c.extra_left,
                  last_in = (c.end - 1) * fss + right + c.extra_right;
    Matrix input(last_in + 1 - first_in, features.NumCols());
    for (int32_t t = first_in; t <= last_in; ++t) {
      const int32_t src = std::min(num_frames - 1, std::max(0, t));
      input.RowRange(t - first_in, 1).CopyFromMat(features.RowRange(src, 1));
    }
    std::vector<int32_t> ts;
    for (int32_t f = c.begin; f < c.end; ++f) ts.push_back(f * fss);
    Matrix iv;
    if (ivector_rows != nullptr)
      iv = Matrix(ivector_rows->RowRange(static_cast<int32_t>(i), 1));
    const Matrix out = DirectCompute(nnet, input, first_in, ts,
                                     ivector_rows != nullptr ? &iv : nullptr);
    const int32_t lo = std::max(c.begin, c.used_begin),
                  hi = std::min(c.end, num_out);
    output.RowRange(lo, hi - lo)
        .CopyFromMat(out.RowRange(lo - c.begin, hi - lo));
  }
  return output;
}

}  // namespace nnet3
