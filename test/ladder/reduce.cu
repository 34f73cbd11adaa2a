// The reduction ladder: every block-level rung (full and partial tiles, integer and integer-valued
// float sums, and a non-commutative operator for the rungs that keep operand order), and every
// device-wide rung of the notes against the exact integer sum, at sizes around the block and far
// past it.
#include <gpuprims/ladder/reduce.cuh>

#include "support/reduce_check.cuh"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;
using gpuprims::ladder::block_reduce_rung;
using gpuprims::ladder::reduce_rung;

template <int BlockSize, block_reduce_rung Rung>
void check_rung(const char* rung, bool keeps_order) {
  std::mt19937_64& g = rng();
  const std::string name(rung);
  using int_op = gpuprims::plus<std::int32_t>;
  using float_op = gpuprims::plus<float>;
  check_block_reduce<gpuprims::ladder::block_reduce<BlockSize, int_op, Rung>, BlockSize, int_op,
                     std::int32_t>(name + ", int32 plus", [&g](std::size_t) {
    return static_cast<std::int32_t>(g() % 2001) - 1000;
  });
  check_block_reduce<gpuprims::ladder::block_reduce<BlockSize, float_op, Rung>, BlockSize, float_op,
                     float>(name + ", float plus", [&g](std::size_t) {
    return static_cast<float>(static_cast<int>(g() % 17) - 8);
  });
  if (keeps_order) {
    check_block_reduce<gpuprims::ladder::block_reduce<BlockSize, affine_op, Rung>, BlockSize,
                       affine_op, affine>(name + ", affine composition", [&g](std::size_t) {
      return affine{static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
    });
  }
}

template <int BlockSize>
void check_block_rungs() {
  check_rung<BlockSize, block_reduce_rung::interleaved_modulo>("interleaved_modulo", true);
  check_rung<BlockSize, block_reduce_rung::interleaved_strided>("interleaved_strided", true);
  check_rung<BlockSize, block_reduce_rung::sequential>("sequential", false);
  check_rung<BlockSize, block_reduce_rung::unrolled_last_warp>("unrolled_last_warp", false);
  check_rung<BlockSize, block_reduce_rung::complete_unroll>("complete_unroll", false);
}

template <reduce_rung Rung>
void check_device_rung(const char* name) {
  std::mt19937_64& g = rng();
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{513},
                        std::size_t{100003}, (std::size_t{1} << 22) + 7}) {
    INFO(name << ", n = " << n);
    std::vector<std::int32_t> items(n);
    long long expected = 0;
    for (auto& x : items) {
      x = static_cast<std::int32_t>(g() % 2001) - 1000;
      expected += x;
    }
    const std::size_t bytes = gpuprims::ladder::reduce_workspace_bytes<std::int32_t>(n);
    device_buffer in(n * sizeof(std::int32_t)), out(sizeof(std::int32_t)), workspace(bytes);
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(in.data(), items.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    out.poison();
    workspace.poison();
    GPUPRIMS_CHECK_CUDA(gpuprims::ladder::reduce<Rung>(
        reinterpret_cast<const std::int32_t*>(in.data()),
        reinterpret_cast<std::int32_t*>(out.data()), n, workspace.data(), bytes));
    GPUPRIMS_CHECK_LAUNCH();
    std::int32_t got = 0;
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(&got, out.data(), sizeof(got), cudaMemcpyDeviceToHost));
    CHECK(got == expected);
  }
}

}  // namespace

TEST_CASE("every rung of the block_reduce ladder is right, full and partial tiles",
          "[reduce][ladder][gpu]") {
  SECTION("BlockSize 32") { check_block_rungs<32>(); }
  SECTION("BlockSize 64") { check_block_rungs<64>(); }
  SECTION("BlockSize 128") { check_block_rungs<128>(); }
  SECTION("BlockSize 96") { check_block_rungs<96>(); }
  SECTION("BlockSize 256") { check_block_rungs<256>(); }
  SECTION("BlockSize 992") { check_block_rungs<992>(); }
  SECTION("BlockSize 1024") { check_block_rungs<1024>(); }
}

TEST_CASE("every device-wide rung of the notes sums exactly", "[reduce][ladder][gpu]") {
  check_device_rung<reduce_rung::reduce0_interleaved_modulo>("reduce0");
  check_device_rung<reduce_rung::reduce1_interleaved_strided>("reduce1");
  check_device_rung<reduce_rung::reduce2_sequential>("reduce2");
  check_device_rung<reduce_rung::reduce3_first_add_during_load>("reduce3");
  check_device_rung<reduce_rung::reduce4_unrolled_last_warp>("reduce4");
  check_device_rung<reduce_rung::reduce5_complete_unroll>("reduce5");
  check_device_rung<reduce_rung::reduce6_cascading>("reduce6");
  check_device_rung<reduce_rung::warp_shuffle_cascading>("warp_shuffle_cascading");
}

TEST_CASE("ladder::reduce rejects null pointers and a short workspace", "[reduce][ladder][gpu]") {
  device_buffer buffer(4096);
  auto* data = reinterpret_cast<std::int32_t*>(buffer.data());
  CHECK(gpuprims::ladder::reduce<reduce_rung::reduce2_sequential>(
            data, data + 8, 300, buffer.data(), 8) == cudaErrorInvalidValue);
  CHECK(gpuprims::ladder::reduce<reduce_rung::reduce2_sequential>(
            static_cast<const std::int32_t*>(nullptr), data, 4, buffer.data(), 4096) ==
        cudaErrorInvalidValue);
}
