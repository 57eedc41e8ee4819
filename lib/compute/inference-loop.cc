#include "compute/inference-loop.h"

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/timer.h"
#include "util/table-types.h"

namespace nnet3 {

void InferenceOutputOptions::Register(OptionsRegistry *po) {
  po->Register("apply-exp", &apply_exp,
               "If true, apply exp function to output");
}

struct InferenceReader::Tables {
  SequentialBaseFloatMatrixReader features;
};

InferenceReader::InferenceReader(const std::string &feature_rspecifier,
                                 IvectorTables *ivectors,
                                 int32_t network_ivector_dim)
    : tables_(new Tables), ivectors_(ivectors) {
  ivectors_->Open(network_ivector_dim);
  tables_->features.Open(feature_rspecifier);
}

InferenceReader::~InferenceReader() = default;

bool InferenceReader::Next() {
  SequentialBaseFloatMatrixReader &features = tables_->features;
  if (started_ && !features.Done()) features.Next();
  started_ = true;
  for (; !features.Done(); features.Next()) {
    const std::string &utt = features.Key();
    if (features.Value().NumRows() == 0) {
      NNET3_WARN << "Zero-length utterance '" << utt << "' (0 frames; at "
                 << "least 1 is needed)";
      num_failed_++;
      continue;
    }
    if (!ivectors_->Lookup(utt, &ivector_, &online_ivectors_)) {
      num_failed_++;
      continue;
    }
    return true;
  }
  return false;
}

const std::string &InferenceReader::Key() const {
  return tables_->features.Key();
}

const Matrix &InferenceReader::Features() const {
  return tables_->features.Value();
}

int32_t InferenceReader::OnlineIvectorPeriod() const {
  return ivectors_->OnlinePeriod();
}

void InferenceReader::Close() { tables_->features.Close(); }

struct InferenceWriter::Table {
  BaseFloatMatrixWriter writer;
};

InferenceWriter::InferenceWriter(const std::string &matrix_wspecifier,
                                 const InferenceOutputOptions &opts)
    : table_(new Table), opts_(opts) {
  table_->writer.Open(matrix_wspecifier);
}

InferenceWriter::~InferenceWriter() = default;

void InferenceWriter::Write(const std::string &key, int64_t num_input_frames,
                            Matrix *output) {
  if (opts_.apply_exp) output->ApplyFunc(Func::kExp);
  table_->writer.Write(key, *output);
  num_written_++;
  num_frames_ += num_input_frames;
}

void InferenceWriter::Close() { table_->writer.Close(); }

void ReportInference(double seconds, int64_t num_success, int64_t num_fail,
                     int64_t num_frames,
                     const std::string &feature_rspecifier) {
  NNET3_LOG << "Time taken " << seconds
            << "s: real-time factor assuming 100 frames/sec is "
            << (num_frames > 0 ? seconds * 100.0 / num_frames : 0.0);
  NNET3_LOG << "Done " << num_success << " utterances, failed for " << num_fail;
  if (num_success == 0)
    NNET3_ERR << "No utterance succeeded (" << num_fail << " failed) from '"
              << feature_rspecifier << "'";
}

void ComputeUtterances(UtteranceComputer *computer, IvectorTables *ivectors,
                       const InferenceOutputOptions &opts,
                       const std::string &feature_rspecifier,
                       const std::string &matrix_wspecifier,
                       const VectorView *log_priors, float acoustic_scale) {
  if (log_priors != nullptr && log_priors->Dim() == 0) log_priors = nullptr;
  Timer timer;
  InferenceReader reader(feature_rspecifier, ivectors, computer->IvectorDim());
  InferenceWriter writer(matrix_wspecifier, opts);
  Matrix output;
  while (reader.Next()) {
    computer->ComputeUtterance(reader.Key(), reader.Features(),
                               reader.Ivector(), reader.OnlineIvectors(),
                               reader.OnlineIvectorPeriod(), &output);
    if (log_priors != nullptr) {
      if (log_priors->Dim() != output.NumCols())
        NNET3_ERR << "The priors have dimension " << log_priors->Dim()
                  << " but the network's output has " << output.NumCols()
                  << " columns";
      output.AddVecToRows(-acoustic_scale, *log_priors);
    }
    writer.Write(reader.Key(), reader.Features().NumRows(), &output);
  }
  reader.Close();
  writer.Close();
  ReportInference(timer.Elapsed(), writer.NumWritten(), reader.NumFailed(),
                  writer.NumFrames(), feature_rspecifier);
}

}  // namespace nnet3
