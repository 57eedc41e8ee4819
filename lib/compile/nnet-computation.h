// NnetComputation: a compiled computation as plain data — matrices,
// submatrices (row/column ranges of matrices), index lists and a list of
// commands with integer arguments (reference section 9; seed
// nnet3-compilation). It can be printed, checked, serialized and compared;
// the executor (lib/compute) is a loop with a switch over the commands.
//
// Matrices and submatrices are numbered from 1; index 0 of each is the
// empty / null one. Commands refer to submatrices, not matrices.
//
// Command arguments (alpha defaults to 1, args to -1):
//
// | command                | arguments                                                    |
// |------------------------|--------------------------------------------------------------|
// | kAllocMatrix           | arg1: whole submatrix to allocate (contents undefined)       |
// | kDeallocMatrix         | arg1: whole submatrix to free                                |
// | kSwapMatrix            | arg1, arg2: whole submatrices whose matrices swap            |
// | kSetConst              | arg1: submatrix set to alpha                                 |
// | kPropagate             | arg1 component, arg2 precomputed-indexes (0 none), arg3 in,  |
// |                        | arg4 out, arg5 memo index (0 none), arg6 1 = StoreStats too, |
// |                        | arg7 PropagateFusion flags (ours; -1 or 0: none; see below)  |
// | kBackprop              | arg1 component, arg2 precomputed, arg3 in_value, arg4        |
// |                        | out_value, arg5 out_deriv, arg6 in_deriv (0 none), arg7 memo |
// | kBackpropNoModelUpdate | as kBackprop, but never updates the model                    |
// | kMatrixCopy            | sub[arg1] = alpha * sub[arg2]                                |
// | kMatrixAdd             | sub[arg1] += alpha * sub[arg2]                               |
// | kMatrixScaleAdd        | sub[arg1] = alpha * sub[arg1] + sub[arg2] (ours, one pass)   |
// | kCopyRows              | sub[arg1] row r = alpha * sub[arg2] row indexes[arg3][r]     |
// | kAddRows               | sub[arg1] row r += alpha * sub[arg2] row indexes[arg3][r]    |
// | kCopyRowsMulti         | sub[arg1] row r = alpha * (indexes_multi[arg2][r] = (s, row))|
// | kCopyToRowsMulti       | (indexes_multi[arg2][r]) = sub[arg1] row r                   |
// | kAddRowsMulti          | sub[arg1] row r += alpha * (indexes_multi[arg2][r])          |
// | kAddToRowsMulti        | (indexes_multi[arg2][r]) += alpha * sub[arg1] row r          |
// | kAddRowRanges          | sub[arg1] row r += alpha * sum of sub[arg2] rows in          |
// |                        | indexes_ranges[arg3][r] = [start, end)                       |
// | kCompressMatrix        | arg1 whole submatrix, arg2 type, alpha range, arg3 truncate  |
// | kDecompressMatrix      | arg1 whole submatrix                                         |
// | kAcceptInput           | arg1 whole submatrix the user supplies, arg2 network node    |
// | kProvideOutput         | arg1 whole submatrix handed to the user, arg2 network node   |
// | kNoOperation           | nothing (removed by the optimizer)                           |
// | kNoOperationPermanent  | nothing (kept)                                               |
// | kNoOperationMarker     | end of the forward commands                                  |
// | kNoOperationLabel      | target of kGotoLabel                                         |
// | kGotoLabel             | arg1: command index of a kNoOperationLabel                   |
//
// In index lists, -1 means "zero this row" (copy) or "skip" (add); in
// indexes_multi, (-1, -1) likewise.
//
// Our extensions of Kaldi's commands, which only the fusion passes
// (optimize/fuse-memory-passes.h) write: a kPropagate whose arg7 holds
// PropagateFusion flags (nnet/component-itf.h) runs the component's
// PropagateFused (kFuseAssignOutput: the output is written, not read;
// kFuseRectifyInput: the input is read through a ReLU); kMatrixScaleAdd is
// an in-place scale and an add in one pass. Kaldi cannot run them.
#ifndef NNET3_COMPILE_NNET_COMPUTATION_H_
#define NNET3_COMPILE_NNET_COMPUTATION_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix-common.h"
#include "nnet/component-itf.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

class Nnet;

// A fixed underlying type: a computation read from a file (a cache) or
// built by a test may hold any int here, which the checker then names.
enum CommandType : int32_t {
  kAllocMatrix,
  kDeallocMatrix,
  kSwapMatrix,
  kSetConst,
  kPropagate,
  kBackprop,
  kBackpropNoModelUpdate,
  kMatrixCopy,
  kMatrixAdd,
  kCopyRows,
  kAddRows,
  kCopyRowsMulti,
  kCopyToRowsMulti,
  kAddRowsMulti,
  kAddToRowsMulti,
  kAddRowRanges,
  kCompressMatrix,
  kDecompressMatrix,
  kAcceptInput,
  kProvideOutput,
  kNoOperation,
  kNoOperationPermanent,
  kNoOperationMarker,
  kNoOperationLabel,
  kGotoLabel,
  kMatrixScaleAdd,
  kNumCommandTypes
};

// "kPropagate" etc.
const char *CommandTypeName(CommandType type);

struct NnetComputation {
  struct MatrixInfo {
    int32_t num_rows = 0;
    int32_t num_cols = 0;
    MatrixStrideType stride_type = MatrixStrideType::kDefaultStride;
    MatrixInfo() = default;
    MatrixInfo(int32_t r, int32_t c, MatrixStrideType s)
        : num_rows(r), num_cols(c), stride_type(s) {}
    void Write(std::ostream &os, bool binary) const;
    void Read(std::istream &is, bool binary);
  };
  struct MatrixDebugInfo {
    bool is_deriv = false;
    std::vector<Cindex> cindexes;  // one per row
    void Write(std::ostream &os, bool binary) const;
    void Read(std::istream &is, bool binary);
  };
  struct SubMatrixInfo {
    int32_t matrix_index = 0;
    int32_t row_offset = 0;
    int32_t num_rows = 0;
    int32_t col_offset = 0;
    int32_t num_cols = 0;
    SubMatrixInfo() = default;
    SubMatrixInfo(int32_t m, int32_t ro, int32_t nr, int32_t co, int32_t nc)
        : matrix_index(m), row_offset(ro), num_rows(nr), col_offset(co),
          num_cols(nc) {}
    bool operator==(const SubMatrixInfo &o) const {
      return matrix_index == o.matrix_index && row_offset == o.row_offset &&
             num_rows == o.num_rows && col_offset == o.col_offset &&
             num_cols == o.num_cols;
    }
    void Write(std::ostream &os, bool binary) const;
    void Read(std::istream &is, bool binary);
  };
  struct Command {
    CommandType command_type = kNoOperationPermanent;
    float alpha = 1.0f;
    int32_t arg1 = -1, arg2 = -1, arg3 = -1, arg4 = -1, arg5 = -1, arg6 = -1,
            arg7 = -1;
    Command() = default;
    Command(float alpha_in, CommandType type, int32_t a1 = -1, int32_t a2 = -1,
            int32_t a3 = -1, int32_t a4 = -1, int32_t a5 = -1,
            int32_t a6 = -1, int32_t a7 = -1)
        : command_type(type), alpha(alpha_in), arg1(a1), arg2(a2), arg3(a3),
          arg4(a4), arg5(a5), arg6(a6), arg7(a7) {}
    explicit Command(CommandType type, int32_t a1 = -1, int32_t a2 = -1,
                     int32_t a3 = -1, int32_t a4 = -1, int32_t a5 = -1,
                     int32_t a6 = -1, int32_t a7 = -1)
        : Command(1.0f, type, a1, a2, a3, a4, a5, a6, a7) {}
    // A kPropagate's PropagateFusion flags: 0 for none (Kaldi's arg7 is -1).
    int32_t Fusion() const { return arg7 > 0 ? arg7 : 0; }
    void Write(std::ostream &os, bool binary) const;
    void Read(std::istream &is, bool binary);
  };
  struct PrecomputedIndexesInfo {
    std::shared_ptr<const ComponentPrecomputedIndexes> data;
    std::vector<Index> input_indexes;   // needed for shortcut expansion
    std::vector<Index> output_indexes;
  };

  std::vector<MatrixInfo> matrices;            // [0] is the empty matrix
  std::vector<MatrixDebugInfo> matrix_debug_info;  // empty, or per matrix
  std::vector<SubMatrixInfo> submatrices;      // [0] is the empty one
  // [0] is null ("no precomputed indexes").
  std::vector<PrecomputedIndexesInfo> component_precomputed_indexes;
  std::vector<std::vector<int32_t>> indexes;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> indexes_multi;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> indexes_ranges;
  std::vector<Command> commands;
  bool need_model_derivative = false;

  // Device copies of `indexes` and `indexes_ranges`, made once after the
  // computation's last change by ComputeDeviceIndexes() (the caching
  // compiler does this, as Kaldi's computes its CUDA indexes), so that the
  // NnetComputers that run the computation, one per minibatch, do not upload
  // them again each time. A copy of the computation starts without them
  // (a copy is usually made to be changed); not written by Write.
  struct DeviceIndexes {
    std::vector<std::shared_ptr<const IndexVector>> indexes, ranges;
    DeviceIndexes() = default;
    DeviceIndexes(const DeviceIndexes &) {}
    DeviceIndexes &operator=(const DeviceIndexes &) {
      indexes.clear();
      ranges.clear();
      return *this;
    }
  };
  DeviceIndexes device_indexes;

  NnetComputation();  // with the reserved entries 0
  // Adds a matrix and a submatrix covering it; returns the submatrix index.
  int32_t NewMatrix(int32_t num_rows, int32_t num_cols,
                    MatrixStrideType stride_type);
  // A submatrix of (the matrix of) submatrix `base`, offsets relative to
  // `base`; -1 for num_rows/num_cols means "the rest".
  int32_t NewSubMatrix(int32_t base, int32_t row_offset, int32_t num_rows,
                       int32_t col_offset, int32_t num_cols);
  bool IsWholeMatrix(int32_t submatrix_index) const;
  // Fills device_indexes on ActiveDevice() (see above). Changing indexes or
  // indexes_ranges afterwards requires calling it again.
  void ComputeDeviceIndexes();
  // The entries of indexes_ranges[i] as AddRowRanges takes them: the
  // "no range" pair (-1, -1) becomes the empty range (0, 0).
  std::vector<std::pair<int32_t, int32_t>> RowRanges(int32_t i) const;

  // Kaldi's readable listing: matrices with their debug info, then
  // "c<k>: <command>" lines, "# begin backward commands" at the marker.
  void Print(std::ostream &os, const Nnet &nnet) const;
  // The text of each command as Print shows it (without "c<k>: ").
  void GetCommandStrings(const Nnet &nnet,
                         std::vector<std::string> *command_strings) const;
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

}  // namespace nnet3

#endif  // NNET3_COMPILE_NNET_COMPUTATION_H_
