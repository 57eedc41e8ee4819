// What `nnet3-compile-info --looped` shows: the looped computation that
// looped inference (compute/decodable-simple-looped.h) runs for a simple
// network, with its loop. The chunk is --frames output frames (rounded up
// to a multiple of the network's modulus), the first chunk's extra left
// context is --extra-left-context; a network with an "ivector" input reads
// one i-vector per chunk (ModifyNnetIvectorPeriod), as in looped inference.
//
//   PrintLoopedCompileInfo(nnet, opts, optimize_opts, show, std::cout);
//
// Text only, in sections: "# requests" (the three chunk requests), "#
// computation" (the listing, ending in the goto), "# loop" (label and goto
// command, commands per chunk, matrices carried from chunk to chunk) and "#
// stats" (commands by type, matrices, memory, seconds), as selected by
// --show (request, computation, stats; the loop is shown with either of
// the last two). UserError for options this mode does not support.
#ifndef NNET3_OPTIMIZE_LOOPED_COMPILE_INFO_H_
#define NNET3_OPTIMIZE_LOOPED_COMPILE_INFO_H_

#include <ostream>

#include "compile/compile-info.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

void PrintLoopedCompileInfo(const Nnet &nnet, const CompileInfoOptions &opts,
                            const NnetOptimizeOptions &optimize_opts,
                            const CompileInfoShow &show, std::ostream &os);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_LOOPED_COMPILE_INFO_H_
