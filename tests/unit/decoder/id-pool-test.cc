// IdPool (decoder/token-lattice.h): ids from 1 in increasing order, freed
// ids reused last-freed first, and after Reset() (nothing in use) in
// increasing order again whatever the order of the frees, across blocks.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "decoder/token-lattice.h"

namespace nnet3 {

TEST_CASE("IdPool hands ids out in order again after Reset", "[decoder]") {
  IdPool<Token> pool;
  pool.Reset();             // empty: nothing to do
  const uint32_t n = 5000;  // more than one block of 4096
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < n; i++) ids.push_back(pool.Allocate());
  for (uint32_t i = 0; i < n; i++) REQUIRE(ids[i] == i + 1);
  // Freed in a scattered order: reused last-freed first.
  for (uint32_t i = 0; i < n; i++) pool.Free(ids[(i * 7919) % n]);
  CHECK(pool.Allocate() == ids[((n - 1) * 7919) % n]);
  pool.Free(ids[((n - 1) * 7919) % n]);
  pool.Reset();
  for (uint32_t i = 0; i < n + 10; i++) REQUIRE(pool.Allocate() == i + 1);
  CHECK(pool.Capacity() == 2u * 4096u);
}

}  // namespace nnet3
