// NnetOptimizeOptions: Kaldi's defaults, --optimization.x registration,
// Read/Write round trip and ==.
#include "optimize/nnet-optimize-options.h"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

#include "base/options.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

TEST_CASE("NnetOptimizeOptions defaults are Kaldi's", "[optimize-a]") {
  NnetOptimizeOptions o;
  CHECK(o.optimize);
  CHECK(o.consolidate_model_update);
  CHECK(o.propagate_in_place);
  CHECK(o.backprop_in_place);
  CHECK(o.optimize_row_ops);
  CHECK(o.split_row_ops);
  CHECK(o.extend_matrices);
  CHECK(o.convert_addition);
  CHECK(o.remove_assignments);
  CHECK(o.allow_left_merge);
  CHECK(o.allow_right_merge);
  CHECK(o.initialize_undefined);
  CHECK(o.move_sizing_commands);
  CHECK(o.allocate_from_other);
  CHECK(o.min_deriv_time == std::numeric_limits<int32_t>::min());
  CHECK(o.max_deriv_time == std::numeric_limits<int32_t>::max());
  CHECK(o.max_deriv_time_relative == std::numeric_limits<int32_t>::max());
  CHECK(o.snip_row_ops);
  CHECK(o.memory_compression_level == 1);
  CHECK_FALSE(o.optimize_looped_computation);
}

TEST_CASE("NnetOptimizeOptions registers as --optimization.x", "[optimize-a]") {
  OptionsRegistry po("usage");
  NnetOptimizeOptions o;
  OptionsRegistry opt_po("optimization", &po);
  o.Register(&opt_po);
  const char *argv[] = {"prog",
                        "--optimization.convert-addition=false",
                        "--optimization.min-deriv-time=-3",
                        "--optimization.memory-compression-level=0",
                        "--optimization.allow_left_merge=false",
                        "arg"};
  po.Read(6, argv);
  CHECK(po.NumArgs() == 1);
  CHECK_FALSE(o.convert_addition);
  CHECK(o.min_deriv_time == -3);
  CHECK(o.memory_compression_level == 0);
  CHECK_FALSE(o.allow_left_merge);
  CHECK(o.allow_right_merge);
}

TEST_CASE("NnetOptimizeOptions Read/Write round trip and ==", "[optimize-a]") {
  for (bool binary : {false, true}) {
    NnetOptimizeOptions a;
    a.extend_matrices = false;
    a.max_deriv_time_relative = 5;
    a.min_deriv_time = -10;
    std::ostringstream os;
    a.Write(os, binary);
    NnetOptimizeOptions b;
    CHECK(a != b);
    std::istringstream is(os.str());
    b.Read(is, binary);
    CHECK(a == b);
  }
  NnetOptimizeOptions a, b;
  b.check_after_each_pass = !a.check_after_each_pass;
  CHECK(a == b);  // not an option
  std::istringstream bad("<OptimizationConfig> <Optimize> T <Oops>");
  CHECK_THROWS(a.Read(bad, false));
}

TEST_CASE("OptimizationSwitches cover every pass option", "[optimize-a]") {
  NnetOptimizeOptions off = AllPassesOffOptions();
  CHECK(off.optimize);
  CHECK(off.memory_compression_level == 0);
  CHECK_FALSE(off.convert_addition);
  CHECK(OptimizationSwitches().size() == 15);
  for (const OptimizationSwitch &s : OptimizationSwitches()) {
    NnetOptimizeOptions o = AllPassesOffOptions();
    s.set(true, &o);
    CHECK(o != off);
    s.set(false, &o);
    CHECK(o == off);
  }
}

}  // namespace nnet3
