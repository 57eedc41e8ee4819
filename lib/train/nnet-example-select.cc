#include "train/nnet-example-select.h"

#include <algorithm>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

void FilterGeneralMatrixRows(const GeneralMatrix &in,
                             const std::vector<bool> &keep_rows,
                             GeneralMatrix *out) {
  NNET3_ASSERT(static_cast<int32_t>(keep_rows.size()) == in.NumRows());
  int32_t num_kept = static_cast<int32_t>(
      std::count(keep_rows.begin(), keep_rows.end(), true));
  NNET3_ASSERT(num_kept > 0);
  if (num_kept == in.NumRows()) {
    *out = in;
    return;
  }
  if (in.Type() == GeneralMatrixType::kSparseMatrix) {
    const SparseMatrix &src = in.GetSparseMatrix();
    std::vector<SparseVector> rows;
    for (int32_t r = 0; r < src.NumRows(); r++)
      if (keep_rows[r]) rows.push_back(src.Row(r));
    SparseMatrix smat(src.NumCols(), rows);
    out->SwapSparseMatrix(&smat);
    return;
  }
  // Full or compressed: through dense host rows, giving a full matrix.
  Matrix dense(CpuDevice());
  in.GetMatrix(&dense);
  std::vector<float> all = dense.ToHost(), kept;
  const int32_t cols = in.NumCols();
  kept.reserve(static_cast<size_t>(num_kept) * cols);
  for (int32_t r = 0; r < in.NumRows(); r++)
    if (keep_rows[r])
      kept.insert(kept.end(), all.begin() + static_cast<size_t>(r) * cols,
                  all.begin() + static_cast<size_t>(r + 1) * cols);
  Matrix result(num_kept, cols, ResizeType::kUndefined, CpuDevice());
  result.CopyFromHost(kept);
  out->SwapFullMatrix(&result);
}

bool ContainsSingleExample(const NnetExample &eg, int32_t *min_input_t,
                           int32_t *max_input_t, int32_t *min_output_t,
                           int32_t *max_output_t) {
  bool done_input = false, done_output = false;
  for (const NnetIo &io : eg.io) {
    if (io.indexes.empty())
      NNET3_ERR << "The example has an empty NnetIo '" << io.name << "'";
    int32_t min_t = io.indexes[0].t, max_t = io.indexes[0].t;
    for (const Index &index : io.indexes) {
      if (index.n != 0) {
        NNET3_WARN << "Example does not contain just a single example; too "
                   << "late to do frame selection or reduce context.";
        return false;
      }
      min_t = std::min(min_t, index.t);
      max_t = std::max(max_t, index.t);
    }
    if (io.name == "input") {
      done_input = true;
      *min_input_t = min_t;
      *max_input_t = max_t;
    } else if (io.name == "output") {
      done_output = true;
      *min_output_t = min_t;
      *max_output_t = max_t;
    }
  }
  if (!done_input)
    NNET3_WARN << "Example does not have any input named 'input'";
  else if (!done_output)
    NNET3_WARN << "Example does not have any output named 'output'";
  return done_input && done_output;
}

void FilterExample(const NnetExample &eg, int32_t min_input_t,
                   int32_t max_input_t, int32_t min_output_t,
                   int32_t max_output_t, NnetExample *eg_out) {
  eg_out->io.clear();
  eg_out->io.resize(eg.io.size());
  for (size_t i = 0; i < eg.io.size(); i++) {
    const NnetIo &in = eg.io[i];
    NnetIo &out = eg_out->io[i];
    out.name = in.name;
    int32_t min_t, max_t;
    if (in.name == "input") {
      min_t = min_input_t;
      max_t = max_input_t;
    } else if (in.name == "output") {
      min_t = min_output_t;
      max_t = max_output_t;
    } else {
      out.indexes = in.indexes;
      out.features = in.features;
      continue;
    }
    std::vector<bool> keep(in.indexes.size());
    for (size_t r = 0; r < in.indexes.size(); r++) {
      keep[r] = in.indexes[r].t >= min_t && in.indexes[r].t <= max_t;
      if (keep[r]) out.indexes.push_back(in.indexes[r]);
    }
    if (out.indexes.empty())
      NNET3_ERR << "Selecting t in [" << min_t << ", " << max_t
                << "] removed every row of '" << in.name << "'";
    FilterGeneralMatrixRows(in.features, keep, &out.features);
  }
}

void ShiftExampleTimes(int32_t t_offset,
                       const std::vector<std::string> &exclude_names,
                       NnetExample *eg) {
  if (t_offset == 0) return;
  for (NnetIo &io : eg->io) {
    if (std::find(exclude_names.begin(), exclude_names.end(), io.name) !=
        exclude_names.end())
      continue;
    for (Index &index : io.indexes) index.t += t_offset;
  }
}

bool SelectFromExample(const NnetExample &eg, const std::string &frame,
                       int32_t left_context, int32_t right_context,
                       int32_t frame_shift, RandomState *rng,
                       NnetExample *eg_out) {
  int32_t min_input_t, max_input_t, min_output_t, max_output_t;
  if (!ContainsSingleExample(eg, &min_input_t, &max_input_t, &min_output_t,
                             &max_output_t))
    NNET3_ERR << "Too late to perform frame selection/context reduction on "
              << "these examples (already merged, or no 'input'/'output')";
  if (frame == "random") {
    min_output_t = max_output_t = rng->Int(min_output_t, max_output_t);
  } else if (!frame.empty()) {
    int32_t t;
    if (!ConvertStringToInteger(frame, &t))
      NNET3_ERR << "Invalid option --frame='" << frame
                << "' (expected a number or 'random')";
    if (t < min_output_t || t > max_output_t) return false;
    min_output_t = max_output_t = t;
  }
  if (left_context >= 0)
    min_input_t = std::max(min_input_t, min_output_t - left_context);
  if (right_context >= 0)
    max_input_t = std::min(max_input_t, max_output_t + right_context);
  FilterExample(eg, min_input_t, max_input_t, min_output_t, max_output_t,
                eg_out);
  ShiftExampleTimes(frame_shift, {"ivector"}, eg_out);
  return true;
}

}  // namespace nnet3
