#include "compute/batch-inference-loop.h"

#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/timer.h"

namespace nnet3 {
namespace {

// The reader's loop (on the calling thread); returns the utterances that
// failed here (bad dimensions and the like), warning about each.
int64_t ReadInputs(InferenceReader *reader, NnetBatchInference *inference) {
  int64_t num_fail = 0;
  std::vector<NnetInferenceTask> tasks;
  const int32_t f = inference->Computer().Options().frame_subsampling_factor;
  while (reader->Next()) {
    const std::string &key = reader->Key();
    const Matrix &features = reader->Features();
    try {
      inference->Computer().SplitUtteranceIntoTasks(
          key, features, reader->Ivector(), reader->OnlineIvectors(),
          reader->OnlineIvectorPeriod(), &tasks);
    } catch (const UserError &e) {
      NNET3_WARN << e.what() << "; skipping it";
      num_fail++;
      continue;
    }
    inference->AcceptTasks(key, std::move(tasks),
                           (features.NumRows() + f - 1) / f,
                           features.NumRows());
    tasks.clear();
  }
  return num_fail;
}

}  // namespace

void RunBatchPipeline(
    NnetBatchInference *inference, const std::function<void()> &read,
    const std::function<void(const std::string &key, Matrix *output,
                             int64_t num_input_frames)> &write) {
  std::exception_ptr writer_error;
  std::thread writer([&] {
    try {
      std::string key;
      Matrix output;
      int64_t num_frames = 0;
      while (inference->GetOutput(&key, &output, &num_frames))
        write(key, &output, num_frames);
    } catch (...) {
      writer_error = std::current_exception();
      inference->Abort(writer_error);
    }
  });
  try {
    read();
    inference->Finished();
  } catch (...) {
    inference->Abort(std::current_exception());
    writer.join();
    throw;
  }
  writer.join();
  if (writer_error) std::rethrow_exception(writer_error);
}

void ComputeUtterancesBatched(const NnetBatchComputerOptions &opts,
                              const Nnet &nnet, const VectorView &log_priors,
                              IvectorTables *ivectors,
                              const InferenceOutputOptions &output_opts,
                              const std::string &feature_rspecifier,
                              const std::string &matrix_wspecifier) {
  Timer timer;
  NnetBatchInference inference(opts, nnet, log_priors);
  InferenceReader reader(feature_rspecifier, ivectors,
                         inference.Computer().IvectorDim());
  InferenceWriter writer(matrix_wspecifier, output_opts);
  int64_t num_fail = 0;
  RunBatchPipeline(
      &inference,
      [&] {
        num_fail = ReadInputs(&reader, &inference);
        reader.Close();
      },
      [&](const std::string &key, Matrix *output, int64_t num_frames) {
        writer.Write(key, num_frames, output);
      });
  writer.Close();
  const double seconds = timer.Elapsed();
  NNET3_LOG << "Computed " << writer.NumFrames() << " input frames in "
            << seconds << " seconds: "
            << (seconds > 0 ? writer.NumFrames() / seconds : 0.0)
            << " frames per second";
  ReportInference(seconds, writer.NumWritten(), num_fail + reader.NumFailed(),
                  writer.NumFrames(), feature_rspecifier);
}

}  // namespace nnet3
