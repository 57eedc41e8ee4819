// Small hand-made inputs for the tests of lib/hmm, whose results are worked
// out by hand in the tests:
//
//   TwoPhoneTopology():  phone 1: states 0 (pdf-class 0; self-loop 0.5,
//                        to 1 0.25, to 2 0.25), 1 (pdf-class 1; self-loop
//                        0.5, to 2 0.5), 2 final; phone 2: state 0
//                        (pdf-class 0; self-loop 0.6, to 1 0.4), 1 final.
//   MonophoneTree():     N=1, P=0: phone 1 -> pdfs 0 (class 0), 1 (class 1);
//                        phone 2 -> pdf 2.
//   LeftBiphoneTree():   N=2, P=1: phone 1 after nothing (0) -> pdfs 0, 1;
//                        phone 1 after a phone -> 2, 3; phone 2 -> 4.
//   ReadGolden(name):    a file of tests/data/hmm.
#ifndef NNET3_TESTS_UNIT_HMM_HMM_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_HMM_HMM_TEST_UTILS_H_

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/io-funcs.h"
#include "hmm/context-dependency.h"
#include "hmm/hmm-topology.h"

namespace nnet3 {
namespace testing {

inline HmmTopology TwoPhoneTopology() {
  std::istringstream is(
      "<Topology>\n"
      "<TopologyEntry> <ForPhones> 1 </ForPhones>\n"
      "<State> 0 <PdfClass> 0 <Transition> 0 0.5 <Transition> 1 0.25 "
      "<Transition> 2 0.25 </State>\n"
      "<State> 1 <PdfClass> 1 <Transition> 1 0.5 <Transition> 2 0.5 "
      "</State>\n"
      "<State> 2 </State>\n"
      "</TopologyEntry>\n"
      "<TopologyEntry> <ForPhones> 2 </ForPhones>\n"
      "<State> 0 <PdfClass> 0 <Transition> 0 0.6 <Transition> 1 0.4 "
      "</State>\n"
      "<State> 1 </State>\n"
      "</TopologyEntry>\n"
      "</Topology>\n");
  HmmTopology topo;
  topo.Read(is, false);
  return topo;
}

// A table on the pdf-class with one constant per class.
inline std::unique_ptr<EventMap> PdfClassTable(
    const std::vector<int32_t> &pdfs) {
  std::vector<std::unique_ptr<EventMap>> table;
  for (int32_t pdf : pdfs)
    table.push_back(std::make_unique<ConstantEventMap>(pdf));
  return std::make_unique<TableEventMap>(kPdfClass, std::move(table));
}

inline ContextDependency MonophoneTree() {
  std::vector<std::unique_ptr<EventMap>> by_phone;
  by_phone.push_back(nullptr);  // phone 0
  by_phone.push_back(PdfClassTable({0, 1}));
  by_phone.push_back(PdfClassTable({2}));
  return ContextDependency(
      1, 0, std::make_unique<TableEventMap>(0, std::move(by_phone)));
}

inline ContextDependency LeftBiphoneTree() {
  auto phone1 = std::make_unique<SplitEventMap>(
      0, std::vector<EventValueType>{0}, PdfClassTable({0, 1}),
      PdfClassTable({2, 3}));
  auto root = std::make_unique<SplitEventMap>(
      1, std::vector<EventValueType>{1}, std::move(phone1), PdfClassTable({4}));
  return ContextDependency(2, 1, std::move(root));
}

inline std::string ReadGolden(const std::string &name) {
  std::ifstream is(std::string(NNET3_TEST_DATA) + "/hmm/" + name,
                   std::ios::binary);
  if (!is.good()) throw std::runtime_error("cannot open golden file " + name);
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

// Reads a Kaldi object from `bytes` ("\0B" header: binary).
template <class T>
void ReadFromBytes(const std::string &bytes, T *obj) {
  std::istringstream is(bytes);
  bool binary = false;
  if (!InitKaldiInputStream(is, &binary)) NNET3_ERR << "bad binary header";
  obj->Read(is, binary);
}

template <class T>
std::string WriteToBytes(const T &obj, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  obj.Write(os, binary);
  return os.str();
}

}  // namespace testing
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_HMM_HMM_TEST_UTILS_H_
