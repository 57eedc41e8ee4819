// Reading graphs the way Kaldi's programs do: vector and const FST files
// (OpenFst's own files, tests/data/fstext/make-golden.sh), through pipes;
// tables of graphs against Kaldi's fstcopy output, byte for byte, binary
// and text; symbol tables; the graph checks; and the one-line errors for
// files that are not graphs.
#include "fstext/kaldi-fst-io.h"

#include <fst/const-fst.h>

#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>

#include "../util/util-test-common.h"
#include "fstext/graph-checks.h"
#include "fstext/lattice-weight.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using test::ReadFile;
using test::TempDir;
using test::WriteFile;

std::string Data(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/fstext/" + name;
}

// The first graph of graphs-in.txt, built by hand.
fst::StdVectorFst GraphOne() {
  fst::StdVectorFst g;
  for (int i = 0; i < 4; ++i) g.AddState();
  g.SetStart(0);
  g.AddArc(0, fst::StdArc(3, 5, 0.5, 1));
  g.AddArc(0, fst::StdArc(4, 0, 0, 2));
  g.AddArc(1, fst::StdArc(5, 6, 1.25, 3));
  g.AddArc(2, fst::StdArc(6, 7, 3.14159265f, 3));
  g.SetFinal(3, 0.693147181f);
  return g;
}

TEST_CASE("ReadFstKaldiGeneric reads vector and const graphs", "[fstext]") {
  const fst::StdVectorFst expected = GraphOne();
  std::unique_ptr<fst::Fst<fst::StdArc>> vec(
      ReadFstKaldiGeneric(Data("graph.fst")));
  CHECK(vec->Type() == "vector");
  CHECK(fst::Equal(*vec, expected));
  std::unique_ptr<fst::Fst<fst::StdArc>> cst(
      ReadFstKaldiGeneric(Data("graph-const.fst")));
  CHECK(cst->Type() == "const");
  CHECK(fst::Equal(*cst, expected));
  std::unique_ptr<fst::Fst<fst::StdArc>> piped(
      ReadFstKaldiGeneric("cat " + Data("graph-const.fst") + " |"));
  CHECK(fst::Equal(*piped, expected));
  fst::StdVectorFst converted;
  ReadFstKaldi(Data("graph-const.fst"), &converted);
  CHECK(fst::Equal(converted, expected));
}

TEST_CASE("WriteFstKaldi writes OpenFst's file", "[fstext]") {
  TempDir dir;
  WriteFstKaldi(GraphOne(), dir / "g.fst");
  CHECK(ReadFile(dir / "g.fst") == ReadFile(Data("graph.fst")));
}

TEST_CASE("Graph reading errors are one line naming the file", "[fstext]") {
  TempDir dir;
  WriteFile(dir / "words.fst", "<eps> 0\nhello 1\n");
  ExpectUserError([&] { delete ReadFstKaldiGeneric(dir / "words.fst"); },
                  {dir / "words.fst", "not an OpenFst binary FST"});
  const std::string graph = ReadFile(Data("graph.fst"));
  WriteFile(dir / "short-header.fst", graph.substr(0, 30));
  ExpectUserError([&] { delete ReadFstKaldiGeneric(dir / "short-header.fst"); },
                  {dir / "short-header.fst", "ends inside its FST header"});
  WriteFile(dir / "short-body.fst", graph.substr(0, graph.size() - 5));
  ExpectUserError(
      [&] { delete ReadFstKaldiGeneric(dir / "short-body.fst"); },
      {dir / "short-body.fst", "Cannot read the FST", "Read failed"});
  const std::string cgraph = ReadFile(Data("graph-const.fst"));
  WriteFile(dir / "short-const.fst", cgraph.substr(0, cgraph.size() - 5));
  ExpectUserError([&] { delete ReadFstKaldiGeneric(dir / "short-const.fst"); },
                  {dir / "short-const.fst", "Cannot read the FST"});
  Lattice lat;
  lat.AddState();
  lat.SetStart(0);
  lat.SetFinal(0, LatticeWeight::One());
  REQUIRE(lat.Write(dir / "lat.fst"));
  ExpectUserError([&] { delete ReadFstKaldiGeneric(dir / "lat.fst"); },
                  {dir / "lat.fst", "arc type 'lattice4'", "'standard'"});
  ExpectUserError([&] { delete ReadFstKaldiGeneric(dir / "missing.fst"); },
                  {dir / "missing.fst"});
  ExpectUserError([&] { delete ReadFstKaldiGeneric("exit 3 |"); }, {"exit 3"});
}

TEST_CASE("Tables of graphs match Kaldi's fstcopy", "[fstext]") {
  TempDir dir;
  // Kaldi's text (written by hand, more digits) -> binary and text.
  {
    SequentialFstReader reader("ark:" + Data("graphs-in.txt"));
    FstWriter binary("ark:" + (dir / "b.ark"));
    FstWriter text("ark,t:" + (dir / "t.ark"));
    for (; !reader.Done(); reader.Next()) {
      binary.Write(reader.Key(), reader.Value());
      text.Write(reader.Key(), reader.Value());
    }
    binary.Close();
    text.Close();
  }
  CHECK(ReadFile(dir / "b.ark") == ReadFile(Data("graphs.ark")));
  CHECK(ReadFile(dir / "t.ark") == ReadFile(Data("graphs.txt")));
  // Kaldi's binary -> text.
  {
    SequentialFstReader reader("ark:" + Data("graphs.ark"));
    FstWriter text("ark,t:" + (dir / "t2.ark"));
    for (; !reader.Done(); reader.Next())
      text.Write(reader.Key(), reader.Value());
    text.Close();
  }
  CHECK(ReadFile(dir / "t2.ark") == ReadFile(Data("graphs.txt")));
  SequentialFstReader reader("ark:" + Data("graphs.ark"));
  REQUIRE(!reader.Done());
  CHECK(reader.Key() == "g1");
  // The binary archive keeps the full float weights.
  CHECK(fst::Equal(reader.Value(), GraphOne()));
  // Random access and scp with offsets.
  {
    FstWriter both("ark,scp:" + (dir / "c.ark") + "," + (dir / "c.scp"));
    both.Write("x", GraphOne());
    both.Close();
  }
  RandomAccessFstReader random("scp:" + (dir / "c.scp"));
  REQUIRE(random.HasKey("x"));
  CHECK(fst::Equal(random.Value("x"), GraphOne()));
  // An "scp:" writer writes each graph as a plain OpenFst file (no "\0B"),
  // which an scp reader and ReadFstKaldiGeneric read back.
  WriteFile(dir / "out.scp", "g1 " + (dir / "g1.fst") + "\n");
  {
    FstWriter writer("scp:" + (dir / "out.scp"));
    writer.Write("g1", GraphOne());
    writer.Close();
  }
  CHECK(ReadFile(dir / "g1.fst") == ReadFile(Data("graph.fst")));
  SequentialFstReader scp_reader("scp:" + (dir / "out.scp"));
  CHECK(fst::Equal(scp_reader.Value(), GraphOne()));
}

TEST_CASE("Bad entries in graph tables", "[fstext]") {
  TempDir dir;
  WriteFile(dir / "bad.txt", "g1 \n0\t1\t3\n\n");
  ExpectUserError(
      [&] {
        SequentialFstReader reader("ark:" + (dir / "bad.txt"));
        reader.Value();
      },
      {"bad.txt", "g1", "Bad line", "0\t1\t3"});
  WriteFile(dir / "bad-weight.txt", "g1 \n0\t1\t3\t4\tx\n\n");
  ExpectUserError(
      [&] {
        SequentialFstReader reader("ark:" + (dir / "bad-weight.txt"));
        reader.Value();
      },
      {"bad-weight.txt", "Bad line"});
  const std::string ark = ReadFile(Data("graphs.ark"));
  WriteFile(dir / "cut.ark", ark.substr(0, 100));
  ExpectUserError(
      [&] {
        SequentialFstReader reader("ark:" + (dir / "cut.ark"));
        reader.Value();
      },
      {"cut.ark", "g1", "Cannot read the FST"});
}

TEST_CASE("Symbol tables and graph checks", "[fstext]") {
  std::unique_ptr<fst::SymbolTable> words(
      ReadSymbolTableText(Data("words.txt")));
  CHECK(words->Find(6) == "six");
  std::unique_ptr<fst::Fst<fst::StdArc>> graph(
      ReadFstKaldiGeneric(Data("graph-const.fst")));
  CHECK(MaxInputLabel(*graph) == 6);
  CHECK(MaxOutputLabel(*graph) == 7);
  CheckGraphOutputSymbols(*graph, *words, "graph-const.fst", "words.txt");
  CheckGraphInputLabels(*graph, 6, "graph-const.fst", "final.mdl");
  ExpectUserError(
      [&] { CheckGraphInputLabels(*graph, 5, "HCLG.fst", "final.mdl"); },
      {"HCLG.fst", "final.mdl", "input label 6", "1..5"});
  TempDir dir;
  WriteFile(dir / "few.txt", "<eps> 0\nfive 5\nsix 6\n");
  std::unique_ptr<fst::SymbolTable> few(ReadSymbolTableText(dir / "few.txt"));
  ExpectUserError(
      [&] { CheckGraphOutputSymbols(*graph, *few, "HCLG.fst", "few.txt"); },
      {"HCLG.fst", "few.txt", "word 7"});
  WriteFile(dir / "bad.txt", "<eps> 0\nfive\n");
  ExpectUserError([&] { delete ReadSymbolTableText(dir / "bad.txt"); },
                  {dir / "bad.txt", "Cannot read the symbol table"});
}

}  // namespace
}  // namespace nnet3
