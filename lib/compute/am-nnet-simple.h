// The acoustic-model wrapper (Kaldi's AmNnetSimple): a Kaldi nnet3 acoustic
// model file (.mdl) is a TransitionModel followed by an AmNnetSimple, i.e.
// the raw Nnet, <LeftContext> i <RightContext> i and <Priors> vector (no
// wrapper token). The priors (empty, or one per pdf) are the average
// posteriors that --use-priors divides the network's outputs by.
//
//   TransitionModel trans_model;
//   AmNnetSimple am_nnet;
//   ReadAmNnet("final.mdl", &trans_model, &am_nnet);   // UserError if bad
//   am_nnet.SetPriors(priors);
//   WriteAmNnet(trans_model, am_nnet, "final.mdl", binary);
//
//   Nnet nnet;
//   ReadNnetFromRawOrAm("final.mdl", &nnet);   // a .raw, or a .mdl's nnet
//
// As Kaldi's Nnet::Read, every program that takes a raw network accepts a
// .mdl and uses its network. nnet3-compute / nnet3-compute-batch with
// --use-priors read the priors too (ReadNnetAndLogPriors) and subtract
// them from the log-probabilities they compute (SubtractLogPriors).
#ifndef NNET3_COMPUTE_AM_NNET_SIMPLE_H_
#define NNET3_COMPUTE_AM_NNET_SIMPLE_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"
#include "hmm/transition-model.h"

namespace nnet3 {

class AmNnetSimple {
 public:
  AmNnetSimple();
  // Takes a copy of nnet (which must be a simple nnet: an "input" and an
  // "output" with a finite context); no priors.
  explicit AmNnetSimple(const Nnet &nnet);

  // Reads the Nnet then the trailer; the context is recomputed from the
  // nnet (as Kaldi, which does not trust the written one). UserError if
  // the nnet is not simple or the priors' dimension is neither 0 nor the
  // output dimension.
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

  const Nnet &GetNnet() const { return nnet_; }
  Nnet &GetNnet() { return nnet_; }
  // Replaces the nnet; drops the priors (with a warning) if their
  // dimension no longer matches.
  void SetNnet(const Nnet &nnet);
  // Recomputes the context after the nnet was changed in place.
  void SetContext();
  const Vector &Priors() const { return priors_; }
  // UserError unless priors is empty or has the output dimension.
  void SetPriors(const VectorView &priors);
  int32_t NumPdfs() const;
  int32_t LeftContext() const { return left_context_; }
  int32_t RightContext() const { return right_context_; }
  // Kaldi's Info(): input-dim, ivector-dim, num-pdfs, prior-dimension
  // [prior-sum, prior-min, prior-max], "# Nnet info follows.", then what
  // nnet3-info prints (Kaldi's Nnet::Info: left-context, right-context,
  // ...).
  std::string Info() const;

 private:
  Nnet nnet_;
  int32_t left_context_ = 0;
  int32_t right_context_ = 0;
  Vector priors_;  // host
};

// Reads a whole .mdl (UserError naming the file if it is not one).
void ReadAmNnet(const std::string &rxfilename, TransitionModel *trans_model,
                AmNnetSimple *am_nnet);
// Writes a .mdl (atomically, as every model writer).
void WriteAmNnet(const TransitionModel &trans_model,
                 const AmNnetSimple &am_nnet, const std::string &wxfilename,
                 bool binary);
// Reads just the transition model at the front of a Kaldi model file (an
// nnet3 or GMM .mdl, or a bare transition model); the rest is ignored.
void ReadTransitionModel(const std::string &rxfilename,
                         TransitionModel *trans_model);
// True if the stream's next token is <TransitionModel> (Kaldi peeks 'T').
bool IsAcousticModel(std::istream &is, bool binary);

// Reads a raw nnet, or the nnet of a .mdl (Kaldi's Nnet::Read accepts
// both).
void ReadNnetFromRawOrAm(const std::string &rxfilename, Nnet *nnet);

// nnet3-am-adjust-priors: the priors become posterior_sum normalized to sum
// to one (UserError unless its sum is positive and its dimension is the
// model's number of pdfs), after logging, as Kaldi, the largest change and
// the K-L divergence from the old priors (or that there were none).
void AdjustPriors(const VectorView &posterior_sum, AmNnetSimple *am_nnet);

// For --use-priors (nnet3-compute, nnet3-compute-batch): with use_priors,
// reads a .mdl (UserError naming the file if it is a raw nnet) and sets
// *log_priors to the log of its priors (empty, with a warning, when the
// model has none; no floor: as Kaldi, a zero prior gives +inf outputs);
// else reads a raw nnet or a .mdl's nnet and empties *log_priors.
void ReadNnetAndLogPriors(const std::string &rxfilename, bool use_priors,
                          Nnet *nnet, Vector *log_priors);
// output(t, i) -= acoustic_scale * log_priors(i) for every row, where
// output holds acoustic_scale times the log-probabilities: Kaldi's
// (log-prob - log-prior) * acoustic_scale. Nothing if log_priors is empty;
// UserError if its dimension differs from output's columns.
void SubtractLogPriors(const VectorView &log_priors, float acoustic_scale,
                       MatrixView *output);

}  // namespace nnet3

#endif  // NNET3_COMPUTE_AM_NNET_SIMPLE_H_
