// What the fused-stencil tests share: a random input on the device with three poisoned outputs
// (the fused result and the two buffers the single steps alternate between), and the comparison
// of the fused result's bytes with the single steps' result.
#pragma once

#include "test_support.cuh"

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

namespace gpuprims::test {

template <class T>
struct fused_buffers {
  device_buffer in, fused, a, c;

  // `in_elems` random values in [-1, 1) in `in`; every byte of the outputs poisoned.
  fused_buffers(std::size_t in_elems, std::size_t out_elems)
      : in(in_elems * sizeof(T)),
        fused(out_elems * sizeof(T)),
        a(out_elems * sizeof(T)),
        c(out_elems * sizeof(T)) {
    std::vector<T> host(in_elems);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (auto& x : host) {
      x = static_cast<T>(dist(rng()));
    }
    GPUPRIMS_CHECK_CUDA(
        cudaMemcpy(in.data(), host.data(), in_elems * sizeof(T), cudaMemcpyHostToDevice));
    fused.poison();
    a.poison();
    c.poison();
  }

  // The buffer the last of `steps` single steps wrote (step k writes a for even k, c for odd).
  const device_buffer& single_steps_result(int steps) const { return (steps - 1) % 2 == 0 ? a : c; }

  // Every element `inside(i)` has the same bytes in the fused result as after the single steps;
  // every other byte is still poison.
  template <class Inside>
  void check_same_bits(int steps, Inside inside) const {
    const std::vector<unsigned char> got = fused.download();
    const std::vector<unsigned char> want = single_steps_result(steps).download();
    std::size_t different = 0, padding_touched = 0;
    for (std::size_t i = 0; i < got.size() / sizeof(T); ++i) {
      if (inside(i)) {
        different +=
            std::memcmp(got.data() + i * sizeof(T), want.data() + i * sizeof(T), sizeof(T)) == 0
                ? 0
                : 1;
      } else {
        for (std::size_t k = 0; k < sizeof(T); ++k) {
          padding_touched += got[i * sizeof(T) + k] == poison_byte ? 0 : 1;
        }
      }
    }
    CHECK(different == 0);
    CHECK(padding_touched == 0);
  }
};

}  // namespace gpuprims::test
