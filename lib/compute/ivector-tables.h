// The i-vector inputs of the inference programs (nnet3-compute): the
// options --ivectors (one vector per utterance, or per speaker with
// --utt2spk) and --online-ivectors with --online-ivector-period (a matrix
// per utterance, one row every period frames), and their table readers.
//
//   IvectorTables ivectors;  ivectors.Register(&po);  po.Read(argc, argv);
//   ivectors.Open(computer.IvectorDim());
//   const Vector *ivector;  const Matrix *online;
//   if (!ivectors.Lookup(utt, &ivector, &online)) { num_fail++; continue; }
//   computer.ComputeUtterance(utt, feats, ivector, online,
//                             ivectors.OnlinePeriod(), &output);
//
// Open checks the options against the network (UserError when it needs
// i-vectors and none are given, when both kinds are given, ...); Lookup
// warns, as Kaldi does, when the tables lack an utterance.
#ifndef NNET3_COMPUTE_IVECTOR_TABLES_H_
#define NNET3_COMPUTE_IVECTOR_TABLES_H_

#include <cstdint>
#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

class OptionsRegistry;

class IvectorTables {
 public:
  IvectorTables();
  ~IvectorTables();
  IvectorTables(const IvectorTables &) = delete;
  IvectorTables &operator=(const IvectorTables &) = delete;

  void Register(OptionsRegistry *po);
  // Opens the tables named by the options. `network_ivector_dim` is the
  // dimension of the network's "ivector" input (0 if none).
  void Open(int32_t network_ivector_dim);
  // Sets *ivector or *online_ivectors (or neither, if no table is given)
  // for `utterance`; the pointers are valid until the next Lookup. Returns
  // false, with a warning, if a table (or utt2spk) lacks the utterance.
  bool Lookup(const std::string &utterance, const Vector **ivector,
              const Matrix **online_ivectors);
  int32_t OnlinePeriod() const { return online_ivector_period_; }

 private:
  struct Readers;
  std::string ivector_rspecifier_, utt2spk_rspecifier_,
      online_ivector_rspecifier_;
  int32_t online_ivector_period_ = 0;
  std::unique_ptr<Readers> readers_;
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_IVECTOR_TABLES_H_
