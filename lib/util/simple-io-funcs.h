// Lists of integers in plain text files, the way Kaldi's scripts hand them
// to programs (phones/disambig.int, oov.int, disambig_tid.int): whitespace-
// separated integers, any number per line, nothing else.
//
//   std::vector<int32_t> disambig;
//   ReadIntegerVectorSimple("data/lang/phones/disambig.int", &disambig);
//   WriteIntegerVectorSimple("-", disambig);   // one integer per line
//
// Any rxfilename/wxfilename works ("-", pipes). Reading throws a one-line
// UserError naming the file and the first token that is not an integer.
#ifndef NNET3_UTIL_SIMPLE_IO_FUNCS_H_
#define NNET3_UTIL_SIMPLE_IO_FUNCS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace nnet3 {

// Replaces *list with the integers in `rxfilename`. `what` names the list in
// the message ("disambiguation symbols").
void ReadIntegerVectorSimple(const std::string &rxfilename,
                             const std::string &what,
                             std::vector<int32_t> *list);

// Writes one integer per line.
void WriteIntegerVectorSimple(const std::string &wxfilename,
                              const std::vector<int32_t> &list);

}  // namespace nnet3

#endif  // NNET3_UTIL_SIMPLE_IO_FUNCS_H_
