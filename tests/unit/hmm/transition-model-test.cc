// HmmTopology and TransitionModel: the golden .mdl files of tests/data/train
// (written by make-golden-mdl.py from Kaldi's format) read and re-written
// byte for byte, binary and text; what is read (pdfs, transition-ids);
// and malformed input (one-line UserErrors, never a crash), including
// every truncation of a golden file.
#include "hmm/transition-model.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {
namespace {

std::string ReadFileBytes(const std::string &name) {
  std::ifstream is(std::string(NNET3_TEST_DATA) + "/train/" + name,
                   std::ios::binary);
  REQUIRE(is.good());
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

// Reads a transition model from `bytes` ("\0B" header: binary).
TransitionModel ReadModel(const std::string &bytes) {
  std::istringstream is(bytes);
  bool binary = false;
  if (!InitKaldiInputStream(is, &binary)) NNET3_ERR << "bad binary header";
  TransitionModel tm;
  tm.Read(is, binary);
  return tm;
}

std::string WriteModel(const TransitionModel &tm, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  tm.Write(os, binary);
  return os.str();
}

// The transition-model part of a golden file: up to and including
// "</TransitionModel> " (and its newline in text).
std::string FrontOf(const std::string &bytes, bool binary) {
  const std::string end = "</TransitionModel> ";
  size_t pos = bytes.find(end);
  REQUIRE(pos != std::string::npos);
  return bytes.substr(0, pos + end.size() + (binary ? 0 : 1));
}

std::string ReadError(const std::string &bytes) {
  try {
    ReadModel(bytes);
  } catch (const UserError &e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("Golden transition models round-trip byte for byte", "[mdl]") {
  for (const char *name : {"hmm.mdl", "chain.mdl"}) {
    INFO(name);
    const std::string bin = FrontOf(ReadFileBytes(name), true),
                      text = FrontOf(ReadFileBytes(std::string(name) + ".txt"),
                                     false);
    const TransitionModel from_bin = ReadModel(bin),
                          from_text = ReadModel(text);
    CHECK(from_bin == from_text);
    CHECK(WriteModel(from_bin, true) == bin);
    CHECK(WriteModel(from_bin, false) == text);
    CHECK(WriteModel(from_text, true) == bin);
  }
}

TEST_CASE("What a transition model holds", "[mdl]") {
  const TransitionModel hmm =
      ReadModel(FrontOf(ReadFileBytes("hmm.mdl"), true));
  CHECK(hmm.GetTopo().IsHmm());
  CHECK(hmm.GetTopo().GetPhones() == std::vector<int32_t>{1, 2, 3});
  CHECK(hmm.GetTopo().NumPdfClasses(1) == 3);
  CHECK(hmm.GetTopo().NumPdfClasses(3) == 1);
  CHECK(hmm.NumPdfs() == 6);
  CHECK(hmm.NumPhones() == 3);
  CHECK(hmm.NumTransitionStates() == 7);
  CHECK(hmm.NumTransitionIds() == 14);
  // Transition-ids 1, 2 leave state (1, 0): its self-loop and forward
  // transition, both pdf 0; ids 7, 8 leave (2, 0), pdf 3; 13, 14: (3, 0).
  CHECK(hmm.TransitionIdToPdf(1) == 0);
  CHECK(hmm.TransitionIdToPdf(8) == 3);
  CHECK(hmm.TransitionIdToPdf(14) == 5);
  CHECK(hmm.GetTransitionLogProb(1) == -0.125f);
  CHECK(hmm.GetTransitionLogProb(5) == -0.625f);

  const TransitionModel chain =
      ReadModel(FrontOf(ReadFileBytes("chain.mdl"), true));
  CHECK_FALSE(chain.GetTopo().IsHmm());
  CHECK(chain.NumPdfs() == 6);
  CHECK(chain.NumTransitionIds() == 6);
  // Self-loops (transition index 0, back to state 0) use the self-loop
  // pdf, the forward transitions the forward pdf.
  CHECK(chain.TransitionIdToPdf(1) == 1);
  CHECK(chain.TransitionIdToPdf(2) == 0);
  CHECK(chain.TransitionIdToPdf(3) == 3);
  CHECK(chain.TransitionIdToPdf(4) == 2);
}

TEST_CASE("Transition-id queries (Kaldi's numbering)", "[mdl]") {
  const TransitionModel hmm =
      ReadModel(FrontOf(ReadFileBytes("hmm.mdl"), true));
  // Phone 1 has states 0,1,2 with a self-loop (index 0) and a forward
  // transition (index 1) each: ids 1..6; phone 2: 7..12; phone 3 has one
  // emitting state: 13 (self-loop), 14 (to the final state).
  CHECK(hmm.TransitionIdToPhone(1) == 1);
  CHECK(hmm.TransitionIdToPhone(6) == 1);
  CHECK(hmm.TransitionIdToPhone(7) == 2);
  CHECK(hmm.TransitionIdToPhone(14) == 3);
  CHECK(hmm.TransitionIdToHmmState(4) == 1);
  CHECK(hmm.TransitionIdToHmmState(5) == 2);
  CHECK(hmm.TransitionIdToTransitionState(5) == 3);
  CHECK(hmm.TransitionIdToTransitionIndex(5) == 0);
  CHECK(hmm.TransitionIdToTransitionIndex(6) == 1);
  CHECK(hmm.PairToTransitionId(3, 1) == 6);
  CHECK(hmm.NumTransitionIndices(7) == 2);
  CHECK(hmm.TupleToTransitionState(2, 1, 1, 1) == 5);
  CHECK_THROWS_AS(hmm.TupleToTransitionState(2, 1, 2, 2), UserError);
  CHECK(hmm.TransitionStateToPhone(7) == 3);
  CHECK(hmm.TransitionStateToHmmState(6) == 2);
  CHECK(hmm.TransitionStateToForwardPdf(6) == 4);
  CHECK(hmm.TransitionStateToSelfLoopPdfClass(6) == 2);
  CHECK(hmm.TransitionStateToForwardPdfClass(2) == 1);
  CHECK(hmm.SelfLoopOf(7) == 13);
  CHECK(hmm.TransitionIdToPdfClass(10) == 1);
  for (int32_t tid = 1; tid <= 14; tid++) {
    INFO("transition-id " << tid);
    CHECK(hmm.IsSelfLoop(tid) == (tid % 2 == 1));
    CHECK(hmm.IsFinal(tid) == (tid == 6 || tid == 12 || tid == 14));
    CHECK(hmm.TransitionIdIsStartOfPhone(tid) ==
          (tid <= 2 || tid == 7 || tid == 8 || tid >= 13));
    CHECK(hmm.TransitionIdToPdfArray()[tid] == hmm.TransitionIdToPdf(tid));
  }
  CHECK(hmm.TransitionIdsEquivalent(3, 4));
  CHECK_FALSE(hmm.TransitionIdsEquivalent(4, 5));
  // Self-loop of state 1 has log-prob -0.125: log(1 - e^-0.125).
  CHECK(hmm.GetNonSelfLoopLogProb(1) ==
        Approx(std::log(1.0 - std::exp(-0.125))).epsilon(1e-6));
  CHECK(hmm.GetTransitionLogProbIgnoringSelfLoops(2) ==
        Approx(-0.25 - std::log(1.0 - std::exp(-0.125))).epsilon(1e-6));
  CHECK_THROWS_AS(hmm.TransitionIdToPhone(15), InternalError);
  CHECK_THROWS_AS(hmm.TransitionIdToPhone(0), InternalError);

  const TransitionModel chain =
      ReadModel(FrontOf(ReadFileBytes("chain.mdl"), true));
  // The chain topology: self-loop pdf-class 1, forward pdf-class 0.
  CHECK(chain.IsSelfLoop(1));
  CHECK(chain.TransitionIdToPdfClass(1) == 1);
  CHECK(chain.TransitionIdToPdfClass(2) == 0);
  CHECK(chain.IsFinal(2));
}

TEST_CASE("Malformed transition models are one-line UserErrors", "[mdl]") {
  const std::string text = FrontOf(ReadFileBytes("hmm.mdl.txt"), false);
  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = text;
    size_t pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    return s.replace(pos, from.size(), to);
  };
  CHECK_THAT(ReadError(with("<Triples> 7", "<Pairs> 7")),
             Catch::Contains("<Triples> or <Tuples>"));
  // Unsorted tuples.
  CHECK_THAT(ReadError(with("1 1 1 \n1 2 2", "1 2 2 \n1 1 1")),
             Catch::Contains("not sorted"));
  // A tuple naming an HMM state the phone does not have.
  CHECK_THAT(ReadError(with("3 0 5", "3 4 5")),
             Catch::Contains("names HMM state 4 of phone 3"));
  // A phone without a topology entry.
  CHECK_THAT(ReadError(with("3 0 5", "4 0 5")),
             Catch::Contains("phone 4 has no topology entry"));
  // One log-prob too few; a positive one.
  CHECK_THAT(ReadError(with(" -0.375 -0.5 ]", " -0.375 ]")),
             Catch::Contains("14 transition-ids need 15"));
  CHECK_THAT(ReadError(with("-0.125 -0.25 -0.375 -0.5 -0.625 -0.125",
                            "-0.125 -0.25 0.375 -0.5 -0.625 -0.125")),
             Catch::Contains("transition-id 3 has log-probability 0.375"));
  // Topology errors (Kaldi's HmmTopology::Check).
  CHECK_THAT(ReadError(with("<Transition> 2 0.75", "<Transition> 7 0.75")),
             Catch::Contains("bad transition to 7"));
  CHECK_THAT(ReadError(with("<Transition> 1 0.25 </State>",
                            "<Transition> 1 0 </State>")),
             Catch::Contains("probability 0"));
  CHECK_THAT(
      ReadError(with("<State> 3 </State>", "<State> 3 <PdfClass> 3 </State>")),
      Catch::Contains("must be non-emitting"));
  CHECK_THAT(
      ReadError(with("<State> 1 <PdfClass> 1", "<State> 1 <PdfClass> 4")),
      Catch::Contains("contiguous from 0"));
  CHECK_THAT(ReadError(with("\n3 \n</ForPhones>", "\n2 \n</ForPhones>")),
             Catch::Contains("phone 2 appears in more than one"));
  CHECK_THAT(ReadError(with("<State> 1 <PdfClass>", "<State> 2 <PdfClass>")),
             Catch::Contains("expected 1, got 2"));
  // Every truncation of both forms fails cleanly.
  for (const std::string &bytes :
       {text, FrontOf(ReadFileBytes("chain.mdl"), true)}) {
    for (size_t len = 0; len + 1 < bytes.size(); len += 1 + len / 20) {
      INFO("truncated to " << len << " bytes");
      CHECK(ReadError(bytes.substr(0, len)) != "<no error>");
    }
  }
}

}  // namespace nnet3
