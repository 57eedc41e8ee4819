// Captures what OpenFst prints on std::cerr ("ERROR: VectorFst::Read: ...")
// while one of its calls runs, so that our one-line UserError can carry
// OpenFst's reason instead of OpenFst printing a second error line.
//
//   std::string openfst_says;
//   {
//     OpenFstLogCapture capture(&openfst_says);
//     fst.reset(fst::VectorFst<Arc>::Read(is, opts));
//   }
//   if (!fst) NNET3_ERR << "... " << openfst_says;
//
// Captures are serialised by a mutex; anything else written to std::cerr
// meanwhile is captured too (our own logs go through spdlog to stderr,
// not std::cerr, and are not affected).
#ifndef NNET3_FSTEXT_OPENFST_LOG_H_
#define NNET3_FSTEXT_OPENFST_LOG_H_

#include <mutex>
#include <sstream>
#include <streambuf>
#include <string>

namespace nnet3 {

class OpenFstLogCapture {
 public:
  // On destruction, *text receives the captured lines joined by "; ",
  // without OpenFst's "ERROR: " prefixes.
  explicit OpenFstLogCapture(std::string *text);
  ~OpenFstLogCapture();
  OpenFstLogCapture(const OpenFstLogCapture &) = delete;
  OpenFstLogCapture &operator=(const OpenFstLogCapture &) = delete;

 private:
  std::unique_lock<std::mutex> lock_;
  std::ostringstream buffer_;
  std::streambuf *saved_;
  std::string *text_;
};

}  // namespace nnet3

#endif  // NNET3_FSTEXT_OPENFST_LOG_H_
