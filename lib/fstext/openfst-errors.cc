#include "fstext/openfst-errors.h"

#include <fst/util.h>

namespace nnet3 {

void MakeOpenFstErrorsNonFatal() { FLAGS_fst_error_fatal = false; }

}  // namespace nnet3
