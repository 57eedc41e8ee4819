// The context FST (ComposeContext) on small inputs whose results are worked
// out by hand: the two examples in the comment of Kaldi's fstcomposecontext
// (a phone string, and one with disambiguation symbols), a two-word lexicon
// with a triphone context, monophone and left-biphone contexts; and the
// ilabel_info list (IntSequenceList) with its file format.
#include "fstext/context-fst.h"

#include <fst/vector-fst.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "fstext/ilabel-info.h"

namespace nnet3 {
namespace {

using fst::StdArc;
using fst::StdVectorFst;
// (source, ilabel, olabel, destination), all weights one.
using ArcTuple = std::tuple<int, int, int, int>;

// An FST from unweighted arcs and the final states (weight one).
StdVectorFst MakeFst(const std::vector<ArcTuple> &arcs,
                     const std::vector<int> &finals) {
  StdVectorFst f;
  int num_states = 0;
  for (const auto &a : arcs)
    num_states = std::max({num_states, std::get<0>(a) + 1, std::get<3>(a) + 1});
  for (int s : finals) num_states = std::max(num_states, s + 1);
  for (int s = 0; s < num_states; s++) f.AddState();
  f.SetStart(0);
  for (const auto &a : arcs)
    f.AddArc(std::get<0>(a), StdArc(std::get<1>(a), std::get<2>(a),
                                    StdArc::Weight::One(), std::get<3>(a)));
  for (int s : finals) f.SetFinal(s, StdArc::Weight::One());
  return f;
}

std::vector<ArcTuple> ArcsOf(const StdVectorFst &f) {
  std::vector<ArcTuple> arcs;
  for (int s = 0; s < f.NumStates(); s++)
    for (fst::ArcIterator<StdVectorFst> it(f, s); !it.Done(); it.Next()) {
      const StdArc &arc = it.Value();
      REQUIRE(arc.weight == StdArc::Weight::One());
      arcs.emplace_back(s, arc.ilabel, arc.olabel, arc.nextstate);
    }
  return arcs;
}

std::vector<int> FinalsOf(const StdVectorFst &f) {
  std::vector<int> finals;
  for (int s = 0; s < f.NumStates(); s++)
    if (f.Final(s) != StdArc::Weight::Zero()) finals.push_back(s);
  return finals;
}

std::vector<std::vector<int32_t>> EntriesOf(const ILabelInfo &info) {
  std::vector<std::vector<int32_t>> entries;
  for (int32_t i = 0; i < info.Size(); i++)
    entries.push_back(info[i].ToVector());
  return entries;
}

TEST_CASE("ComposeContext: a phone string, triphones") {
  // Kaldi's first example: 1 2 3 ("a b c"), no disambiguation symbols;
  // without them the start of the string outputs epsilon.
  StdVectorFst in = MakeFst({{0, 1, 1, 1}, {1, 2, 2, 2}, {2, 3, 3, 3}}, {3});
  StdVectorFst out;
  ILabelInfo ilabels;
  ComposeContext({}, 3, 1, &in, &out, &ilabels);
  // <eps>:a, <eps>/a/b:b, a/b/c:c, b/c/<eps>:<eps>
  CHECK(ArcsOf(out) ==
        std::vector<ArcTuple>{
            {0, 0, 1, 1}, {1, 1, 2, 2}, {2, 2, 3, 3}, {3, 3, 0, 4}});
  CHECK(FinalsOf(out) == std::vector<int>{4});
  CHECK(EntriesOf(ilabels) ==
        std::vector<std::vector<int32_t>>{{}, {0, 1, 2}, {1, 2, 3}, {2, 3, 0}});
  // The input got the subsequential loop ("$" = 4) on a new final state.
  CHECK(ArcsOf(in) == std::vector<ArcTuple>{{0, 1, 1, 1},
                                            {1, 2, 2, 2},
                                            {2, 3, 3, 3},
                                            {3, 4, 0, 4},
                                            {4, 4, 0, 4}});
  CHECK(FinalsOf(in) == std::vector<int>{3, 4});
}

TEST_CASE("ComposeContext: disambiguation symbols, #-1 at the start") {
  // Kaldi's second example: a b #0 c #1, with #0 = 4 and #1 = 5.
  StdVectorFst in = MakeFst(
      {{0, 1, 1, 1}, {1, 2, 2, 2}, {2, 4, 4, 3}, {3, 3, 3, 4}, {4, 5, 5, 5}},
      {5});
  StdVectorFst out;
  ILabelInfo ilabels;
  ComposeContext({5, 4}, 3, 1, &in, &out, &ilabels);  // any order
  // #-1:a, <eps>/a/b:b, #0:#0, a/b/c:c, #1:#1, b/c/<eps>:<eps>
  CHECK(ArcsOf(out) == std::vector<ArcTuple>{{0, 1, 1, 1},
                                             {1, 2, 2, 2},
                                             {2, 3, 4, 3},
                                             {3, 4, 3, 4},
                                             {4, 5, 5, 5},
                                             {5, 6, 0, 6}});
  CHECK(FinalsOf(out) == std::vector<int>{6});
  CHECK(EntriesOf(ilabels) ==
        std::vector<std::vector<int32_t>>{
            {}, {0}, {0, 1, 2}, {-4}, {1, 2, 3}, {-5}, {2, 3, 0}});
}

TEST_CASE("ComposeContext: a two-word lexicon, triphones") {
  // L for w1 = "a b", w2 = "b" (a = 1, b = 2), a loop on the final start.
  StdVectorFst lex = MakeFst({{0, 1, 1, 1}, {1, 2, 0, 0}, {0, 2, 2, 0}}, {0});
  StdVectorFst out;
  ILabelInfo ilabels;
  ComposeContext({}, 3, 1, &lex, &out, &ilabels);
  // States are (phones seen, state of L) in breadth-first order: 0 = ([0 0],
  // 0), 1 = ([0 a], 1), 2 = ([0 b], 0), 3 = ([0 $], $-state), 4 = ([a b],
  // 0), 5 = ([b a], 1), 6 = ([b b], 0), 7 = ([b $], $-state); the final ones
  // are those that have output every phone (3 and 7).
  CHECK(ArcsOf(out) == std::vector<ArcTuple>{{0, 0, 1, 1},
                                             {0, 0, 2, 2},
                                             {0, 0, 0, 3},
                                             {1, 1, 0, 4},
                                             {2, 2, 1, 5},
                                             {2, 3, 2, 6},
                                             {2, 4, 0, 7},
                                             {4, 5, 1, 5},
                                             {4, 6, 2, 6},
                                             {4, 7, 0, 7},
                                             {5, 8, 0, 4},
                                             {6, 9, 1, 5},
                                             {6, 10, 2, 6},
                                             {6, 11, 0, 7}});
  CHECK(FinalsOf(out) == std::vector<int>{3, 7});
  CHECK(EntriesOf(ilabels) == std::vector<std::vector<int32_t>>{{},
                                                                {0, 1, 2},
                                                                {0, 2, 1},
                                                                {0, 2, 2},
                                                                {0, 2, 0},
                                                                {1, 2, 1},
                                                                {1, 2, 2},
                                                                {1, 2, 0},
                                                                {2, 1, 2},
                                                                {2, 2, 1},
                                                                {2, 2, 2},
                                                                {2, 2, 0}});
}

TEST_CASE("ComposeContext: monophone and left-biphone contexts") {
  const std::vector<ArcTuple> string_arcs = {
      {0, 1, 1, 1}, {1, 4, 4, 2}, {2, 2, 2, 3}};  // a #0 b
  {
    // No right context: no "$", no #-1; each phone is its own window.
    StdVectorFst in = MakeFst(string_arcs, {3}), out;
    ILabelInfo ilabels;
    ComposeContext({4}, 1, 0, &in, &out, &ilabels);
    CHECK(in.NumStates() == 4);
    CHECK(ArcsOf(out) ==
          std::vector<ArcTuple>{{0, 1, 1, 1}, {1, 2, 4, 2}, {2, 3, 2, 3}});
    CHECK(FinalsOf(out) == std::vector<int>{3});
    CHECK(EntriesOf(ilabels) ==
          std::vector<std::vector<int32_t>>{{}, {1}, {-4}, {2}});
  }
  {
    // Left biphones: windows (previous phone, phone), 0 for none.
    StdVectorFst in = MakeFst(string_arcs, {3}), out;
    ILabelInfo ilabels;
    ComposeContext({4}, 2, 1, &in, &out, &ilabels);
    CHECK(ArcsOf(out) ==
          std::vector<ArcTuple>{{0, 1, 1, 1}, {1, 2, 4, 2}, {2, 3, 2, 3}});
    CHECK(EntriesOf(ilabels) ==
          std::vector<std::vector<int32_t>>{{}, {0, 1}, {-4}, {1, 2}});
  }
}

TEST_CASE("ComposeContext: bad arguments") {
  StdVectorFst in = MakeFst({{0, 1, 1, 1}}, {1}), out;
  ILabelInfo ilabels;
  CHECK_THROWS_AS(ComposeContext({}, 3, 3, &in, &out, &ilabels), UserError);
  CHECK_THROWS_AS(ComposeContext({}, 0, 0, &in, &out, &ilabels), UserError);
  CHECK_THROWS_AS(ComposeContext({0}, 3, 1, &in, &out, &ilabels), UserError);
}

TEST_CASE("IntSequenceList: ilabel_info files as Kaldi writes them") {
  const ILabelInfo info({{}, {0}, {0, 1, 2}, {-4}});
  std::ostringstream text;
  info.Write(text, false);
  // Kaldi's WriteILabelInfo: the count, then integer vectors.
  CHECK(text.str() == "4 [ ]\n[ 0 ]\n[ 0 1 2 ]\n[ -4 ]\n");
  std::ostringstream binary;
  info.Write(binary, true);
  const std::string expected_binary =
      std::string("\4\4\0\0\0", 5) + std::string("\4\0\0\0\0", 5) +
      std::string("\4\1\0\0\0\0\0\0\0", 9) +
      std::string("\4\3\0\0\0\0\0\0\0\1\0\0\0\2\0\0\0", 17) +
      std::string("\4\1\0\0\0\xfc\xff\xff\xff", 9);
  CHECK(binary.str() == expected_binary);
  for (bool is_binary : {false, true}) {
    const std::string bytes = is_binary ? binary.str() : text.str();
    std::istringstream is(bytes);
    ILabelInfo read;
    read.Read(is, is_binary);
    CHECK(read == info);
    // Every truncation is a UserError (text needs no final newline).
    for (size_t n = 0; n + (is_binary ? 0 : 1) < bytes.size(); n++) {
      std::istringstream cut(bytes.substr(0, n));
      ILabelInfo partial;
      CHECK_THROWS_AS(partial.Read(cut, is_binary), UserError);
    }
  }
  std::istringstream huge(std::string("\4\1\0\0\0\4\0\0\0\x7f", 10));
  ILabelInfo bad;
  CHECK_THROWS_AS(bad.Read(huge, true), UserError);
}

TEST_CASE("SequenceTable: finds sequences by content") {
  IntSequenceList list;
  SequenceTable table;
  std::vector<int32_t> ids;
  for (int32_t i = 0; i < 1000; i++)
    ids.push_back(table.FindOrAdd({i % 7, i, -i}, &list));
  for (int32_t i = 0; i < 1000; i++) {
    CHECK(table.FindOrAdd({i % 7, i, -i}, &list) == ids[i]);
    CHECK(list[ids[i]].ToVector() == std::vector<int32_t>{i % 7, i, -i});
  }
  CHECK(list.Size() == 1000);
  CHECK(table.FindOrAdd({}, &list) == 1000);
  CHECK(table.FindOrAdd({}, &list) == 1000);
}

}  // namespace
}  // namespace nnet3
