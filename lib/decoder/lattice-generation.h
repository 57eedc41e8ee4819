// The utterance loop of nnet3-latgen-faster, -parallel and -looped: read
// features (and i-vectors), run the network, decode against one graph or a
// graph per utterance, write lattices, words and alignments, and report.
//
//   LatgenOptions opts;  opts.Register(&po);      // decoder, det, outputs
//   IvectorTables ivectors;  ivectors.Register(&po);
//   po.Read(argc, argv);
//   LatgenModel model{"final.mdl", trans_model, log_priors, scale, fss,
//                     [&]() { return NewDecodingComputer(...); }};
//   int64_t ok = GenerateLattices(opts, model, &ivectors, fst_in,
//                                 features, lattices, words, alignments);
//   return ok > 0 ? 0 : 1;
//
// `fst_in` is a graph file (read once: ConstFst or VectorFst, Kaldi's
// forms) or an rspecifier of graphs, one per utterance, whose features are
// then looked up by key. An utterance without features, with no frames or
// without its i-vectors is warned about and counted as failed (Kaldi's
// behaviour); bad input that Kaldi would crash on (wrong feature
// dimension, a graph with transition-ids the model lacks) is a UserError.
// With num_threads > 1 the utterances are decoded side by side, each with a
// new decoder as in Kaldi's -parallel program, on a network computer per
// thread, and written in input order. At --verbose=1 each utterance's
// network and search times are logged, and their totals at the end.
#ifndef NNET3_DECODER_LATTICE_GENERATION_H_
#define NNET3_DECODER_LATTICE_GENERATION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "compute/ivector-tables.h"
#include "compute/utterance-computer.h"
#include "decoder/decode-utterance.h"
#include "hmm/transition-model.h"
#include "matrix/vector.h"

namespace nnet3 {

class OptionsRegistry;

struct LatgenOptions {
  DecodeUtteranceOptions decode;
  // Registered only by the -parallel program (with --num-threads-total).
  int32_t num_threads = 1;
  int32_t num_threads_total = 0;

  // DecodeUtteranceOptions' options.
  void Register(OptionsRegistry *po);
  // --num-threads and --num-threads-total, Kaldi's TaskSequencerConfig.
  void RegisterThreads(OptionsRegistry *po);
};

// What the utterances share: the model's transition model and log-priors,
// the decodable's acoustic scale and frame-subsampling factor, and a way
// to make a network computer (unscaled; one per decoding thread).
struct LatgenModel {
  std::string model_rxfilename;  // names the model in errors
  const TransitionModel &trans_model;
  const VectorView &log_priors;
  float acoustic_scale;
  int32_t frame_subsampling_factor;
  std::function<std::unique_ptr<UtteranceComputer>()> new_computer;
};

// Returns the number of utterances decoded (see the file comment); after
// the summary lines, a UserError if there were none.
int64_t GenerateLattices(const LatgenOptions &opts, const LatgenModel &model,
                         IvectorTables *ivectors, const std::string &fst_in,
                         const std::string &feature_rspecifier,
                         const std::string &lattice_wspecifier,
                         const std::string &words_wspecifier,
                         const std::string &alignments_wspecifier);

}  // namespace nnet3

#endif  // NNET3_DECODER_LATTICE_GENERATION_H_
