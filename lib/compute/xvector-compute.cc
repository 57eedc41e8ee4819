#include "compute/xvector-compute.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/timer.h"
#include "compute/batch-inference-loop.h"
#include "compute/inference-loop.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-batch-inference.h"
#include "util/table-types.h"

namespace nnet3 {

void XvectorComputeOptions::Register(OptionsRegistry *po) {
  po->Register("chunk-size", &chunk_size,
               "If set, extracts xvectors from specified chunk-size, and "
               "averages.  If not set, extracts an xvector from all "
               "available features.");
  po->Register("min-chunk-size", &min_chunk_size,
               "Minimum chunk-size allowed when extracting xvectors.");
  po->Register("pad-input", &pad_input,
               "If true, duplicate the first and last frames of the input "
               "features as required to equal min-chunk-size.");
}

namespace {

// One chunk's task: input rows [first, first + num) of `features`, padded
// to `padded_size` rows by repeating its first and last rows.
void MakeChunkTask(const MatrixView &features, int32_t first, int32_t num,
                   int32_t padded_size, int32_t index,
                   NnetInferenceTask *task) {
  const int32_t left = (padded_size - num) / 2;
  task->input.Resize(padded_size, features.NumCols(), ResizeType::kUndefined);
  task->input.RowRange(left, num).CopyFromMat(features.RowRange(first, num));
  for (int32_t r = 0; r < left; ++r)
    task->input.RowRange(r, 1).CopyFromMat(features.RowRange(first, 1));
  for (int32_t r = left + num; r < padded_size; ++r)
    task->input.RowRange(r, 1).CopyFromMat(
        features.RowRange(first + num - 1, 1));
  task->first_input_t = 0;
  task->output_t_stride = 1;
  task->num_output_frames = 1;
  task->num_used_output_frames = 1;
  task->first_used_output_frame_index = index;
}

}  // namespace

bool SplitUtteranceForXvector(const XvectorComputeOptions &opts,
                              const std::string &utterance,
                              const MatrixView &features,
                              std::vector<NnetInferenceTask> *tasks,
                              std::vector<float> *weights) {
  tasks->clear();
  weights->clear();
  const int32_t num_rows = features.NumRows();
  int32_t chunk_size = opts.chunk_size;
  if (!opts.pad_input && num_rows < opts.min_chunk_size) {
    NNET3_WARN << "Minimum chunk size of " << opts.min_chunk_size
               << " is greater than the number of rows in utterance: "
               << utterance;
    return false;
  } else if (num_rows < opts.chunk_size) {
    NNET3_LOG << "Chunk size of " << opts.chunk_size << " is greater than "
              << "the number of rows in utterance: " << utterance
              << ", using chunk size  of " << num_rows;
    chunk_size = num_rows;
  } else if (opts.chunk_size == -1) {
    chunk_size = num_rows;
  }
  const int32_t num_chunks = (num_rows + chunk_size - 1) / chunk_size;
  for (int32_t c = 0; c < num_chunks; ++c) {
    const int32_t first = c * chunk_size,
                  num = std::min(chunk_size, num_rows - first);
    if (!opts.pad_input && num < opts.min_chunk_size) continue;
    const bool padded = opts.pad_input && num < opts.min_chunk_size;
    tasks->emplace_back();
    NnetInferenceTask &task = tasks->back();
    MakeChunkTask(features, first, num, padded ? opts.min_chunk_size : num,
                  static_cast<int32_t>(tasks->size()) - 1, &task);
    // Whole chunks of --chunk-size and padded ones repeat their shape.
    task.is_irregular = !padded && num != opts.chunk_size;
    weights->push_back(static_cast<float>(num));
  }
  if (tasks->empty()) {
    NNET3_WARN << "No chunk of utterance " << utterance << " (" << num_rows
               << " frames, --chunk-size=" << opts.chunk_size
               << ") has --min-chunk-size=" << opts.min_chunk_size
               << " frames; skipping it (use --pad-input)";
    return false;
  }
  return true;
}

void AverageXvector(const MatrixView &chunk_xvectors,
                    const std::vector<float> &weights, Vector *xvector) {
  NNET3_ASSERT(static_cast<size_t>(chunk_xvectors.NumRows()) ==
                   weights.size() &&
               !weights.empty());
  const Vector w(weights);
  double total = 0.0;
  for (float x : weights) total += x;
  xvector->Resize(chunk_xvectors.NumCols());
  // xvector = (w^T X) / total.
  xvector->AsRowMatrix().AddMatMat(static_cast<float>(1.0 / total),
                                   w.AsRowMatrix(), Trans::kNo, chunk_xvectors,
                                   Trans::kNo, 0.0f);
}

void ComputeXvectors(const XvectorComputeOptions &opts,
                     const NnetBatchComputerOptions &batch_opts,
                     const Nnet &nnet, const std::string &feature_rspecifier,
                     const std::string &vector_wspecifier,
                     const std::string &cache_in,
                     const std::string &cache_out) {
  Timer timer;
  if (opts.min_chunk_size < 1 || opts.chunk_size == 0 || opts.chunk_size < -1)
    NNET3_ERR << "--chunk-size must be -1 or > 0 and --min-chunk-size > 0 "
              << "(got " << opts.chunk_size << " and " << opts.min_chunk_size
              << ")";
  NnetBatchInference inference(batch_opts, nnet, Vector());
  NnetBatchComputer &computer = inference.Computer();
  if (computer.IvectorDim() > 0)
    NNET3_ERR << "The network has an 'ivector' input; x-vector extraction "
              << "gives the network features only";
  if (!cache_in.empty()) {
    NNET3_LOG << "Reading cache from " << cache_in;
    computer.Compiler().ReadCacheFile(cache_in);
  }
  IvectorTables no_ivectors;
  InferenceReader reader(feature_rspecifier, &no_ivectors, 0);
  BaseFloatVectorWriter writer(vector_wspecifier);
  const int32_t input_dim = nnet.InputDim("input");
  std::mutex mutex;  // guards `pending_weights`
  std::deque<std::vector<float>> pending_weights;
  int64_t num_fail = 0, num_success = 0, num_frames = 0;
  std::vector<NnetInferenceTask> tasks;
  std::vector<float> weights;
  auto read = [&] {
    while (reader.Next()) {
      const std::string &key = reader.Key();
      const Matrix &features = reader.Features();
      if (features.NumCols() != input_dim) {
        NNET3_WARN << "Utterance '" << key << "': the features have "
                   << "dimension " << features.NumCols() << " but the "
                   << "network's 'input' needs dimension " << input_dim
                   << "; skipping it";
        num_fail++;
        continue;
      }
      if (!SplitUtteranceForXvector(opts, key, features, &tasks, &weights)) {
        num_fail++;
        continue;
      }
      const int32_t num_chunks = static_cast<int32_t>(tasks.size());
      {
        std::lock_guard<std::mutex> lock(mutex);
        pending_weights.push_back(std::move(weights));
      }
      inference.AcceptTasks(key, std::move(tasks), num_chunks,
                            features.NumRows());
    }
    reader.Close();
  };
  auto write = [&](const std::string &key, Matrix *chunks, int64_t frames) {
    std::vector<float> w;
    {
      std::lock_guard<std::mutex> lock(mutex);
      w = std::move(pending_weights.front());
      pending_weights.pop_front();
    }
    Vector xvector;
    AverageXvector(*chunks, w, &xvector);
    writer.Write(key, xvector);
    num_success++;
    num_frames += frames;
  };
  RunBatchPipeline(&inference, read, write);
  writer.Close();
  const double seconds = timer.Elapsed();
  if (!cache_out.empty()) {
    NNET3_LOG << "Writing cache to " << cache_out;
    computer.Compiler().WriteCacheFile(cache_out, true);
  }
  ReportInference(seconds, num_success, num_fail + reader.NumFailed(),
                  num_frames, feature_rspecifier);
}

}  // namespace nnet3
