// Lists of integers in plain text files, as Kaldi's scripts pass them to
// programs (phones/disambig.int, disambig_tid.int, disambig_ilabels.int):
// white-space separated integers and nothing else, no "\0B" header.
//
//   std::vector<int32_t> disambig;
//   ReadIntegerVectorSimple("data/lang/phones/disambig.int",
//                           "disambiguation symbols", &disambig);
//   WriteIntegerVectorSimple("-", disambig);   // one integer per line
//
// Any rxfilename or wxfilename works ("-", pipes). Reading throws a one-line
// UserError naming the file and the first word that is not an integer;
// writing throws on a write error.
#ifndef NNET3_UTIL_SIMPLE_IO_FUNCS_H_
#define NNET3_UTIL_SIMPLE_IO_FUNCS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace nnet3 {

// Replaces *list with the integers in `rxfilename`; `what` names the list
// in messages ("disambiguation symbols").
void ReadIntegerVectorSimple(const std::string &rxfilename,
                             const std::string &what,
                             std::vector<int32_t> *list);

// Writes one integer per line.
void WriteIntegerVectorSimple(const std::string &wxfilename,
                              const std::vector<int32_t> &list);

}  // namespace nnet3

#endif  // NNET3_UTIL_SIMPLE_IO_FUNCS_H_
