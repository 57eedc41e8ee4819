#include "nnet/convolution-computation.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-itf.h"

namespace nnet3 {

// ---------------------------------------------------------------------------
// The derived members, the temporary matrix, checks and I/O

namespace {

// Whether a step reads its columns straight from the input (the whole input
// row, in order), so that it needs no temporary matrix.
bool StepNeedsTemp(const ConvolutionComputation::Step &step,
                   int32_t input_cols) {
  return !(step.columns_are_contiguous && step.first_column == 0 &&
           step.columns.Dim() == input_cols);
}

}  // namespace

std::vector<std::vector<int32_t>> ReverseColumnMap(
    const std::vector<int32_t> &columns, int32_t input_dim) {
  std::vector<std::vector<int32_t>> readers(input_dim);
  for (size_t i = 0; i < columns.size(); i++) {
    NNET3_ASSERT(columns[i] >= -1 && columns[i] < input_dim);
    if (columns[i] >= 0) readers[columns[i]].push_back(int32_t(i));
  }
  size_t max_readers = 0;
  for (const auto &r : readers) max_readers = std::max(max_readers, r.size());
  // The k'th map sends input column j to its k'th reader.
  std::vector<std::vector<int32_t>> maps(max_readers,
                                         std::vector<int32_t>(input_dim, -1));
  for (int32_t j = 0; j < input_dim; j++)
    for (size_t k = 0; k < readers[j].size(); k++) maps[k][j] = readers[j][k];
  return maps;
}

void ConvolutionComputation::ComputeDerived() {
  const int32_t input_dim = height_in * num_filters_in;
  for (Step &step : steps) {
    std::vector<int32_t> columns;
    columns.reserve(step.height_map.size() * num_filters_in);
    for (int32_t h : step.height_map)
      for (int32_t f = 0; f < num_filters_in; f++)
        columns.push_back(h < 0 ? -1 : h * num_filters_in + f);
    step.backward_columns.clear();
    for (const std::vector<int32_t> &map : ReverseColumnMap(columns, input_dim))
      step.backward_columns.emplace_back(map);
    bool contiguous = !step.height_map.empty() && step.height_map[0] >= 0;
    for (size_t i = 1; contiguous && i < step.height_map.size(); i++)
      contiguous = step.height_map[i] == step.height_map[i - 1] + 1;
    step.columns_are_contiguous = contiguous;
    step.first_column = columns.empty() ? -1 : columns[0];
    step.columns.CopyFromVec(columns);
  }
}

void ConvolutionComputation::ComputeTempMatrixSize(
    const ConvolutionComputationOptions &opts) {
  temp_cols = 0;
  for (const Step &step : steps)
    if (StepNeedsTemp(step, height_in * num_filters_in))
      temp_cols = std::max(temp_cols, step.columns.Dim());
  temp_rows = 0;
  if (temp_cols == 0) return;
  // Split the output frames into as few equal pieces as keep the matrix
  // within the limit.
  const double megabytes =
      4.0 * num_t_out * num_images * static_cast<double>(temp_cols) / 1e6;
  const int32_t pieces =
      1 + static_cast<int32_t>(megabytes / opts.max_memory_mb);
  const int32_t t_per_piece = (num_t_out + pieces - 1) / pieces;
  temp_rows = t_per_piece * num_images;
}

std::string ConvolutionComputation::Problem() const {
  std::ostringstream os;
  if (num_filters_in <= 0 || num_filters_out <= 0 || height_in <= 0 ||
      height_out <= 0 || num_images <= 0 || num_t_out <= 0 ||
      num_t_in < num_t_out || steps.empty())
    return "bad sizes";
  if (temp_rows < 0 || temp_rows % num_images != 0 ||
      temp_rows > num_t_out * num_images ||
      (temp_rows == 0) != (temp_cols == 0))
    return "bad temporary matrix size";
  int32_t needed_cols = 0, min_shift = num_t_in, max_shift = -1;
  for (size_t s = 0; s < steps.size(); s++) {
    const Step &step = steps[s];
    if (step.input_time_shift < 0 ||
        step.input_time_shift > num_t_in - num_t_out)
      return "step " + std::to_string(s) + " has a bad time shift";
    min_shift = std::min(min_shift, step.input_time_shift);
    max_shift = std::max(max_shift, step.input_time_shift);
    if (step.height_map.empty() ||
        step.height_map.size() % static_cast<size_t>(height_out) != 0 ||
        step.params_start_col < 0 || step.params_start_col % num_filters_in)
      return "step " + std::to_string(s) + " has a bad height map";
    bool any = false;
    for (int32_t h : step.height_map) {
      if (h < -1 || h >= height_in)
        return "step " + std::to_string(s) + " maps to a height out of range";
      any = any || h >= 0;
    }
    if (!any) return "step " + std::to_string(s) + " reads nothing";
    if (StepNeedsTemp(step, height_in * num_filters_in))
      needed_cols = std::max(needed_cols, step.columns.Dim());
  }
  if (min_shift != 0 || max_shift != num_t_in - num_t_out)
    return "the steps do not use every input frame";
  if (needed_cols != temp_cols) return "the temporary matrix has wrong width";
  return "";
}

void ConvolutionComputation::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ConvComputation>");
  WriteToken(os, binary, "<NumFiltersInOut>");
  WriteBasicType(os, binary, num_filters_in);
  WriteBasicType(os, binary, num_filters_out);
  WriteToken(os, binary, "<HeightInOut>");
  WriteBasicType(os, binary, height_in);
  WriteBasicType(os, binary, height_out);
  WriteToken(os, binary, "<NumTInOut>");
  WriteBasicType(os, binary, num_t_in);
  WriteBasicType(os, binary, num_t_out);
  WriteToken(os, binary, "<NumImages>");
  WriteBasicType(os, binary, num_images);
  WriteToken(os, binary, "<TempRowsCols>");
  WriteBasicType(os, binary, temp_rows);
  WriteBasicType(os, binary, temp_cols);
  WriteToken(os, binary, "<NumSteps>");
  WriteBasicType(os, binary, static_cast<int32_t>(steps.size()));
  for (const Step &step : steps) {
    WriteToken(os, binary, "<TimeShift>");
    WriteBasicType(os, binary, step.input_time_shift);
    WriteToken(os, binary, "<ParamsStartCol>");
    WriteBasicType(os, binary, step.params_start_col);
    WriteToken(os, binary, "<HeightMap>");
    WriteIntegerVector(os, binary, step.height_map);
  }
  WriteToken(os, binary, "</ConvComputation>");
}

void ConvolutionComputation::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<ConvComputation>", "<NumFiltersInOut>");
  ReadBasicType(is, binary, &num_filters_in);
  ReadBasicType(is, binary, &num_filters_out);
  ExpectToken(is, binary, "<HeightInOut>");
  ReadBasicType(is, binary, &height_in);
  ReadBasicType(is, binary, &height_out);
  ExpectToken(is, binary, "<NumTInOut>");
  ReadBasicType(is, binary, &num_t_in);
  ReadBasicType(is, binary, &num_t_out);
  ExpectToken(is, binary, "<NumImages>");
  ReadBasicType(is, binary, &num_images);
  ExpectToken(is, binary, "<TempRowsCols>");
  ReadBasicType(is, binary, &temp_rows);
  ReadBasicType(is, binary, &temp_cols);
  int32_t num_steps = 0;
  ExpectToken(is, binary, "<NumSteps>");
  ReadBasicType(is, binary, &num_steps);
  if (num_steps <= 0 || num_steps > 100000 || num_filters_in <= 0 ||
      height_in <= 0 || height_in > 1000000 || num_filters_in > 1000000)
    NNET3_ERR << "Reading <ConvComputation>: bad sizes (" << num_steps
              << " steps, " << num_filters_in << " filters in, height "
              << height_in << ")";
  steps.assign(num_steps, Step());
  for (Step &step : steps) {
    ExpectToken(is, binary, "<TimeShift>");
    ReadBasicType(is, binary, &step.input_time_shift);
    ExpectToken(is, binary, "<ParamsStartCol>");
    ReadBasicType(is, binary, &step.params_start_col);
    ExpectToken(is, binary, "<HeightMap>");
    ReadIntegerVector(is, binary, &step.height_map);
    for (int32_t h : step.height_map)
      if (h < -1 || h >= height_in)
        NNET3_ERR << "Reading <ConvComputation>: height " << h
                  << " out of range for height-in " << height_in;
  }
  ExpectToken(is, binary, "</ConvComputation>");
  ComputeDerived();
  std::string problem = Problem();
  if (!problem.empty()) NNET3_ERR << "Reading <ConvComputation>: " << problem;
}

// ---------------------------------------------------------------------------
// Compilation

namespace {

// Every output frame finds its required time offsets among the input
// frames (the compiler only asks for computable outputs).
void CheckModelAndIo(const ConvolutionModel &model,
                     const ConvolutionComputationIo &io) {
  const int32_t step_in = std::max(1, io.t_step_in);
  for (int32_t i = 0; i < io.num_t_out; i++) {
    const int32_t t_out = io.start_t_out + i * io.t_step_out;
    for (int32_t offset : model.required_time_offsets) {
      const int32_t t = t_out + offset, d = t - io.start_t_in;
      if (d < 0 || d % step_in != 0 || d / step_in >= io.num_t_in)
        NNET3_INTERNAL_ERR << "Convolution: time " << t
                           << " is required but not in the input";
    }
  }
}

// Widens the input grid to every time any offset could read (the frames
// that are not there become zero rows), with a time step that divides the
// offsets' modulus and the output's step.
void PadInputTime(const ConvolutionModel &model, ConvolutionComputationIo *io) {
  if (model.time_offsets_modulus == 0) return;  // one time offset
  const int32_t old_step = io->t_step_in;
  io->t_step_in = std::gcd(io->t_step_in, model.time_offsets_modulus);
  if (io->t_step_out != 0)
    io->t_step_in = std::gcd(io->t_step_in, io->t_step_out);
  io->num_t_in = 1 + old_step * (io->num_t_in - 1) / io->t_step_in;
  const int32_t first_wanted =
      io->start_t_out + *model.all_time_offsets.begin();
  if (first_wanted < io->start_t_in) {
    NNET3_ASSERT((io->start_t_in - first_wanted) % io->t_step_in == 0);
    io->num_t_in += (io->start_t_in - first_wanted) / io->t_step_in;
    io->start_t_in = first_wanted;
  }
  const int32_t last_wanted = io->start_t_out +
                              (io->num_t_out - 1) * io->t_step_out +
                              *model.all_time_offsets.rbegin(),
                last_in = io->start_t_in + (io->num_t_in - 1) * io->t_step_in;
  NNET3_ASSERT(last_wanted >= last_in);  // no more input than needed
  NNET3_ASSERT((last_wanted - last_in) % io->t_step_in == 0);
  io->num_t_in += (last_wanted - last_in) / io->t_step_in;
}

// Sets reorder_t_in = R = t_step_out / t_step_in (padding num_t_in to a
// multiple of R) and returns R.
int32_t PrepareForAppending(ConvolutionComputationIo *io) {
  if (io->t_step_out == 0) {
    NNET3_ASSERT(io->num_t_out == 1);
    io->t_step_out = io->t_step_in;
  }
  if (io->t_step_out == io->t_step_in) return 1;
  NNET3_ASSERT(io->t_step_in > 0 && io->t_step_out % io->t_step_in == 0);
  const int32_t ratio = io->t_step_out / io->t_step_in;
  io->reorder_t_in = ratio;
  if (io->num_t_in % ratio != 0) io->num_t_in += ratio - io->num_t_in % ratio;
  return ratio;
}

// The steps for the (possibly R-fold appended) input.
void MakeSteps(const ConvolutionModel &model,
               const ConvolutionComputationIo &io, int32_t ratio,
               ConvolutionComputation *cc) {
  const int32_t step_t = ratio == 1 ? std::max(1, io.t_step_in) : io.t_step_out;
  const int32_t first = *model.all_time_offsets.begin();
  if (ratio > 1) NNET3_ASSERT(io.start_t_in - io.start_t_out == first);
  // Each offset's time in the appended view, and which of the R frames
  // side by side it reads.
  const int32_t num_offsets = static_cast<int32_t>(model.offsets.size());
  std::vector<int32_t> new_time(num_offsets), frame(num_offsets, 0);
  for (int32_t i = 0; i < num_offsets; i++) {
    const int32_t t = model.offsets[i].time_offset;
    new_time[i] = t;
    if (ratio > 1) {
      const int32_t rounded = step_t * DivideRoundingDown(t - first, step_t);
      new_time[i] = rounded + first;
      frame[i] = (t - first - rounded) / io.t_step_in;
    }
  }
  cc->steps.clear();
  for (int32_t begin = 0, end = 0; begin < num_offsets; begin = end) {
    for (end = begin; end < num_offsets && new_time[end] == new_time[begin];)
      end++;
    ConvolutionComputation::Step step;
    const int32_t shift = new_time[begin] + io.start_t_out - io.start_t_in;
    NNET3_ASSERT(shift >= 0 && shift % step_t == 0);
    step.input_time_shift = shift / step_t;
    NNET3_ASSERT(step.input_time_shift <= cc->num_t_in - cc->num_t_out);
    step.params_start_col = model.num_filters_in * begin;
    for (int32_t h = 0; h < model.height_out; h++) {
      for (int32_t o = begin; o < end; o++) {
        const int32_t h_in =
            h * model.height_subsample_out + model.offsets[o].height_offset;
        step.height_map.push_back(h_in < 0 || h_in >= model.height_in
                                      ? -1
                                      : h_in + frame[o] * model.height_in);
      }
    }
    cc->steps.push_back(std::move(step));
  }
}

}  // namespace

void CompileConvolutionComputation(const ConvolutionModel &model,
                                   const std::vector<Index> &input_indexes,
                                   const std::vector<Index> &output_indexes,
                                   const ConvolutionComputationOptions &opts,
                                   ConvolutionComputation *cc,
                                   std::vector<Index> *in_mod,
                                   std::vector<Index> *out_mod) {
  ConvolutionComputationIo io;
  GetComputationIo(input_indexes, output_indexes, &io);
  CheckModelAndIo(model, io);
  PadInputTime(model, &io);
  const int32_t ratio = PrepareForAppending(&io);
  cc->num_filters_in = model.num_filters_in;
  cc->num_filters_out = model.num_filters_out;
  cc->height_in = model.height_in * ratio;
  cc->height_out = model.height_out;
  cc->num_t_in = io.num_t_in / ratio;
  cc->num_t_out = io.num_t_out;
  cc->num_images = io.num_images;
  MakeSteps(model, io, ratio, cc);
  cc->ComputeDerived();
  cc->ComputeTempMatrixSize(opts);
  std::string problem = cc->Problem();
  if (!problem.empty())
    NNET3_INTERNAL_ERR << "CompileConvolutionComputation: " << problem;
  std::vector<Index> in_tmp, out_tmp;
  GetIndexesForComputation(io, input_indexes, output_indexes,
                           in_mod != nullptr ? in_mod : &in_tmp,
                           out_mod != nullptr ? out_mod : &out_tmp);
}

// ---------------------------------------------------------------------------
// Running it

namespace {

// A contiguous view seen with `factor` times the rows.
MatrixView Reshaped(const MatrixView &m, int32_t factor) {
  NNET3_ASSERT(m.NumRows() <= 1 || m.Stride() == m.NumCols());
  NNET3_ASSERT(m.NumCols() % factor == 0);
  const int32_t cols = m.NumCols() / factor;
  return MatrixView(m.device(), m.Data(), m.NumRows() * factor, cols, cols);
}

// The input (or its derivative) seen with R frames per row, as the
// computation expects.
MatrixView InputView(const ConvolutionComputation &cc, const MatrixView &m) {
  const int32_t rows = cc.num_t_in * cc.num_images;
  NNET3_ASSERT(m.NumRows() > 0 && m.NumRows() % rows == 0);
  NNET3_ASSERT(m.NumRows() == 1 || m.Stride() == m.NumCols());
  const int32_t factor = m.NumRows() / rows, cols = m.NumCols() * factor;
  NNET3_ASSERT(cols == cc.height_in * cc.num_filters_in);
  return MatrixView(m.device(), m.Data(), rows, cols, cols);
}

// Calls f(step, input rows offset, output rows range) for every piece of
// output frames and every step.
template <class F>
void ForEachPiece(const ConvolutionComputation &cc, F f) {
  const int32_t total = cc.num_t_out * cc.num_images;
  const int32_t piece = cc.temp_rows > 0 ? cc.temp_rows : total;
  for (int32_t row = 0; row < total; row += piece) {
    const int32_t rows = std::min(piece, total - row);
    for (const ConvolutionComputation::Step &step : cc.steps)
      f(step, row + step.input_time_shift * cc.num_images, row, rows);
  }
}

// The step's patch matrix for input rows `in_part`: `in_part` itself when
// the step reads whole input rows, else the gathered columns in `temp`.
MatrixView Patches(const ConvolutionComputation &cc,
                   const ConvolutionComputation::Step &step,
                   const MatrixView &in_part, const Matrix &temp) {
  if (!StepNeedsTemp(step, in_part.NumCols())) return in_part;
  const int32_t cols = step.columns.Dim();
  MatrixView t(temp.device(), temp.Data(), in_part.NumRows(), cols, cols);
  if (step.columns_are_contiguous)
    t.CopyFromMat(in_part.ColRange(step.first_column, cols));
  else
    t.CopyCols(in_part, step.columns);
  (void)cc;
  return t;
}

}  // namespace

void ConvolveForward(const ConvolutionComputation &cc, const MatrixView &input,
                     const MatrixView &params, MatrixView *output) {
  NNET3_ASSERT(params.NumRows() == cc.num_filters_out &&
               output->NumRows() == cc.num_t_out * cc.num_images &&
               output->NumCols() == cc.height_out * cc.num_filters_out);
  MatrixView in = InputView(cc, input);
  Matrix temp(cc.temp_rows, cc.temp_cols, ResizeType::kUndefined,
              MatrixStrideType::kStrideEqualNumCols, input.device());
  ForEachPiece(cc, [&](const ConvolutionComputation::Step &step, int32_t in_row,
                       int32_t out_row, int32_t rows) {
    MatrixView patches = Patches(cc, step, in.RowRange(in_row, rows), temp);
    const int32_t param_cols = patches.NumCols() / cc.height_out;
    Reshaped(output->RowRange(out_row, rows), cc.height_out)
        .AddMatMat(1.0f, Reshaped(patches, cc.height_out), Trans::kNo,
                   params.ColRange(step.params_start_col, param_cols),
                   Trans::kYes, 1.0f);
  });
}

void ConvolveBackwardData(const ConvolutionComputation &cc,
                          const MatrixView &params,
                          const MatrixView &output_deriv,
                          MatrixView *input_deriv) {
  NNET3_ASSERT(params.NumRows() == cc.num_filters_out &&
               output_deriv.NumRows() == cc.num_t_out * cc.num_images &&
               output_deriv.NumCols() == cc.height_out * cc.num_filters_out);
  MatrixView in_deriv = InputView(cc, *input_deriv);
  Matrix temp(cc.temp_rows, cc.temp_cols, ResizeType::kUndefined,
              MatrixStrideType::kStrideEqualNumCols, input_deriv->device());
  ForEachPiece(cc, [&](const ConvolutionComputation::Step &step, int32_t in_row,
                       int32_t out_row, int32_t rows) {
    MatrixView in_part = in_deriv.RowRange(in_row, rows);
    MatrixView out_r =
        Reshaped(output_deriv.RowRange(out_row, rows), cc.height_out);
    const int32_t cols = step.columns.Dim(), param_cols = cols / cc.height_out;
    MatrixView params_part = params.ColRange(step.params_start_col, param_cols);
    if (!StepNeedsTemp(step, in_part.NumCols())) {
      Reshaped(in_part, cc.height_out)
          .AddMatMat(1.0f, out_r, Trans::kNo, params_part, Trans::kNo, 1.0f);
      return;
    }
    MatrixView t(temp.device(), temp.Data(), rows, cols, cols);
    Reshaped(t, cc.height_out)
        .AddMatMat(1.0f, out_r, Trans::kNo, params_part, Trans::kNo, 0.0f);
    if (step.columns_are_contiguous) {
      in_part.ColRange(step.first_column, cols).AddMat(1.0f, t);
    } else {
      for (const IndexVector &back : step.backward_columns)
        in_part.AddCols(t, back);
    }
  });
}

void ConvolveBackwardParams(const ConvolutionComputation &cc,
                            const MatrixView &input,
                            const MatrixView &output_deriv, float alpha,
                            MatrixView *params_deriv) {
  NNET3_ASSERT(params_deriv->NumRows() == cc.num_filters_out &&
               output_deriv.NumRows() == cc.num_t_out * cc.num_images &&
               output_deriv.NumCols() == cc.height_out * cc.num_filters_out);
  MatrixView in = InputView(cc, input);
  Matrix temp(cc.temp_rows, cc.temp_cols, ResizeType::kUndefined,
              MatrixStrideType::kStrideEqualNumCols, input.device());
  ForEachPiece(cc, [&](const ConvolutionComputation::Step &step, int32_t in_row,
                       int32_t out_row, int32_t rows) {
    MatrixView patches = Patches(cc, step, in.RowRange(in_row, rows), temp);
    const int32_t param_cols = patches.NumCols() / cc.height_out;
    params_deriv->ColRange(step.params_start_col, param_cols)
        .AddMatMat(
            alpha,
            Reshaped(output_deriv.RowRange(out_row, rows), cc.height_out),
            Trans::kYes, Reshaped(patches, cc.height_out), Trans::kNo, 1.0f);
  });
}

}  // namespace nnet3
