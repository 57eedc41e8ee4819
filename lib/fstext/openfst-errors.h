// OpenFst's errors as our UserErrors. By default (FLAGS_fst_error_fatal)
// an OpenFst algorithm that meets input it cannot handle prints "FATAL:"
// and exits the process; a program that runs OpenFst algorithms calls
// MakeOpenFstErrorsNonFatal() first, so that OpenFst instead marks its
// result with the kError property, and then checks every result:
//
//   MakeOpenFstErrorsNonFatal();              // once, at the start of main
//   fst::Connect(&fst);
//   CheckFstNoError(fst, "connecting 'LG.fst'");   // UserError if kError
//
// What OpenFst printed meanwhile stays on stderr (as an "ERROR:" line);
// our message says which step failed.
#ifndef NNET3_FSTEXT_OPENFST_ERRORS_H_
#define NNET3_FSTEXT_OPENFST_ERRORS_H_

#include <fst/fst.h>

#include <string>

#include "base/error.h"

namespace nnet3 {

void MakeOpenFstErrorsNonFatal();

// UserError "OpenFst failed while <what>" when `fst` has the kError property.
template <class Arc>
void CheckFstNoError(const fst::Fst<Arc> &fst, const std::string &what) {
  if (fst.Properties(fst::kError, false) & fst::kError)
    NNET3_ERR << "OpenFst failed while " << what
              << " (see OpenFst's message above)";
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_OPENFST_ERRORS_H_
