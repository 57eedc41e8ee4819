#include "compile/computation-request.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <unordered_set>

#include "base/error.h"
#include "computation-test-utils.h"

namespace nnet3 {

namespace {

ComputationRequest ExampleRequest() {
  ComputationRequest r;
  std::vector<Index> input;
  for (int32_t n = 0; n < 2; n++)
    for (int32_t t = -3; t < 8; t++) input.push_back(Index(n, t, 0));
  r.inputs.push_back(IoSpecification("input", input, true));
  r.inputs.push_back(IoSpecification(
      "ivector", std::vector<Index>{Index(0, 0, 0), Index(1, 0, 0)}));
  // An index that needs the long binary code.
  r.inputs.back().indexes.push_back(Index(7, 1000, -3));
  r.outputs.push_back(IoSpecification("output", 0, 5));
  r.outputs.back().has_deriv = true;
  r.need_model_derivative = true;
  return r;
}

}  // namespace

TEST_CASE("IoSpecification basics", "[computation]") {
  IoSpecification io("output", 2, 5);
  REQUIRE(io.indexes ==
          std::vector<Index>{Index(0, 2), Index(0, 3), Index(0, 4)});
  REQUIRE_FALSE(io.has_deriv);
  IoSpecification other = io;
  REQUIRE(io == other);
  other.has_deriv = true;
  REQUIRE_FALSE(io == other);
  REQUIRE(IoSpecificationHasher()(io) != IoSpecificationHasher()(other));
  std::ostringstream os;
  io.Print(os);
  REQUIRE(os.str() == "name=output, has-deriv=false, indexes=[ (0, 2:4) ]\n");
}

TEST_CASE("ComputationRequest queries", "[computation]") {
  ComputationRequest r = ExampleRequest();
  REQUIRE(r.IndexForInput("ivector") == 1);
  REQUIRE(r.IndexForInput("output") == -1);
  REQUIRE(r.IndexForOutput("output") == 0);
  REQUIRE(r.NeedDerivatives());
  ComputationRequest plain;
  plain.inputs.push_back(IoSpecification("input", 0, 3));
  plain.outputs.push_back(IoSpecification("output", 0, 3));
  REQUIRE_FALSE(plain.NeedDerivatives());
  plain.outputs[0].has_deriv = true;
  REQUIRE(plain.NeedDerivatives());
}

TEST_CASE("ComputationRequest equality and hashing", "[computation]") {
  ComputationRequest a = ExampleRequest(), b = ExampleRequest();
  ComputationRequestHasher hasher;
  REQUIRE(a == b);
  REQUIRE(hasher(&a) == hasher(&b));
  // Each field matters for equality, and these changes also for the hash.
  std::vector<ComputationRequest> variants(5, a);
  variants[0].inputs[0].indexes.pop_back();
  variants[1].outputs[0].has_deriv = false;
  variants[2].need_model_derivative = false;
  variants[3].store_component_stats = true;
  std::swap(variants[4].inputs[0], variants[4].inputs[1]);
  for (const ComputationRequest &v : variants) {
    REQUIRE_FALSE(v == a);
    REQUIRE(hasher(&v) != hasher(&a));
  }
  // Usable as a hash-set key through pointers.
  std::unordered_set<const ComputationRequest *, ComputationRequestHasher,
                     ComputationRequestPtrEqual>
      set;
  set.insert(&a);
  REQUIRE(set.count(&b) == 1);
  REQUIRE(set.count(&variants[2]) == 0);
}

TEST_CASE("ComputationRequest Print", "[computation]") {
  ComputationRequest r;
  r.inputs.push_back(IoSpecification("input", -1, 3));
  r.outputs.push_back(IoSpecification("output", 0, 2));
  r.outputs[0].has_deriv = true;
  std::ostringstream os;
  r.Print(os);
  REQUIRE(os.str() ==
          " # Computation request:\n"
          "input-0: name=input, has-deriv=false, indexes=[ (0, -1:2) ]\n"
          "output-0: name=output, has-deriv=true, indexes=[ (0, 0:1) ]\n"
          "need-model-derivative: false\n"
          "store-component-stats: false\n");
}

TEST_CASE("ComputationRequest Read/Write round trip", "[computation]") {
  ComputationRequest r = ExampleRequest();
  for (bool binary : {false, true}) {
    std::string bytes = WriteToString(r, binary);
    ComputationRequest r2 = ReadFromString<ComputationRequest>(bytes, binary);
    REQUIRE(r2 == r);
    REQUIRE(WriteToString(r2, binary) == bytes);
  }
  std::string text = WriteToString(r, false);
  REQUIRE(text.find("<ComputationRequest> ") == 0);
  REQUIRE(text.find("<NumInputs> 2 <Inputs>") != std::string::npos);
  REQUIRE(text.find("<IoSpecification> \n<Name> input <NumIndexes> 22 "
                    "<Indexes> <I1V> 22 <I1> 0 -3 0 ") != std::string::npos);
  REQUIRE(text.find("<NeedModelDerivative> T <StoreComponentStats> F") !=
          std::string::npos);
}

TEST_CASE("ComputationRequest Read rejects bad input", "[computation]") {
  std::string text = WriteToString(ExampleRequest(), false);
  // Truncated.
  REQUIRE_THROWS_AS(ReadFromString<ComputationRequest>(
                        text.substr(0, text.size() / 2), false),
                    UserError);
  // <NumIndexes> disagreeing with the vector.
  std::string bad = text;
  size_t pos = bad.find("<NumIndexes> 22");
  bad.replace(pos, 15, "<NumIndexes> 21");
  REQUIRE_THROWS_AS(ReadFromString<ComputationRequest>(bad, false), UserError);
}

}  // namespace nnet3
