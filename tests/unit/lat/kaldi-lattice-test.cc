// Lattice and CompactLattice in tables: Kaldi's own lattice-copy output
// (tests/data/lat/make-golden.sh) reproduced byte for byte from the same
// input, binary and text, each type read as the other; round trips; the
// double-precision arc types; gzip through pipes; and one-line errors for
// entries that are not lattices.
#include "lat/kaldi-lattice.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "../util/util-test-common.h"
#include "fstext/lattice-convert.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using test::ReadFile;
using test::TempDir;
using test::WriteFile;

std::string Data(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/lat/" + name;
}

// Copies every entry of `rspecifier` to `wspecifier` as Holder's type.
template <class Holder>
void CopyTable(const std::string &rspecifier, const std::string &wspecifier) {
  SequentialTableReader<Holder> reader(rspecifier);
  TableWriter<Holder> writer(wspecifier);
  for (; !reader.Done(); reader.Next())
    writer.Write(reader.Key(), reader.Value());
  writer.Close();
}

TEST_CASE("Lattice tables match Kaldi's lattice-copy", "[lat]") {
  TempDir dir;
  // The hand-written text, read as each type, written as binary and text.
  CopyTable<CompactLatticeHolder>("ark:" + Data("lat-in.txt"),
                                  "ark:" + (dir / "clat.ark"));
  CopyTable<CompactLatticeHolder>("ark:" + Data("lat-in.txt"),
                                  "ark,t:" + (dir / "clat.txt"));
  CopyTable<LatticeHolder>("ark:" + Data("lat-in.txt"),
                           "ark:" + (dir / "lat.ark"));
  CopyTable<LatticeHolder>("ark:" + Data("lat-in.txt"),
                           "ark,t:" + (dir / "lat.txt"));
  CHECK(ReadFile(dir / "clat.ark") == ReadFile(Data("clat.ark")));
  CHECK(ReadFile(dir / "clat.txt") == ReadFile(Data("clat.txt")));
  CHECK(ReadFile(dir / "lat.ark") == ReadFile(Data("lat.ark")));
  CHECK(ReadFile(dir / "lat.txt") == ReadFile(Data("lat.txt")));
  // Kaldi's binary archives to text, and text to binary.
  CopyTable<CompactLatticeHolder>("ark:" + Data("clat.ark"),
                                  "ark,t:" + (dir / "clat2.txt"));
  CopyTable<LatticeHolder>("ark:" + Data("lat.ark"),
                           "ark,t:" + (dir / "lat2.txt"));
  CopyTable<CompactLatticeHolder>("ark:" + Data("clat.txt"),
                                  "ark:" + (dir / "clat2.ark"));
  CHECK(ReadFile(dir / "clat2.txt") == ReadFile(Data("clat.txt")));
  CHECK(ReadFile(dir / "lat2.txt") == ReadFile(Data("lat.txt")));
  CHECK(ReadFile(dir / "clat2.ark") == ReadFile(Data("clat-from-text.ark")));
}

TEST_CASE("Each lattice type reads as the other", "[lat]") {
  SequentialCompactLatticeReader compact("ark:" + Data("clat.ark"));
  SequentialLatticeReader expanded("ark:" + Data("clat.ark"));
  for (; !compact.Done(); compact.Next(), expanded.Next()) {
    REQUIRE(!expanded.Done());
    INFO(compact.Key());
    Lattice converted;
    ConvertLattice(compact.Value(), &converted);
    CHECK(fst::Equal(converted, expanded.Value()));
  }
  CHECK(expanded.Done());
}

// A lattice with a chain (state 1 folds into it when compacted), an
// epsilon input label and a final weight.
Lattice SmallLattice() {
  Lattice lat;
  for (int i = 0; i < 4; ++i) lat.AddState();
  lat.SetStart(0);
  lat.AddArc(0, LatticeArc(1, 7, LatticeWeight(0.5, 1.25), 1));
  lat.AddArc(1, LatticeArc(2, 0, LatticeWeight(0.25, 3), 2));
  lat.AddArc(0, LatticeArc(3, 8, LatticeWeight(1, 1), 2));
  lat.AddArc(2, LatticeArc(0, 9, LatticeWeight(0, 0.5), 3));
  lat.SetFinal(3, LatticeWeight(0.125, 0));
  return lat;
}

TEST_CASE("Lattices round-trip in binary and text", "[lat]") {
  const Lattice lat = SmallLattice();
  CompactLattice clat;
  ConvertLattice(lat, &clat);
  for (bool binary : {true, false}) {
    INFO("binary " << binary);
    std::stringstream ss;
    WriteLattice(ss, binary, lat);
    WriteCompactLattice(ss, binary, clat);
    Lattice lat2;
    CompactLattice clat2;
    ReadLattice(ss, binary, &lat2);
    ReadCompactLattice(ss, binary, &clat2);
    CHECK(fst::Equal(lat, lat2));
    CHECK(fst::Equal(clat, clat2));
  }
  std::ostringstream text;
  WriteCompactLattice(text, false, clat);
  CHECK(text.str() ==
        "\n0\t1\t7\t0.75,4.25,1_2\n0\t1\t8\t1,1,3\n1\t2\t9\t0,0.5,\n"
        "2\t0.125,0,\n\n");
}

TEST_CASE("Double-precision lattices are read and converted", "[lat]") {
  const Lattice lat = SmallLattice();
  fst::VectorFst<fst::ArcTpl<LatticeWeightTpl<double>>> lat8;
  ConvertLattice(lat, &lat8);
  std::stringstream ss;
  REQUIRE(lat8.Write(ss, fst::FstWriteOptions()));
  CHECK(ss.str().find("lattice8") != std::string::npos);
  Lattice back;
  ReadLattice(ss, true, &back);
  CHECK(fst::Equal(back, lat));
  fst::VectorFst<
      fst::ArcTpl<CompactLatticeWeightTpl<LatticeWeightTpl<double>, int32_t>>>
      clat8;
  CompactLattice clat;
  ConvertLattice(lat, &clat);
  ConvertLattice(clat, &clat8);
  std::stringstream ss8;
  REQUIRE(clat8.Write(ss8, fst::FstWriteOptions()));
  CHECK(ss8.str().find("compactlattice84") != std::string::npos);
  CompactLattice clat_back;
  ReadCompactLattice(ss8, true, &clat_back);
  CHECK(fst::Equal(clat_back, clat));
  std::istringstream again(ss8.str());
  ReadLattice(again, true, &back);
  Lattice expanded;  // the chain state comes back as a chain of arcs
  ConvertLattice(clat, &expanded);
  CHECK(fst::Equal(back, expanded));
}

TEST_CASE("Lattice archives through gzip pipes", "[lat]") {
  TempDir dir;
  CopyTable<CompactLatticeHolder>("ark:" + Data("clat.ark"),
                                  "ark:| gzip -c > " + (dir / "lat.1.gz"));
  CopyTable<CompactLatticeHolder>("ark:gunzip -c " + (dir / "lat.1.gz") + " |",
                                  "ark:" + (dir / "back.ark"));
  CHECK(ReadFile(dir / "back.ark") == ReadFile(Data("clat.ark")));
  CopyTable<CompactLatticeHolder>(
      "ark:" + Data("clat.ark"),
      "ark,scp:" + (dir / "s.ark") + "," + (dir / "s.scp"));
  RandomAccessCompactLatticeReader random("scp:" + (dir / "s.scp"));
  SequentialCompactLatticeReader seq("ark:" + Data("clat.ark"));
  for (; !seq.Done(); seq.Next()) {
    REQUIRE(random.HasKey(seq.Key()));
    CHECK(fst::Equal(random.Value(seq.Key()), seq.Value()));
  }
}

template <class Reader>
void ReadFirst(const std::string &rspecifier) {
  Reader reader(rspecifier);
  reader.Value();
}

TEST_CASE("Bad lattice entries are one-line errors", "[lat]") {
  TempDir dir;
  WriteFile(dir / "garbage.ark", "utt1 xyz\n");
  ExpectUserError(
      [&] {
        ReadFirst<SequentialLatticeReader>("ark:" + (dir / "garbage.ark"));
      },
      {"garbage.ark", "utt1", "does not look like a lattice"});
  // "0 1 2" would be a CompactLattice arc; "x" is neither type's label.
  WriteFile(dir / "badline.ark", "utt1 \n0\t1\tx\n1\n\n");
  ExpectUserError(
      [&] {
        ReadFirst<SequentialLatticeReader>("ark:" + (dir / "badline.ark"));
      },
      {"badline.ark", "utt1", "Bad line", "'0\t1\tx'"});
  // A zero weight on an arc is not allowed, as in Kaldi.
  WriteFile(dir / "zero.ark", "utt1 \n0\t1\t2\t3\tInfinity,Infinity\n1\n\n");
  ExpectUserError(
      [&] {
        ReadFirst<SequentialCompactLatticeReader>("ark:" + (dir / "zero.ark"));
      },
      {"zero.ark", "Bad line"});
  const std::string ark = ReadFile(Data("clat.ark"));
  WriteFile(dir / "cut.ark", ark.substr(0, 80));
  ExpectUserError(
      [&] {
        ReadFirst<SequentialCompactLatticeReader>("ark:" + (dir / "cut.ark"));
      },
      {"cut.ark", "utt1"});
  fst::StdVectorFst g;
  g.AddState();
  g.SetStart(0);
  std::ostringstream os;
  os << "utt1 ";
  REQUIRE(g.Write(os, fst::FstWriteOptions()));
  WriteFile(dir / "std.ark", os.str());
  ExpectUserError(
      [&] { ReadFirst<SequentialLatticeReader>("ark:" + (dir / "std.ark")); },
      {"std.ark", "arc type 'standard'", "cannot be read as a lattice"});
}

}  // namespace
}  // namespace nnet3
