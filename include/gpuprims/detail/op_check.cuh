// What every device-wide reduction and scan asks of its accumulator type and operator, checked at
// compile time, with one message for all of them.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda/std/type_traits>

#include <type_traits>

namespace gpuprims::detail {

template <class Op, class T>
inline constexpr bool op_takes =
    std::is_same_v<std::decay_t<cuda::std::invoke_result_t<Op&, const T&, const T&>>, T>;

template <class T, class Op>
constexpr void check_accumulator_types() {
  static_assert(std::is_trivially_copyable_v<T>,
                "the accumulator moves through shuffles: trivially copyable");
  static_assert(op_takes<Op, T>,
                "Op must take two T and return T, the output's type (gpuprims::plus<double> for a "
                "double output): an operator of another type would convert every partial");
}

}  // namespace gpuprims::detail
