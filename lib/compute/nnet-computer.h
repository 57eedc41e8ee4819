// NnetComputer: the executor of an NnetComputation (reference 9.1) — a loop
// with a switch over the commands, acting on matrices it owns, with the user
// supplying inputs and taking outputs at the computation's I/O boundaries.
//
//   NnetComputer computer(opts, computation, nnet, delta_nnet);  // may be null
//   computer.AcceptInput("input", &features);    // by swap
//   computer.Run();                              // forward, up to the outputs
//   const MatrixView &out = computer.GetOutput("output");
//   computer.AcceptInput("output", &objf_deriv); // d(objf)/d(output)
//   computer.Run();                              // backward (updates
//   delta_nnet) const MatrixView &in_deriv = computer.GetOutput("input");  //
//   if requested
//
// Run() executes commands from the program counter until it meets a
// kAcceptInput / kProvideOutput command or the end. Every input the
// computation expects before that point must have been given (UserError
// "... we did not get input for node 'X'"); calling Run() after the end is a
// UserError. AcceptInput with an output node's name supplies the derivative
// with respect to that output; GetOutput with an input node's name returns
// the derivative with respect to that input.
//
// Compression (kCompressMatrix / kDecompressMatrix, Kaldi's memory
// compression): on every device, the float matrix is replaced by a
// DeviceCompressedMatrix of the command's type and range and its memory
// freed; decompression allocates it again and fills it with the quantized
// values. The packed block is allocated before the floats are freed (and
// the floats before the packed block is), as in Kaldi. The truncate
// argument is ignored: values are always clamped to the type's limits,
// which is what Kaldi's executor does too (NewCuCompressedMatrix drops it).
// Unlike Kaldi, which compresses only on a GPU, the CPU compresses too, so
// that the memory GetMaxMemoryUse counts is the memory that runs everywhere.
//
// Model updates and stats: kBackprop of an updatable component updates the
// same-numbered component of `nnet_to_update` when the computation has
// need_model_derivative; kBackprop of a non-updatable component passes the
// stats nnet's component as to_update (backprop stats, gradient clipping
// counts); kPropagate with arg6 == 1 calls StoreStats on the stats nnet's
// component. The stats nnet is `nnet_to_update` with the first constructor
// and `nnet` itself with the second (Kaldi's two constructors).
//
// Errors from a command (UserError or InternalError from a component or a
// matrix operation) are rethrown with the same type; the first line of the
// message names the failing command, the following lines list the
// computation's commands up to it.
//
// Thread safety: many NnetComputers may run the same const Nnet and the
// same const NnetComputation from different threads at once; each computer
// owns its matrices, memos and index caches and writes nothing shared. The
// exceptions are the nnets given for update and stats (one writer at a
// time), and RandomComponents (dropout) in training mode, whose mutable
// seed advances in the const Propagate: run those on one thread, or give
// each thread its own copy of the Nnet.
//
// The computation and the nnets must outlive the computer; the computation
// is held by reference.
#ifndef NNET3_COMPUTE_NNET_COMPUTER_H_
#define NNET3_COMPUTE_NNET_COMPUTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compile/nnet-computation.h"
#include "device/device.h"
#include "matrix/device-array.h"
#include "matrix/device-compressed-matrix.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetComputeOptions {
  // Logs each command and the sum of what it wrote. Also on at --verbose>=5.
  bool debug = false;
  // Checks each propagate's output for inf and NaN and remembers the first
  // component whose output was not finite (FirstNonFiniteComponent). Not an
  // option: the trainer turns it on to explain a non-finite step.
  bool check_finite = false;
  // Registers "debug"; programs pass a sub-registry named "computation",
  // giving --computation.debug.
  void Register(OptionsRegistry *opts);
};

class NnetComputer {
 public:
  // `nnet_to_update` (may be null, may be the non-const twin of `nnet`)
  // receives model updates and component stats.
  NnetComputer(const NnetComputeOptions &options,
               const NnetComputation &computation, const Nnet &nnet,
               Nnet *nnet_to_update);
  // As above, but component stats (StoreStats, backprop stats of
  // non-updatable components) go into `nnet` itself.
  NnetComputer(const NnetComputeOptions &options,
               const NnetComputation &computation, Nnet *nnet,
               Nnet *nnet_to_update);
  NnetComputer(const NnetComputer &) = delete;
  NnetComputer &operator=(const NnetComputer &) = delete;
  ~NnetComputer();

  // Supplies the value of input node `node_name`, or the derivative w.r.t.
  // output node `node_name`, taking `input`'s memory by swap (`input` is
  // left empty). Its shape must equal the computation's matrix (UserError
  // naming the node and both shapes). Copies instead when the computation
  // needs stride == cols and `input` is padded, or `input` lives on another
  // device.
  void AcceptInput(const std::string &node_name, Matrix *input);
  // Runs to the next I/O boundary (see the file comment).
  void Run();
  // The value of output node `node_name`, or the derivative w.r.t. input
  // node `node_name`; valid until the next Run(). May be fetched again.
  const MatrixView &GetOutput(const std::string &node_name);
  // Like GetOutput, but moves the matrix into `output`.
  void GetOutputDestructive(const std::string &node_name, Matrix *output);
  // With options.check_finite: the index of the first component whose
  // propagate wrote inf or NaN so far, or -1.
  int32_t FirstNonFiniteComponent() const { return first_non_finite_; }

 private:
  using Command = NnetComputation::Command;

  void Init();
  // One command at program_counter_; errors are rethrown by Run with the
  // command listing.
  void ExecuteCommand();
  // The first line names the failing command; the listing follows.
  std::string FailureMessage(int32_t command_index, const char *what) const;

  // ---- one function per command kind ----
  void ExecAlloc(const Command &c);
  void ExecDealloc(const Command &c);
  void ExecSwap(const Command &c);
  void ExecSetConst(const Command &c);
  void ExecPropagate(const Command &c);
  void ExecBackprop(const Command &c);
  void ExecMatrixCopyAdd(const Command &c);
  void ExecRows(const Command &c);
  void ExecRowsMulti(const Command &c);
  void ExecAddRowRanges(const Command &c);
  void ExecCompress(const Command &c);
  void ExecDecompress(const Command &c);
  void ExecGoto(const Command &c);

  // ---- helpers ----
  MatrixView GetSubMatrix(int32_t submatrix_index);
  int32_t MatrixIndexOf(int32_t submatrix_index) const;
  const ComponentPrecomputedIndexes *GetPrecomputedIndexes(int32_t index) const;
  const IndexVector &GetIndexes(int32_t indexes_index);
  const IndexVector &GetRanges(int32_t ranges_index);
  // Device row pointers for indexes_multi[multi_index] as the matrices are
  // now; every source must have `num_cols` columns.
  const RowPointers &GetRowPointers(int32_t multi_index, int32_t num_cols);
  // The component the backprop command `c` may update, or null.
  Component *ComponentToUpdate(const Command &c, const Component &component);
  void SaveMemo(int32_t memo_index, const Component &component, void *memo);
  void *TakeMemo(int32_t memo_index);

  // ---- I/O ----
  // Records the I/O commands at the program counter as pending; errors if
  // an input is still missing. Called at the start of Run().
  void CheckNoPendingIo();
  // Position in pending_commands_ of the I/O command for `node_name`,
  // after listing the I/O commands at the program counter as pending.
  int32_t FindPendingIo(const std::string &node_name, bool is_output);

  void DebugLogCommand(int32_t command_index);

  NnetComputeOptions options_;
  const NnetComputation &computation_;
  const Nnet &nnet_;
  Nnet *nnet_to_store_stats_;
  Nnet *nnet_to_update_;
  Device *device_;
  bool debug_ = false;
  int32_t first_non_finite_ = -1;  // see FirstNonFiniteComponent()
  int32_t program_counter_ = 0;
  std::vector<int32_t> pending_commands_;

  std::vector<Matrix> matrices_;
  // A matrix between its kCompressMatrix and kDecompressMatrix lives here
  // (its entry in matrices_ is empty meanwhile).
  std::vector<DeviceCompressedMatrix> compressed_;
  // Memo index -> (component, memo) from a propagate, until its backprop.
  std::vector<std::pair<const Component *, void *>> memos_;
  // Uploaded once per computer, on first use.
  std::vector<std::unique_ptr<IndexVector>> indexes_;
  std::vector<std::unique_ptr<IndexVector>> ranges_;
  // Re-filled on each use (matrices move between runs), never reallocated
  // once the size is known.
  std::vector<std::unique_ptr<RowPointers>> row_pointers_;
  std::vector<float *> host_pointers_;
  // Filled when debug_ is on.
  std::vector<std::string> command_strings_;
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_NNET_COMPUTER_H_
