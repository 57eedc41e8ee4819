// ConvolutionComputation: the plan for running a ConvolutionModel on one
// set of input and output Indexes (the precomputed indexes of
// TimeHeightConvolutionComponent), how it is made, and the three
// operations that run it (Kaldi's convolution.h describes the scheme; this
// is our own implementation of it).
//
//   ConvolutionComputation cc;
//   std::vector<Index> in2, out2;
//   CompileConvolutionComputation(model, in, out, opts, &cc, &in2, &out2);
//   // the component's input / output rows are in2 / out2 (ReorderIndexes)
//   ConvolveForward(cc, input, params, &output);       // output += conv
//   ConvolveBackwardData(cc, params, out_deriv, &in_deriv);  // += ...
//   ConvolveBackwardParams(cc, input, out_deriv, alpha, &params_deriv);
//
// How it runs. The input rows are (time, image) on the grid of
// convolution-io.h; when the output's time step is R times the input's, the
// input matrix is viewed with R frames side by side per row (R times the
// height), so that input and output advance by the same time step. The
// offsets that share one (so adjusted) time offset form a step: for step s,
// the output rows all take their input from the input rows shifted by
// input_time_shift frames; a temporary matrix gathers, for every output
// height and every offset of the step, the num_filters_in input columns at
// the offset's height (height_map; -1 is zero padding); seen as
// (rows * height_out) x (offsets * num_filters_in) it is multiplied by the
// step's block of parameter columns into the output seen as
// (rows * height_out) x num_filters_out. Input and output matrices must
// therefore be contiguous (stride == cols; the component asks for this with
// kInputContiguous | kOutputContiguous). The temporary matrix is limited to
// max_memory_mb by doing the output rows in pieces.
#ifndef NNET3_NNET_CONVOLUTION_COMPUTATION_H_
#define NNET3_NNET_CONVOLUTION_COMPUTATION_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "nnet/convolution-io.h"
#include "nnet/convolution-model.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

struct ConvolutionComputationOptions {
  float max_memory_mb = 200.0f;  // for the temporary matrix
};

struct ConvolutionComputation {
  int32_t num_filters_in = 0, num_filters_out = 0;
  // height_in is R times the model's when R frames are viewed as one.
  int32_t height_in = 0, height_out = 0;
  // Input frames (after the R-fold view) and output frames per image.
  int32_t num_t_in = 0, num_t_out = 0;
  int32_t num_images = 0;
  // The temporary matrix (0 x 0 if no step needs it); temp_rows may be a
  // multiple of num_images smaller than num_t_out * num_images.
  int32_t temp_rows = 0, temp_cols = 0;

  struct Step {
    int32_t input_time_shift = 0;  // input frames skipped at the start
    int32_t params_start_col = 0;  // first parameter column of the step
    // For each output height and each offset of the step, the input height
    // (in [0, height_in)) or -1 for zero padding.
    std::vector<int32_t> height_map;
    // Derived (ComputeDerived): the temporary matrix's source columns, the
    // reverse maps (each input column at most once per vector) for the
    // input derivative, whether `columns` is one contiguous range, and its
    // first entry.
    IndexVector columns;
    std::vector<IndexVector> backward_columns;
    bool columns_are_contiguous = false;
    int32_t first_column = 0;
  };
  std::vector<Step> steps;

  // Sets the derived members of the steps.
  void ComputeDerived();
  // The temp_rows / temp_cols the steps need under `opts`.
  void ComputeTempMatrixSize(const ConvolutionComputationOptions &opts);
  // "" if consistent, else what is wrong.
  std::string Problem() const;

  // Kaldi's format: <ConvComputation> <NumFiltersInOut> i i <HeightInOut> i i
  // <NumTInOut> i i <NumImages> i <TempRowsCols> i i <NumSteps> i, per step
  // <TimeShift> i <ParamsStartCol> i <HeightMap> ints, </ConvComputation>.
  // Read computes the derived members and throws UserError if the result
  // is inconsistent.
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

// Plans the convolution of `model` from `input_indexes` to
// `output_indexes` (every output Index must have its required inputs) and
// gives the reordered, blank-padded Indexes the component's input and
// output rows must have (in_mod / out_mod; either may be null).
void CompileConvolutionComputation(const ConvolutionModel &model,
                                   const std::vector<Index> &input_indexes,
                                   const std::vector<Index> &output_indexes,
                                   const ConvolutionComputationOptions &opts,
                                   ConvolutionComputation *computation,
                                   std::vector<Index> *in_mod,
                                   std::vector<Index> *out_mod);

// For a column map `columns` (each entry -1 or a column of an input with
// `input_dim` columns), the reverse maps: vectors of input_dim entries that
// each send every input column to at most one of the columns that read it
// (or -1), so that AddCols with each in turn adds every reader's value back
// to its input column. (Also used by the old convolution and max-pooling
// components.)
std::vector<std::vector<int32_t>> ReverseColumnMap(
    const std::vector<int32_t> &columns, int32_t input_dim);

// output += the convolution of input with params (num_filters_out x
// (offsets * num_filters_in)); no bias. input and output contiguous.
void ConvolveForward(const ConvolutionComputation &cc, const MatrixView &input,
                     const MatrixView &params, MatrixView *output);
// input_deriv += the derivative of sum(output .* output_deriv) with
// respect to the input.
void ConvolveBackwardData(const ConvolutionComputation &cc,
                          const MatrixView &params,
                          const MatrixView &output_deriv,
                          MatrixView *input_deriv);
// params_deriv += alpha * the derivative of sum(output .* output_deriv)
// with respect to params.
void ConvolveBackwardParams(const ConvolutionComputation &cc,
                            const MatrixView &input,
                            const MatrixView &output_deriv, float alpha,
                            MatrixView *params_deriv);

}  // namespace nnet3

#endif  // NNET3_NNET_CONVOLUTION_COMPUTATION_H_
