#include "compute/nnet-computer.h"

#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"

namespace nnet3 {

namespace {

// Deletes a memo through the component that made it (unique_ptr deleter).
struct MemoDeleter {
  const Component *component;
  void operator()(void *memo) const { component->DeleteMemo(memo); }
};
using MemoPtr = std::unique_ptr<void, MemoDeleter>;

// The submatrix a command writes, for the debug log; 0 if none or several.
int32_t WrittenSubmatrix(const NnetComputation::Command &c) {
  switch (c.command_type) {
    case kSetConst:
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
    case kCopyRows:
    case kAddRows:
    case kCopyRowsMulti:
    case kAddRowsMulti:
    case kAddRowRanges:
      return c.arg1;
    case kPropagate:
      return c.arg4;
    case kBackprop:
    case kBackpropNoModelUpdate:
      return c.arg6;
    default:
      return 0;
  }
}

// Used when the computation cannot print itself (e.g. its indexes are bad).
std::string FallbackCommandString(const NnetComputation::Command &c) {
  std::ostringstream os;
  os << CommandTypeName(c.command_type) << "(alpha=" << c.alpha << ", "
     << c.arg1 << ", " << c.arg2 << ", " << c.arg3 << ", " << c.arg4 << ", "
     << c.arg5 << ", " << c.arg6 << ", " << c.arg7 << ")";
  return os.str();
}

// The listing of every command: the computation's own, or the fallback.
std::vector<std::string> AllCommandStrings(const NnetComputation &computation,
                                           const Nnet &nnet) {
  std::vector<std::string> strings;
  try {
    computation.GetCommandStrings(nnet, &strings);
  } catch (const Error &) {
    strings.clear();
  }
  if (strings.size() != computation.commands.size()) {
    strings.clear();
    for (const NnetComputation::Command &c : computation.commands)
      strings.push_back(FallbackCommandString(c));
  }
  return strings;
}

}  // namespace

void NnetComputeOptions::Register(OptionsRegistry *opts) {
  opts->Register("debug", &debug,
                 "If true, log every command of the neural-net computation "
                 "and the sum of what it wrote (very verbose); also on with "
                 "--verbose=5 or more");
}

NnetComputer::NnetComputer(const NnetComputeOptions &options,
                           const NnetComputation &computation, const Nnet &nnet,
                           Nnet *nnet_to_update)
    : options_(options),
      computation_(computation),
      nnet_(nnet),
      nnet_to_store_stats_(nnet_to_update),
      nnet_to_update_(nnet_to_update) {
  Init();
}

NnetComputer::NnetComputer(const NnetComputeOptions &options,
                           const NnetComputation &computation, Nnet *nnet,
                           Nnet *nnet_to_update)
    : options_(options),
      computation_(computation),
      nnet_(*nnet),
      nnet_to_store_stats_(nnet),
      nnet_to_update_(nnet_to_update) {
  Init();
}

NnetComputer::~NnetComputer() {
  // Memos of propagates whose backprop never ran.
  for (auto &entry : memos_) {
    if (entry.second == nullptr) continue;
    try {
      entry.first->DeleteMemo(entry.second);
    } catch (...) {
      // A destructor must not throw; the memo leaks.
    }
  }
}

void NnetComputer::Init() {
  device_ = &ActiveDevice();
  debug_ = options_.debug || VerboseLevel() >= 5;
  matrices_.reserve(computation_.matrices.size());
  for (size_t m = 0; m < computation_.matrices.size(); ++m)
    matrices_.emplace_back(*device_);
  compressed_.resize(computation_.matrices.size());
  indexes_.resize(computation_.indexes.size());
  ranges_.resize(computation_.indexes_ranges.size());
  row_pointers_.resize(computation_.indexes_multi.size());
  if (debug_) command_strings_ = AllCommandStrings(computation_, nnet_);
}

// ---- running ----

void NnetComputer::Run() {
  const auto &commands = computation_.commands;
  const int32_t num_commands = static_cast<int32_t>(commands.size());
  if (program_counter_ >= num_commands)
    NNET3_ERR << "NnetComputer::Run(): the computation has already finished ("
              << num_commands << " commands); a new NnetComputer is needed "
              << "to run it again";
  CheckNoPendingIo();
  for (; program_counter_ < num_commands; ++program_counter_) {
    const CommandType type = commands[program_counter_].command_type;
    if (type == kAcceptInput || type == kProvideOutput) break;
    const int32_t k = program_counter_;  // kGotoLabel moves the counter
    try {
      ExecuteCommand();
    } catch (const UserError &e) {
      throw UserError(FailureMessage(k, e.what()), e.where());
    } catch (const InternalError &e) {
      throw InternalError(FailureMessage(k, e.what()), e.where());
    }
    if (debug_) DebugLogCommand(k);
  }
}

void NnetComputer::ExecuteCommand() {
  const Command &c = computation_.commands[program_counter_];
  switch (c.command_type) {
    case kAllocMatrix:
      ExecAlloc(c);
      break;
    case kDeallocMatrix:
      ExecDealloc(c);
      break;
    case kSwapMatrix:
      ExecSwap(c);
      break;
    case kSetConst:
      ExecSetConst(c);
      break;
    case kPropagate:
      ExecPropagate(c);
      break;
    case kBackprop:
    case kBackpropNoModelUpdate:
      ExecBackprop(c);
      break;
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
      ExecMatrixCopyAdd(c);
      break;
    case kCopyRows:
    case kAddRows:
      ExecRows(c);
      break;
    case kCopyRowsMulti:
    case kCopyToRowsMulti:
    case kAddRowsMulti:
    case kAddToRowsMulti:
      ExecRowsMulti(c);
      break;
    case kAddRowRanges:
      ExecAddRowRanges(c);
      break;
    case kCompressMatrix:
      ExecCompress(c);
      break;
    case kDecompressMatrix:
      ExecDecompress(c);
      break;
    case kNoOperation:
    case kNoOperationPermanent:
    case kNoOperationMarker:
    case kNoOperationLabel:
      break;
    case kGotoLabel:
      ExecGoto(c);
      break;
    default:  // kAcceptInput / kProvideOutput stop Run() before this
      NNET3_INTERNAL_ERR << "NnetComputer: unexpected command type "
                         << static_cast<int>(c.command_type);
  }
}

// ---- one function per command ----

void NnetComputer::ExecAlloc(const Command &c) {
  const int32_t m = MatrixIndexOf(c.arg1);
  const NnetComputation::MatrixInfo &info = computation_.matrices[m];
  matrices_[m].Resize(info.num_rows, info.num_cols, ResizeType::kUndefined,
                      info.stride_type);
}

void NnetComputer::ExecDealloc(const Command &c) {
  matrices_[MatrixIndexOf(c.arg1)].Resize(0, 0);
}

void NnetComputer::ExecSwap(const Command &c) {
  matrices_[MatrixIndexOf(c.arg1)].Swap(&matrices_[MatrixIndexOf(c.arg2)]);
}

void NnetComputer::ExecSetConst(const Command &c) {
  MatrixView s = GetSubMatrix(c.arg1);
  if (c.alpha == 0.0f)
    s.SetZero();
  else
    s.Set(c.alpha);
}

void NnetComputer::ExecPropagate(const Command &c) {
  const Component *component = nnet_.GetComponent(c.arg1);
  const MatrixView input = GetSubMatrix(c.arg3);
  MatrixView output = GetSubMatrix(c.arg4);
  const ComponentPrecomputedIndexes *indexes = GetPrecomputedIndexes(c.arg2);
  MemoPtr memo(c.Fusion() != 0 ? component->PropagateFused(c.Fusion(), indexes,
                                                           input, &output)
                               : component->Propagate(indexes, input, &output),
               MemoDeleter{component});
  if (c.arg6 == 1) {
    if (nnet_to_store_stats_ == nullptr)
      NNET3_ERR << "The computation stores component stats, but the "
                << "NnetComputer was given no nnet to store them in";
    // After an in-place propagate the input is gone: pass an empty one.
    const MatrixView no_input(*device_, nullptr, 0, 0, 0);
    nnet_to_store_stats_->GetComponent(c.arg1)->StoreStats(
        c.arg3 == c.arg4 ? no_input : input, output, memo.get());
  }
  if (c.arg5 > 0) SaveMemo(c.arg5, *component, memo.release());
  if (options_.check_finite && first_non_finite_ < 0 && !output.IsFinite())
    first_non_finite_ = c.arg1;
}

void NnetComputer::ExecBackprop(const Command &c) {
  const Component *component = nnet_.GetComponent(c.arg1);
  Component *to_update = ComponentToUpdate(c, *component);
  const MatrixView in_value = GetSubMatrix(c.arg3);
  const MatrixView out_value = GetSubMatrix(c.arg4);
  const MatrixView out_deriv = GetSubMatrix(c.arg5);
  MatrixView in_deriv = GetSubMatrix(c.arg6);
  MemoPtr memo(TakeMemo(c.arg7), MemoDeleter{component});
  component->Backprop(nnet_.GetComponentName(c.arg1),
                      GetPrecomputedIndexes(c.arg2), in_value, out_value,
                      out_deriv, memo.get(), to_update,
                      c.arg6 > 0 ? &in_deriv : nullptr);
}

void NnetComputer::ExecMatrixCopyAdd(const Command &c) {
  MatrixView dst = GetSubMatrix(c.arg1);
  if (c.command_type == kMatrixAdd) {
    dst.AddMat(c.alpha, GetSubMatrix(c.arg2));
    return;
  }
  if (c.command_type == kMatrixScaleAdd) {
    dst.ScaleAndAddMat(c.alpha, 1.0f, GetSubMatrix(c.arg2));
    return;
  }
  if (c.arg1 != c.arg2) dst.CopyFromMat(GetSubMatrix(c.arg2));
  if (c.alpha != 1.0f) dst.Scale(c.alpha);
}

void NnetComputer::ExecRows(const Command &c) {
  MatrixView dst = GetSubMatrix(c.arg1);
  const MatrixView src = GetSubMatrix(c.arg2);
  const IndexVector &indexes = GetIndexes(c.arg3);
  NNET3_ASSERT(indexes.Dim() == dst.NumRows());
  if (c.command_type == kAddRows) {
    dst.AddRows(c.alpha, src, indexes);
    return;
  }
  dst.CopyRows(src, indexes);
  if (c.alpha != 1.0f) dst.Scale(c.alpha);
}

void NnetComputer::ExecRowsMulti(const Command &c) {
  MatrixView m = GetSubMatrix(c.arg1);
  const RowPointers &rows = GetRowPointers(c.arg2, m.NumCols());
  NNET3_ASSERT(rows.Dim() == m.NumRows());
  switch (c.command_type) {
    case kCopyRowsMulti:
      m.CopyRows(rows);
      if (c.alpha != 1.0f) m.Scale(c.alpha);
      break;
    case kAddRowsMulti:
      m.AddRows(c.alpha, rows);
      break;
    case kCopyToRowsMulti:
      if (c.alpha != 1.0f)
        NNET3_INTERNAL_ERR << "kCopyToRowsMulti supports only alpha = 1, got "
                           << c.alpha;
      m.CopyToRows(rows);
      break;
    default:
      m.AddToRows(c.alpha, rows);
      break;  // kAddToRowsMulti
  }
}

void NnetComputer::ExecAddRowRanges(const Command &c) {
  MatrixView dst = GetSubMatrix(c.arg1);
  const IndexVector &ranges = GetRanges(c.arg3);
  NNET3_ASSERT(ranges.Dim() == 2 * dst.NumRows());
  dst.AddRowRanges(c.alpha, GetSubMatrix(c.arg2), ranges);
}

void NnetComputer::ExecCompress(const Command &c) {
  const int32_t m = MatrixIndexOf(c.arg1);
  NNET3_ASSERT(compressed_[m].IsEmpty() && !matrices_[m].IsEmpty());
  compressed_[m].CopyFromMat(matrices_[m], static_cast<CompressedType>(c.arg2),
                             c.alpha);
  matrices_[m].Resize(0, 0);
}

void NnetComputer::ExecDecompress(const Command &c) {
  const int32_t m = MatrixIndexOf(c.arg1);
  NNET3_ASSERT(!compressed_[m].IsEmpty() && matrices_[m].IsEmpty());
  const NnetComputation::MatrixInfo &info = computation_.matrices[m];
  matrices_[m].Resize(info.num_rows, info.num_cols, ResizeType::kUndefined,
                      info.stride_type);
  compressed_[m].CopyToMat(&matrices_[m]);
  compressed_[m].Clear();
}

void NnetComputer::ExecGoto(const Command &c) {
  const auto &commands = computation_.commands;
  NNET3_ASSERT(c.arg1 >= 0 && c.arg1 < static_cast<int32_t>(commands.size()) &&
               commands[c.arg1].command_type == kNoOperationLabel);
  program_counter_ = c.arg1;  // Run() then steps past the label
}

// ---- helpers ----

int32_t NnetComputer::MatrixIndexOf(int32_t submatrix_index) const {
  NNET3_ASSERT(submatrix_index > 0 &&
               submatrix_index <
                   static_cast<int32_t>(computation_.submatrices.size()));
  const int32_t m = computation_.submatrices[submatrix_index].matrix_index;
  NNET3_ASSERT(m > 0 && m < static_cast<int32_t>(matrices_.size()));
  return m;
}

MatrixView NnetComputer::GetSubMatrix(int32_t submatrix_index) {
  if (submatrix_index <= 0) return MatrixView(*device_, nullptr, 0, 0, 0);
  const int32_t m = MatrixIndexOf(submatrix_index);
  const NnetComputation::SubMatrixInfo &s =
      computation_.submatrices[submatrix_index];
  return matrices_[m].Range(s.row_offset, s.num_rows, s.col_offset, s.num_cols);
}

const ComponentPrecomputedIndexes *NnetComputer::GetPrecomputedIndexes(
    int32_t index) const {
  if (index <= 0) return nullptr;
  NNET3_ASSERT(index < static_cast<int32_t>(
                           computation_.component_precomputed_indexes.size()));
  return computation_.component_precomputed_indexes[index].data.get();
}

const IndexVector &NnetComputer::GetIndexes(int32_t indexes_index) {
  NNET3_ASSERT(indexes_index >= 0 &&
               indexes_index < static_cast<int32_t>(indexes_.size()));
  const auto &cached = computation_.device_indexes.indexes;
  if (cached.size() == indexes_.size() &&
      &cached[indexes_index]->device() == device_)
    return *cached[indexes_index];
  std::unique_ptr<IndexVector> &slot = indexes_[indexes_index];
  if (!slot)
    slot = std::make_unique<IndexVector>(computation_.indexes[indexes_index],
                                         *device_);
  return *slot;
}

const IndexVector &NnetComputer::GetRanges(int32_t ranges_index) {
  NNET3_ASSERT(ranges_index >= 0 &&
               ranges_index < static_cast<int32_t>(ranges_.size()));
  const auto &cached = computation_.device_indexes.ranges;
  if (cached.size() == ranges_.size() &&
      &cached[ranges_index]->device() == device_)
    return *cached[ranges_index];
  std::unique_ptr<IndexVector> &slot = ranges_[ranges_index];
  if (!slot)
    slot = std::make_unique<IndexVector>(IndexVector::FromRanges(
        computation_.RowRanges(ranges_index), *device_));
  return *slot;
}

const RowPointers &NnetComputer::GetRowPointers(int32_t multi_index,
                                                int32_t num_cols) {
  NNET3_ASSERT(multi_index >= 0 &&
               multi_index < static_cast<int32_t>(row_pointers_.size()));
  const auto &pairs = computation_.indexes_multi[multi_index];
  const int32_t num_submatrices =
      static_cast<int32_t>(computation_.submatrices.size());
  host_pointers_.resize(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const int32_t s = pairs[i].first, r = pairs[i].second;
    if (s < 0) {
      host_pointers_[i] = nullptr;
      continue;
    }
    // The backend reads num_cols floats per pointer: check everything the
    // pointer stands for, since the matrices change between runs.
    NNET3_ASSERT(s > 0 && s < num_submatrices);
    const NnetComputation::SubMatrixInfo &info = computation_.submatrices[s];
    NNET3_ASSERT(r >= 0 && r < info.num_rows && info.num_cols == num_cols);
    const Matrix &m = matrices_[MatrixIndexOf(s)];
    NNET3_ASSERT(info.row_offset + info.num_rows <= m.NumRows() &&
                 info.col_offset + info.num_cols <= m.NumCols());
    host_pointers_[i] = m.RowData(info.row_offset + r) + info.col_offset;
  }
  std::unique_ptr<RowPointers> &slot = row_pointers_[multi_index];
  if (!slot) slot = std::make_unique<RowPointers>(*device_);
  slot->CopyFromVec(host_pointers_);
  return *slot;
}

Component *NnetComputer::ComponentToUpdate(const Command &c,
                                           const Component &component) {
  if (c.command_type != kBackprop) return nullptr;
  if (component.Properties() & kUpdatableComponent) {
    if (!computation_.need_model_derivative) return nullptr;
    if (nnet_to_update_ == nullptr)
      NNET3_ERR << "The computation updates the model (need_model_derivative)"
                << " but the NnetComputer was given no nnet to update";
    return nnet_to_update_->GetComponent(c.arg1);
  }
  // Non-updatable components keep backprop stats (e.g. nonlinearities'
  // derivative stats, gradient-clipping counts) in the stats nnet.
  if (nnet_to_store_stats_ == nullptr) return nullptr;
  return nnet_to_store_stats_->GetComponent(c.arg1);
}

void NnetComputer::SaveMemo(int32_t memo_index, const Component &component,
                            void *memo) {
  if (memo_index >= static_cast<int32_t>(memos_.size()))
    memos_.resize(memo_index + 1, {nullptr, nullptr});
  auto &entry = memos_[memo_index];
  if (entry.second != nullptr) entry.first->DeleteMemo(entry.second);
  entry = {&component, memo};
}

void *NnetComputer::TakeMemo(int32_t memo_index) {
  if (memo_index <= 0) return nullptr;
  if (memo_index >= static_cast<int32_t>(memos_.size()))
    NNET3_INTERNAL_ERR << "Backprop wants memo " << memo_index
                       << ", which no earlier propagate made";
  void *memo = memos_[memo_index].second;
  memos_[memo_index] = {nullptr, nullptr};
  return memo;
}

// ---- I/O ----

void NnetComputer::CheckNoPendingIo() {
  const auto &c = computation_.commands;
  const int32_t num_commands = static_cast<int32_t>(c.size());
  while (program_counter_ < num_commands &&
         (c[program_counter_].command_type == kAcceptInput ||
          c[program_counter_].command_type == kProvideOutput)) {
    pending_commands_.push_back(program_counter_);
    ++program_counter_;
  }
  for (int32_t command : pending_commands_) {
    if (c[command].command_type != kAcceptInput) continue;
    const std::string &name = nnet_.GetNodeName(c[command].arg2);
    NNET3_ERR << "Cannot run the computation: we did not get input for node '"
              << name << "' (call AcceptInput(\"" << name
              << "\", ...) before Run())";
  }
  pending_commands_.clear();
}

int32_t NnetComputer::FindPendingIo(const std::string &node_name,
                                    bool is_output) {
  const int32_t node = nnet_.GetNodeIndex(node_name);
  if (node < 0) NNET3_ERR << "No node named '" << node_name << "' in the nnet";
  // Make sure every I/O command expected next is listed as pending.
  const auto &c = computation_.commands;
  const int32_t num_commands = static_cast<int32_t>(c.size());
  while (program_counter_ < num_commands &&
         (c[program_counter_].command_type == kAcceptInput ||
          c[program_counter_].command_type == kProvideOutput ||
          c[program_counter_].command_type == kNoOperationMarker)) {
    if (c[program_counter_].command_type != kNoOperationMarker)
      pending_commands_.push_back(program_counter_);
    ++program_counter_;
  }
  for (size_t i = 0; i < pending_commands_.size(); ++i) {
    const Command &command = c[pending_commands_[i]];
    if ((command.command_type == kProvideOutput) == is_output &&
        command.arg2 == node) {
      if (!computation_.IsWholeMatrix(command.arg1))
        NNET3_INTERNAL_ERR << "The computation's I/O for node '" << node_name
                           << "' is not a whole matrix";
      return static_cast<int32_t>(i);
    }
  }
  NNET3_ERR << "Cannot " << (is_output ? "provide output" : "accept input")
            << " for node '" << node_name << "': the computation does not "
            << "expect it at this point (command " << program_counter_ << " of "
            << num_commands << ")";
  return -1;  // not reached
}

void NnetComputer::AcceptInput(const std::string &node_name, Matrix *input) {
  const int32_t pending = FindPendingIo(node_name, false);
  const int32_t m =
      MatrixIndexOf(computation_.commands[pending_commands_[pending]].arg1);
  const NnetComputation::MatrixInfo &info = computation_.matrices[m];
  if (input->NumRows() != info.num_rows || input->NumCols() != info.num_cols)
    NNET3_ERR << "AcceptInput: the matrix given for node '" << node_name
              << "' is " << input->NumRows() << " x " << input->NumCols()
              << " but the computation expects " << info.num_rows << " x "
              << info.num_cols;
  pending_commands_.erase(pending_commands_.begin() + pending);
  const bool needs_copy =
      &input->device() != device_ ||
      (info.stride_type == MatrixStrideType::kStrideEqualNumCols &&
       input->NumRows() > 0 && input->Stride() != input->NumCols());
  if (needs_copy) {
    matrices_[m].Resize(info.num_rows, info.num_cols, ResizeType::kUndefined,
                        info.stride_type);
    matrices_[m].CopyFromMat(*input);
    input->Resize(0, 0);
    return;
  }
  Matrix taken(*device_);
  taken.Swap(input);
  matrices_[m].Swap(&taken);
}

const MatrixView &NnetComputer::GetOutput(const std::string &node_name) {
  const int32_t pending = FindPendingIo(node_name, true);
  const int32_t m =
      MatrixIndexOf(computation_.commands[pending_commands_[pending]].arg1);
  const NnetComputation::MatrixInfo &info = computation_.matrices[m];
  const Matrix &out = matrices_[m];
  if (out.NumRows() != info.num_rows || out.NumCols() != info.num_cols)
    NNET3_ERR << "GetOutput: the matrix for node '" << node_name << "' is "
              << out.NumRows() << " x " << out.NumCols() << " instead of "
              << info.num_rows << " x " << info.num_cols
              << " (was it already taken by GetOutputDestructive?)";
  return out;
}

void NnetComputer::GetOutputDestructive(const std::string &node_name,
                                        Matrix *output) {
  GetOutput(node_name);  // checks
  const int32_t pending = FindPendingIo(node_name, true);
  const int32_t m =
      MatrixIndexOf(computation_.commands[pending_commands_[pending]].arg1);
  // Through an empty matrix on our device, so that matrices_[m] stays on it
  // whatever device `output` was on.
  Matrix taken(*device_);
  taken.Swap(&matrices_[m]);
  output->Swap(&taken);
}

// ---- messages ----

std::string NnetComputer::FailureMessage(int32_t command_index,
                                         const char *what) const {
  const std::vector<std::string> strings =
      AllCommandStrings(computation_, nnet_);
  std::ostringstream os;
  os << "Command c" << command_index << " (" << strings[command_index]
     << ") of the computation failed: " << what;
  os << "\nThe computation's commands up to the failing one:";
  for (int32_t k = 0; k <= command_index; ++k)
    os << "\n  c" << k << ": " << strings[k];
  return os.str();
}

void NnetComputer::DebugLogCommand(int32_t command_index) {
  const Command &c = computation_.commands[command_index];
  std::ostringstream os;
  os << "c" << command_index << ": " << command_strings_[command_index];
  const int32_t s = WrittenSubmatrix(c);
  if (s > 0) os << "  [sum of output: " << GetSubMatrix(s).Sum() << "]";
  NNET3_LOG << os.str();
}

}  // namespace nnet3
