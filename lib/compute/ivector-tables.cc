#include "compute/ivector-tables.h"

#include <istream>
#include <ostream>

#include "base/error.h"
#include "base/text-utils.h"
#include "base/log.h"
#include "base/options.h"
#include "util/table-types.h"

namespace nnet3 {
namespace {

// One token per key, as in utt2spk files (util has no token holder yet).
class TokenHolder {
 public:
  using T = std::string;
  static void Write(std::ostream &os, bool, const T &t) { os << t << '\n'; }
  // A line holding one token, in either mode (Kaldi writes tokens as text).
  void Read(std::istream &is, bool /*binary*/) {
    std::string line;
    std::getline(is, line);
    t_ = Trim(line);
    if (!IsToken(t_))
      NNET3_ERR << "Expected one token on the line, but found '" << line
                << "'";
  }
  T &Value() { return t_; }
  void Clear() { t_.clear(); }
  void Swap(TokenHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    NNET3_ERR << "A range [" << range << "] makes no sense for a token";
  }

 private:
  T t_;
};

}  // namespace

struct IvectorTables::Readers {
  RandomAccessBaseFloatVectorReader ivectors;
  RandomAccessTableReader<TokenHolder> utt2spk;
  RandomAccessBaseFloatMatrixReader online_ivectors;
};

IvectorTables::IvectorTables() : readers_(new Readers) {}
IvectorTables::~IvectorTables() = default;

void IvectorTables::Register(OptionsRegistry *po) {
  po->Register("ivectors", &ivector_rspecifier_,
               "Rspecifier for iVectors as vectors (i.e. not estimated "
               "online); per utterance by default, or per speaker if you "
               "provide the --utt2spk option.");
  po->Register("utt2spk", &utt2spk_rspecifier_,
               "Rspecifier for utt2spk option used to get ivectors per "
               "speaker");
  po->Register("online-ivectors", &online_ivector_rspecifier_,
               "Rspecifier for iVectors estimated online, as matrices.  If "
               "you supply this, you must set the --online-ivector-period "
               "option.");
  po->Register("online-ivector-period", &online_ivector_period_,
               "Number of frames between iVectors in matrices supplied to "
               "the --online-ivectors option");
}

void IvectorTables::Open(int32_t network_ivector_dim) {
  const bool has_ivectors = !ivector_rspecifier_.empty(),
             has_online = !online_ivector_rspecifier_.empty();
  if (network_ivector_dim > 0 && !has_ivectors && !has_online)
    NNET3_ERR << "The network has an 'ivector' input (dimension "
              << network_ivector_dim << "): give i-vectors with --ivectors "
              << "or --online-ivectors";
  if (network_ivector_dim == 0 && (has_ivectors || has_online))
    NNET3_ERR << "--ivectors or --online-ivectors was given, but the network "
              << "has no 'ivector' input";
  if (has_ivectors && has_online)
    NNET3_ERR << "Give only one of --ivectors and --online-ivectors";
  if (!utt2spk_rspecifier_.empty() && !has_ivectors)
    NNET3_ERR << "--utt2spk is used only with --ivectors";
  if (has_online && online_ivector_period_ <= 0)
    NNET3_ERR << "--online-ivectors needs --online-ivector-period > 0 (got "
              << online_ivector_period_ << ")";
  if (has_ivectors) readers_->ivectors.Open(ivector_rspecifier_);
  if (!utt2spk_rspecifier_.empty()) readers_->utt2spk.Open(utt2spk_rspecifier_);
  if (has_online) readers_->online_ivectors.Open(online_ivector_rspecifier_);
}

bool IvectorTables::Lookup(const std::string &utterance, const Vector **ivector,
                           const Matrix **online_ivectors) {
  *ivector = nullptr;
  *online_ivectors = nullptr;
  if (readers_->ivectors.IsOpen()) {
    std::string key = utterance;
    if (readers_->utt2spk.IsOpen()) {
      if (!readers_->utt2spk.HasKey(utterance)) {
        NNET3_WARN << "No speaker for utterance " << utterance
                   << " in --utt2spk=" << utt2spk_rspecifier_;
        return false;
      }
      key = readers_->utt2spk.Value(utterance);
    }
    if (!readers_->ivectors.HasKey(key)) {
      NNET3_WARN << "No iVector available for utterance " << utterance;
      return false;
    }
    *ivector = &readers_->ivectors.Value(key);
  }
  if (readers_->online_ivectors.IsOpen()) {
    if (!readers_->online_ivectors.HasKey(utterance)) {
      NNET3_WARN << "No online iVector available for utterance " << utterance;
      return false;
    }
    *online_ivectors = &readers_->online_ivectors.Value(utterance);
  }
  return true;
}

}  // namespace nnet3
