// Kaldi token I/O: exact bytes of the binary and text encodings, and the
// errors on truncated or wrong input.
#include "base/io-funcs.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "base/error.h"

using namespace nnet3;

namespace {
std::string Bytes(const std::string &s) { return s; }
}  // namespace

TEST_CASE("binary header and precision", "[io-funcs]") {
  std::ostringstream os;
  InitKaldiOutputStream(os, true);
  CHECK(os.str() == std::string("\0B", 2));
  CHECK(os.precision() >= 7);
  std::istringstream is(std::string("\0Bxyz", 5));
  bool binary = false;
  CHECK(InitKaldiInputStream(is, &binary));
  CHECK(binary);
  CHECK(is.peek() == 'x');
  std::istringstream text("<Foo> ");
  CHECK(InitKaldiInputStream(text, &binary));
  CHECK(!binary);
  std::istringstream bad(std::string("\0C", 2));
  CHECK(!InitKaldiInputStream(bad, &binary));
}

TEST_CASE("integers: binary size byte and text", "[io-funcs]") {
  std::ostringstream os;
  WriteBasicType<int32_t>(os, true, 258);
  WriteBasicType<uint16_t>(os, true, 7);
  CHECK(os.str() == Bytes(std::string("\x04\x02\x01\x00\x00\xfe\x07\x00", 8)));
  std::istringstream is(os.str());
  int32_t a;
  uint16_t b;
  ReadBasicType(is, true, &a);
  ReadBasicType(is, true, &b);
  CHECK(a == 258);
  CHECK(b == 7);
  std::ostringstream ts;
  WriteBasicType<int32_t>(ts, false, -5);
  WriteBasicType<int8_t>(ts, false, 3);
  CHECK(ts.str() == "-5 3 ");
  std::istringstream tis(ts.str());
  int8_t c;
  ReadBasicType(tis, false, &a);
  ReadBasicType(tis, false, &c);
  CHECK(a == -5);
  CHECK(c == 3);
}

TEST_CASE("integer size byte mismatch is an error", "[io-funcs]") {
  std::ostringstream os;
  WriteBasicType<int64_t>(os, true, 1);
  std::istringstream is(os.str());
  int32_t a;
  CHECK_THROWS_AS(ReadBasicType(is, true, &a), UserError);
  std::istringstream truncated(std::string("\x04\x01\x02", 3));
  CHECK_THROWS_AS(ReadBasicType(truncated, true, &a), UserError);
}

TEST_CASE("floats: either width in binary, inf/nan in text", "[io-funcs]") {
  std::ostringstream os;
  WriteBasicType<float>(os, true, 1.5f);
  WriteBasicType<double>(os, true, -2.25);
  CHECK(os.str().size() == 5 + 9);
  CHECK(os.str()[0] == 4);
  CHECK(os.str()[5] == 8);
  std::istringstream is(os.str());
  double d;
  float f;
  ReadBasicType(is, true, &d);  // written as float, read as double
  ReadBasicType(is, true, &f);  // written as double, read as float
  CHECK(d == 1.5);
  CHECK(f == -2.25f);
  std::istringstream text("0.25 inf -inf nan x");
  ReadBasicType(text, false, &f);
  CHECK(f == 0.25f);
  ReadBasicType(text, false, &f);
  CHECK(std::isinf(f));
  CHECK(f > 0);
  ReadBasicType(text, false, &f);
  CHECK(f < 0);
  CHECK(std::isinf(f));
  ReadBasicType(text, false, &f);
  CHECK(std::isnan(f));
  CHECK_THROWS_AS(ReadBasicType(text, false, &f), UserError);
  // The error names the word that is not a number, not what follows it.
  std::istringstream word("abc\n1");
  CHECK_THROWS_WITH(ReadBasicType(word, false, &f),
                    Catch::Contains("Expected a number but found 'abc'"));
  std::istringstream empty("  ");
  CHECK_THROWS_WITH(ReadBasicType(empty, false, &f),
                    Catch::Contains("Expected a number but found"));
}

TEST_CASE("bool", "[io-funcs]") {
  std::ostringstream bin, text;
  WriteBasicType(bin, true, true);
  WriteBasicType(bin, true, false);
  WriteBasicType(text, false, true);
  CHECK(bin.str() == "TF");
  CHECK(text.str() == "T ");
  std::istringstream is("TF");
  bool b1, b2;
  ReadBasicType(is, true, &b1);
  ReadBasicType(is, true, &b2);
  CHECK(b1);
  CHECK(!b2);
  std::istringstream bad("X");
  CHECK_THROWS_AS(ReadBasicType(bad, true, &b1), UserError);
}

TEST_CASE("tokens: Expect, Peek, the <-less form", "[io-funcs]") {
  std::ostringstream os;
  WriteToken(os, true, "<Nnet3>");
  WriteToken(os, true, "<LearningRate>");
  CHECK(os.str() == "<Nnet3> <LearningRate> ");
  std::istringstream is(os.str());
  ExpectToken(is, true, "<Nnet3>");
  CHECK(PeekToken(is, true) == 'L');
  std::string tok;
  ReadToken(is, true, &tok);
  CHECK(tok == "<LearningRate>");
  std::istringstream lenient("Foo> <Bar> ");
  ExpectToken(lenient, false, "<Foo>");
  CHECK_THROWS_AS(ExpectToken(lenient, false, "<Baz>"), UserError);
  std::istringstream empty("");
  CHECK_THROWS_AS(ExpectToken(empty, false, "<Foo>"), UserError);
  std::istringstream no_space("<Foo>");
  CHECK_THROWS_AS(ReadToken(no_space, false, &tok), UserError);
}

TEST_CASE("integer vectors and pair vectors", "[io-funcs]") {
  std::vector<int32_t> v = {1, -2, 300};
  std::ostringstream bin, text;
  WriteIntegerVector(bin, true, v);
  WriteIntegerVector(text, false, v);
  CHECK(bin.str().size() == 1 + 4 + 12);
  CHECK(bin.str()[0] == 4);
  CHECK(text.str() == "[ 1 -2 300 ]\n");
  std::vector<int32_t> r;
  std::istringstream bis(bin.str()), tis(text.str());
  ReadIntegerVector(bis, true, &r);
  CHECK(r == v);
  ReadIntegerVector(tis, false, &r);
  CHECK(r == v);
  std::vector<std::pair<int32_t, int32_t>> p = {{1, 2}, {3, -4}};
  std::ostringstream pb, pt;
  WriteIntegerPairVector(pb, true, p);
  WriteIntegerPairVector(pt, false, p);
  CHECK(pb.str().size() == 1 + 4 + 16);
  CHECK(pt.str() == "[ 1,2 3,-4 ]\n");
  std::vector<std::pair<int32_t, int32_t>> q;
  std::istringstream pbi(pb.str()), pti(pt.str());
  ReadIntegerPairVector(pbi, true, &q);
  CHECK(q == p);
  ReadIntegerPairVector(pti, false, &q);
  CHECK(q == p);
  std::istringstream truncated(bin.str().substr(0, 9));
  CHECK_THROWS_AS(ReadIntegerVector(truncated, true, &r), UserError);
  std::istringstream no_bracket("1 2 ]");
  CHECK_THROWS_AS(ReadIntegerVector(no_bracket, false, &r), UserError);
}

TEST_CASE("counts read from a stream are checked against what it holds",
          "[io-funcs]") {
  // A binary integer vector claiming 2^30 elements in a 20-byte stream:
  // the error says so before any memory is allocated.
  std::string bytes("\4", 1);
  const int32_t n = 1 << 30;
  bytes.append(reinterpret_cast<const char *>(&n), sizeof(n));
  bytes.append(15, '\0');
  std::istringstream is(bytes);
  std::vector<int32_t> v;
  std::string message;
  try {
    ReadIntegerVector(is, true, &v);
  } catch (const UserError &e) {
    message = e.what();
  }
  CHECK(message.find("is 1073741824, but only 15 bytes are left") !=
        std::string::npos);
  CHECK(v.capacity() < 1000);

  std::istringstream small(std::string(40, 'x'));
  CHECK(StreamBytesLeft(small) == 40);
  CHECK(CheckCountFits(small, 10, 4, "ten floats") == 10);
  CHECK_THROWS_AS(CheckCountFits(small, 11, 4, "eleven floats"), UserError);
  CHECK_THROWS_AS(CheckCountFits(small, -1, 4, "a negative count"), UserError);
}
