// The loop of nnet3-latgen-faster-batch: the acoustic model computed in
// minibatches on one thread (NnetBatchInference, CPU or GPU), the graph
// search of each utterance on a pool of search threads as soon as its
// scores are complete, lattices written in input order (Kaldi's
// NnetBatchDecoder, nnet3/nnet-batch-compute.h).
//
//   BatchLatgenOptions opts;  opts.Register(&po);  // decoder, det, batch
//   IvectorTables ivectors;   ivectors.Register(&po);
//   po.Read(argc, argv);
//   BatchLatgenModel model{"final.mdl", trans_model, am_nnet.GetNnet(),
//                          log_priors};
//   int64_t ok = GenerateLatticesBatched(opts, model, &ivectors, fst_in,
//                                        features, lattices, words, alis);
//   return ok > 0 ? 0 : 1;
//
// Threads: the caller reads features (and i-vectors and graphs) and splits
// each utterance into chunks for the model thread; a dispatcher thread takes
// the utterances' scores in input order and gives each to the next free
// search thread, which decodes it with its LatticeFasterDecoder (kept
// while the graph stays the same) and determinizes its lattice; the dispatcher
// writes the results in input order. The scores are those of
// DecodableAmNnetSimple up to Kaldi's batch chunking rule (the last chunk moved
// back to end on the last frame, where nnet3-latgen-faster computes a shorter
// one): for a network without recurrence they differ only in the products'
// rounding of that chunk, so the lattices are those of nnet3-latgen-faster with
// the same options up to a last-bit difference in a few costs, and
// byte-identical with whole-utterance chunks. They do not depend on the number
// of threads, nor (on the CPU, as measured) on the minibatch sizes.
//
// Memory is bounded whatever the archive: at most --max-utterances-in-
// flight (plus a minibatch of one-chunk ones) utterances between reading
// and searching, and at most --max-lattices-waiting utterances searching
// or waiting to be written.
//
// `fst_in` is a graph file (read once) or an rspecifier of graphs looked
// up by utterance (our addition: Kaldi's program takes one graph); an
// utterance that has no graph, no frames, no i-vectors, or features or
// i-vectors that do not fit the network is warned about, naming it, and
// counted as failed; the others are decoded. A graph with transition-ids
// the model lacks is a UserError. At the end, Kaldi's three summary lines
// ("Overall likelihood per frame was ...", "Time taken ...  (per thread;
// with N threads).", "Done N utterances (P forced out); failed for M")
// and a line of ours saying where the time went (also, every
// --log-interval seconds, a progress line: utterances and frames written,
// frames per second, the acoustic model's busy share so far): the acoustic
// model's busy share, each search thread's, reading input, the search waiting
// for scores and writing output, all as shares of the wall time. Returns the
// number of utterances decoded; a UserError after the summary if none.
#ifndef NNET3_DECODER_BATCH_LATTICE_GENERATION_H_
#define NNET3_DECODER_BATCH_LATTICE_GENERATION_H_

#include <cstdint>
#include <string>

#include "compute/ivector-tables.h"
#include "compute/nnet-batch-tasks.h"
#include "decoder/decode-utterance.h"
#include "hmm/transition-model.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

struct BatchLatgenOptions {
  DecodeUtteranceOptions decode;
  NnetBatchComputerOptions compute;
  int32_t num_threads = 1;  // search threads
  // Utterances given to the search threads and not yet written; 0 means
  // --num-threads plus 20; at least --num-threads.
  int32_t max_lattices_waiting = 0;
  // Seconds between progress lines (0: none).
  float log_interval = 60.0f;

  // The decoder's, determinization's and batch computation's options,
  // --word-symbol-table, --allow-partial, --num-threads and
  // --max-lattices-waiting and --log-interval.
  void Register(OptionsRegistry *po);
};

// The model: its transition model, its network (simple, in test mode and
// collapsed: ReadAmNnetForDecoding) and its log-priors (may be empty).
struct BatchLatgenModel {
  std::string model_rxfilename;  // names the model in errors
  const TransitionModel &trans_model;
  const Nnet &nnet;
  const VectorView &log_priors;
};

int64_t GenerateLatticesBatched(const BatchLatgenOptions &opts,
                                const BatchLatgenModel &model,
                                IvectorTables *ivectors,
                                const std::string &fst_in,
                                const std::string &feature_rspecifier,
                                const std::string &lattice_wspecifier,
                                const std::string &words_wspecifier,
                                const std::string &alignments_wspecifier);

}  // namespace nnet3

#endif  // NNET3_DECODER_BATCH_LATTICE_GENERATION_H_
