// Tuning of gpuprims::apply_stencil1d (and its fused steps), 2D and 3D stencils: a plain policy,
// chosen by architecture, element size and radius. Pass your own selector (a type with the same
// static select) as the launcher's Tuning argument to override it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/types.cuh>

#include <cstddef>

namespace gpuprims {

/// How apply_stencil1d tiles a signal.
struct stencil_policy {
  int block_threads;     ///< threads per (1D) block
  int items_per_thread;  ///< outputs per thread; a multiple of 16 / sizeof(T) moves 16-byte vectors
  int min_blocks;        ///< resident blocks per SM to keep registers for (capped by the target)
  bool dependent_launch;  ///< programmatic dependent launch where the code has it
  /// apply_stencil1d_fused only: each warp steps a tile of 32 x items_per_thread in registers,
  /// halos passed between lanes by shuffles (no block-wide barrier); false: each block steps its
  /// tile in shared memory, a barrier a step.
  bool fused_in_registers = false;
  /// With fused_in_registers: each lane holds a run of items_per_thread consecutive elements, so a
  /// step shuffles only the 2 x Rad elements beside the run and selects none; runs of whole 16-byte
  /// words reach global memory coalesced through a stage in shared memory (32 x items_per_thread
  /// elements a warp). false: lane l holds the units l, l + 32, l + 64, ... (each load and store
  /// a coalesced 512-byte span, no shared memory), 2 x Rad shuffles a unit and selects for the
  /// lanes at the warp's ends.
  bool fused_contiguous_lanes = false;
};

/// The library's stencil policy for code built for `arch` (compute capability x 10), elements of
/// `element_size` bytes (float or double) and radius `radius`.
struct stencil_tuning {
  /// Registers capped for a whole SM of threads, three quarters with several vectors per thread or
  /// with doubles, half with both: the tile's loads in flight come from occupancy, and the compute
  /// keeps one word and the accumulators live, so nothing spills (test/codegen/stencil.cu). On the
  /// H100 (2048 threads per SM, 256-thread blocks): 8, 6, 6 and 4 blocks (since commit 756e113).
  __host__ __device__ static constexpr int min_blocks_for(int arch, std::size_t element_size,
                                                          int items_per_thread, int block_threads) {
    const int vector = 16 / static_cast<int>(element_size);
    const int units = items_per_thread % vector == 0 ? items_per_thread / vector : items_per_thread;
    const int quarters = 4 - (units > 1 ? 1 : 0) - (element_size == 8 ? 1 : 0);
    return detail::arch::limits_of(arch).max_threads_per_sm * quarters / (4 * block_threads);
  }

  __host__ __device__ static constexpr stencil_policy select(int arch, std::size_t element_size,
                                                             int radius) {
    stencil_policy p{};
    // The H100 sweep (stencil_rad<R>, 256-thread blocks): one 16-byte vector per thread was best up
    // to radius 3; at radius 8 and 16 four vectors won at 2^28 floats (1.004x against 0.946x and
    // 1.000x against 0.907x cudaMemcpyAsync): the halo is a smaller share of a longer tile.
    p.block_threads = 256;
    int vectors = radius <= 4 ? 1 : 4;
    // Two vectors a thread for floats up to radius 4 on the H200 (sm_90; sm_100 and sm_103 until
    // measured there), whose DRAM wants more bytes in flight an SM than the H100's: at 2^28 floats
    // 515 / 518 us at radius 1 / 3 against 549-553 / 560-561 for one vector (cudaMemcpyAsync
    // 510-511; 256 x 16 529 / 550, 512 x 8 533 / 542; one binary, two runs, 2026-11-28,
    // docs/stencil.md). Not measured on the H100 (one vector there: 1.010x / 1.001x the copy), nor
    // for doubles.
    if (radius <= 4 && element_size == 4 && arch >= 90 && arch < 110) {
      vectors = 2;
    }
    p.items_per_thread = vectors * (16 / static_cast<int>(element_size));
    p.min_blocks = min_blocks_for(arch, element_size, p.items_per_thread, p.block_threads);
    p.dependent_launch = true;
    return p;
  }
};

/// The library's policy for apply_stencil1d_fused (the same policy type as apply_stencil1d's).
struct stencil_fused_tuning {
  __host__ __device__ static constexpr stencil_policy select(int arch, std::size_t element_size,
                                                             int radius) {
    stencil_policy p = stencil_tuning::select(arch, element_size, radius);
    // Floats up to radius 4: each warp steps a tile of 32 x 16 floats in registers, halos by
    // shuffles, no barrier (the shared-memory tile below moves 64 bytes of shared memory an output
    // vector at every step and waits on a barrier a step). On an H200, 2^28 floats, two builds run
    // old / new / old / new in one call (2026-11-28, docs/stencil.md), us at 2 / 4 / 8 steps:
    // radius 1 521-523 / 527 / 651-662 against 587-591 / 741-742 / 1260-1262 for the
    // shared-memory tile (54fd103's build); radius 3 514-517 / 682-687 / 1084-1099 against
    // 594-600 / 750-752 / 1270-1280.
    // Each lane holds a run of 16 consecutive floats (fused_contiguous_lanes), its words in and
    // out through a 2 KiB stage a warp in shared memory: a step shuffles 2 x radius floats a lane
    // (not a vector) and selects none. Blocks of 128 threads, registers for 8 an SM (64 a thread,
    // no spill: test/codegen/stencil.cu). One binary, three runs on an H200 (2026-11-29,
    // docs/stencil.md), us at 2 / 4 / 8 steps: radius 3 519-523 / 592-601 / 870-873 against
    // 516-518 / 680-700 / 1081-1092 for lane l holding the vectors l, l + 32, ... in blocks of 256
    // (the previous default) and 522-524 / 607-619 / 885-896 for runs in blocks of 256; radius 1
    // 522-524 / 525-527 / 587-589 against 524 / 527-529 / 657-661 and 523-524 / 526-527 / 600-601.
    // Measured only there. Doubles (not measured with it) keep the shared-memory tile.
    if (element_size == 4 && radius <= 4) {
      p.block_threads = 128;
      p.items_per_thread = 16;
      p.min_blocks = 8;
      p.fused_in_registers = true;
      p.fused_contiguous_lanes = true;
      return p;
    }
    // Otherwise four 16-byte vectors a thread where an SM's shared memory holds six or more such
    // blocks: a fused tile of 256 x 16 floats takes two buffers of about 16 KiB (32.8 KiB at
    // radius 3, four steps), so an H100 (228 KiB) keeps 1536 threads resident, and the halo
    // recomputed at every step is a smaller share of the tile. On the H100, 2^28 floats, four
    // steps (one run, stencil1d_fused_rad<R>_steps4, docs/stencil.md): 808 and 809 us at radius 1
    // and 3, against 949 and 1013 us for one vector a thread (3.49x and 3.52x four single steps).
    // GPUs with 164 KiB or less would keep four blocks or fewer; they keep the single-step tile,
    // not measured with the longer one.
    constexpr int kb = 1024;
    if (detail::arch::limits_of(arch).shared_bytes_per_sm >= 228 * kb) {
      p.items_per_thread = 4 * (16 / static_cast<int>(element_size));
      p.min_blocks =
          stencil_tuning::min_blocks_for(arch, element_size, p.items_per_thread, p.block_threads);
    }
    return p;
  }
};

/// How apply_stencil2d covers a grid. Register streaming (warps > 0): blocks of `warps` warps,
/// each warp a strip of 32 16-byte vectors across and `rows` rows down (gpuprims::warp_stencil2d),
/// `batch` rows' loads in flight at once (or, `staged`, all of a strip's rows copied into shared
/// memory first), registers for `min_blocks` resident blocks an SM (capped by the target). The
/// shared tile (warps == 0; gpuprims::stencil2d): blocks of block_x x block_y threads, each
/// computing items_y outputs down a column.
struct stencil2d_policy {
  int warps;
  int rows;
  int batch;
  int min_blocks;
  int block_x;
  int block_y;
  int items_y;
  int staged = 0;  ///< streaming: inner strips' rows copied into shared memory all at once first
  bool dependent_launch = true;  ///< programmatic dependent launch where the code has it (sm_90)
};

/// The library's 2D stencil policy for code built for `arch`, elements of `element_size` bytes,
/// radius `radius` and shape `shape`.
struct stencil2d_tuning {
  __host__ __device__ static constexpr stencil2d_policy select(int /*arch*/,
                                                               std::size_t element_size, int radius,
                                                               stencil_shape shape) {
    // Register streaming: strips of 8 rows, 2 rows a batch (the next batch's loads in flight
    // during this one's arithmetic), registers for 6 blocks of 4 warps an SM. On the H100 (one
    // run, 5-point, 8192^2 / 16384^2 floats, docs/stencil.md): 197.6 / 743 us, against 206.7 / 759
    // for strips of 16 rows and batches of 4 at 5 blocks, 231.8 / 803 for 32 and 4 at 4 blocks:
    // a warp has only a batch or two of rows in flight, so the bytes an SM has in flight grow
    // with its resident warps, and a strip's start issues 2 Rad + 2 batches of rows at once.
    // Floats of radius 1 stage the inner strips' 10 rows in shared memory at once by background
    // copies (20 KiB a block), the whole strip in flight without registers: in two runs of one
    // binary, 5-point 195.1 / 194.3 us (8192^2) and 734.9 / 732.6 (16384^2) against 196.6 /
    // 197.4 and 741.7 / 742.5 unstaged; the 9-point box at 5 blocks (its registers spill at 6)
    // 194.7 / 194.8 and 731.8 / 731.6 against 199.1 / 199.2 and 745.2 / 746.2; staged strips of
    // 16 rows, 8 warps a block or 8 blocks an SM were slower. Where an SM's shared memory holds
    // fewer such blocks (100 KiB on sm_86/89/120), fewer are resident. Doubles of radius 1 fit 4
    // blocks, unstaged; larger stars and the radius-2 box 3, unstaged (neither measured). The
    // boxes of radius 3 and 4 (49 and 81 weights) spill even so and take the shared tile of 32 x 8
    // threads, 4 outputs each. sm_90 registers for every case are checked by
    // test/codegen/stencil2d.cu (no spills).
    if (radius == 1 && element_size <= 4) {
      return {4, 8, 2, shape == stencil_shape::star ? 6 : 5, 0, 0, 0, 1};
    }
    if (radius == 1) {
      return {4, 8, 2, 4, 0, 0, 0, 0};
    }
    if (shape == stencil_shape::star || radius == 2) {
      return {4, 8, 2, 3, 0, 0, 0};
    }
    return shared_tile();
  }
  /// The shared tile: 32 x 8 threads, 4 outputs each down a column (the boxes of radius 3 and 4,
  /// and the user updates of those radii, which take the box's policy).
  __host__ __device__ static constexpr stencil2d_policy shared_tile() {
    return {0, 0, 0, 0, 32, 8, 4};
  }
};

/// How apply_stencil3d covers a grid. Register streaming (warps > 0): blocks of `warps` warps, each
/// warp a strip of 32 16-byte vectors across and `rows` rows down (gpuprims::warp_stencil3d)
/// marched along z through a chunk of z_chunk planes, a plane's rows in registers and the next
/// plane's loads in flight, registers for `min_blocks` resident blocks an SM (capped by the
/// target), the planes `prefetch` ahead asked of the L2. The shared ring (warps == 0;
/// gpuprims::stencil3d): blocks of block_x x block_y threads, each computing items_y outputs down a
/// column of every plane of a chunk (a ring of 2 Rad + 2 planes of the block x items_y tile and its
/// halo in shared memory for a star, two for a box).
struct stencil3d_policy {
  int warps;
  int rows;
  int z_chunk;
  int min_blocks;
  int block_x;
  int block_y;
  int items_y;
  /// Streaming: a strip whose rows lie inside the grid asks the L2 for each plane this many
  /// planes before it loads it (0: never).
  int prefetch = 0;
  /// Streaming: the warps at work at one time that the order of a grid's strips is planned for
  /// (0: the device's, its multiprocessors x min_blocks x warps). A strip's next chunk starts about
  /// that many strips after it, so about when it ends, and finds the planes the two chunks share
  /// in the L2.
  int order_warps = 0;
};

/// The library's 3D stencil policy for code built for `arch`, elements of `element_size` bytes,
/// radius `radius` and shape `shape`.
struct stencil3d_tuning {
  __host__ __device__ static constexpr stencil3d_policy select(int arch, std::size_t element_size,
                                                               int radius, stencil_shape shape) {
    // Register streaming (warp strips marched along z) for every star and the radius-1 box; the
    // larger boxes ((2 radius + 1)^3 multiply-adds an output, unrolled) spill in registers and keep
    // the shared ring. On the H100 (512^3 floats, periodic, one run, docs/stencil.md): 7-point
    // 398.2 us against 527.0 for the shared ring (the copy of the grid 367.2); 27-point 578.3
    // with chunks of 32 planes against 681.1 with 64 and 656.9 for the shared ring. Strips of 8
    // warps at 2 blocks an SM ran 392.8 us (not kept on one run); strips of 2 rows 466.1, of 8
    // rows 455.2. Since the single rows run first (twenty-sixth session; one binary, two runs):
    // the 7-point star with chunks of 32 planes 389.3-389.4 us against 396.8-397.4 with 64; the
    // box 487.4 with 32 against 502.3-502.7 with 64 (copy 363.9-364.3).
    if (shape == stencil_shape::box && radius > 1) {
      return shared_ring(element_size, radius, shape);
    }
    stencil3d_policy p = streaming(element_size, radius, shape);
    // The box waits on its loads, not on DRAM's bandwidth: asking the L2 for each plane 2 planes
    // ahead took the 27-point box of floats from 486-490 us to 425-428 on the H100 (512^3; two
    // binaries, three runs each, twenty-seventh session); 1 plane ahead 427-444, 3 440-453, 4
    // 441-443. The star, near DRAM's bandwidth already, lost with every prefetch tried (426-582 us
    // against 388-393). Set where H100-measured values go (sm_90, and sm_100 and sm_103 until
    // measured there: the GPUs with 228 KiB of shared memory an SM, docs/design.md).
    if (shape == stencil_shape::box &&
        detail::arch::limits_of(arch).shared_bytes_per_sm >= 228 * 1024) {
      p.prefetch = 2;
    }
    return p;
  }

  /// Register streaming: the tallest strip (4, 2 or 1 rows) whose rows and outputs fit in 64
  /// words a lane (44 for the box); registers for 4 blocks of 4 warps an SM at radius 1, 3 past it
  /// (2 where even a strip of one row needs more than 80 words), 3 for the radius-1 box: the most
  /// that ptxas (sm_90, CUDA 13.0) fits without spilling, checked by test/codegen/stencil3d.cu.
  __host__ __device__ static constexpr stencil3d_policy streaming(std::size_t element_size,
                                                                  int radius, stencil_shape shape) {
    const int words = static_cast<int>(element_size / 4);
    const int budget = shape == stencil_shape::box ? 44 : 64;
    int rows = 4;
    while (rows > 1 && register_words(words, radius, shape, rows) > budget) {
      rows /= 2;
    }
    if (shape == stencil_shape::box) {
      return {4, rows, 32, 3, 0, 0, 0};
    }
    const int blocks = radius == 1 ? 4 : (register_words(words, radius, shape, rows) > 80 ? 2 : 3);
    // Chunks of 32 planes at radius 1 (measured); 64 past it, where a chunk's 2 radius planes of
    // halo are a larger share of its reads (not measured with 32).
    return {4, rows, radius == 1 ? 32 : 64, blocks, 0, 0, 0};
  }

  /// The 32-bit words a streaming lane holds its rows and outputs in: one plane of rows + 2 radius
  /// rows (a 16-byte vector and a halo column each), and the star's kept centre rows and waiting
  /// outputs (2 radius planes of rows) or the box's outputs (2 radius + 1 planes of rows).
  __host__ __device__ static constexpr int register_words(int words, int radius,
                                                          stencil_shape shape, int rows) {
    const int planes = (rows + 2 * radius) * (4 + words);
    const int outputs = (shape == stencil_shape::star ? 2 * radius : 2 * radius + 1) * rows * 4;
    return planes + outputs;
  }

  /// The shared ring's policy (the ladder's rung before streaming).
  __host__ __device__ static constexpr stencil3d_policy shared_ring(std::size_t element_size,
                                                                    int radius,
                                                                    stencil_shape shape) {
    if (shape == stencil_shape::box) {
      // 32 x 8 threads, tiles of 32 x (8 x items_y): each thread keeps the outputs of 2 radius + 1
      // planes in registers, items_y of each, so items_y is the largest of 4, 2 and 1 that keeps
      // them within 20 words (the radius-1 box of doubles spilled at 24). Registers for 2 blocks
      // an SM: on the H100 (512^3 floats, one run, docs/stencil.md) 662 us; 3 blocks ran 582 but
      // spill 16 bytes (so do 32 x 8 x 2 for 4 blocks, 623); 32 x 8 x 2 for 3 blocks 709, 32 x 4
      // x 4 for 4 blocks 628, 32 x 8 x 8 648, chunks of 128 planes 678.
      const int words = static_cast<int>(element_size / 4);
      for (int items = 4; items > 1; items /= 2) {
        if ((2 * radius + 1) * items * words <= 20) {
          return {0, 0, 64, 2, 32, 8, items};
        }
      }
      return {0, 0, 64, 2, 32, 8, 1};
    }
    // 32 x 8 threads, tiles of 32 x (8 x items_y) with items_y the largest of 4, 2 and 1 whose
    // ring fits in 40 KiB of shared memory (within the 48 KiB of static shared memory every GPU
    // gives a block); 32 x 4 threads where even one item does not (radius 4, doubles). Chunks of 64
    // planes: a chunk reloads 2 Rad planes of halo. Registers for 4 blocks an SM: on the H100
    // (512^3 floats, one run, docs/stencil.md) 531 us for the 7-point stencil against 651 for 2
    // blocks; of the other tiles and chunks only 32 x 4 threads for 8 blocks was faster (515 us,
    // 3%, one run: not made the default).
    constexpr std::size_t budget = 40 * 1024;
    for (int items = 4; items >= 1; items /= 2) {
      if (ring_bytes(element_size, radius, 8, items) <= budget) {
        return {0, 0, 64, 4, 32, 8, items};
      }
    }
    return {0, 0, 64, 4, 32, 4, 1};
  }

  /// The star's ring of a 32-column block: 2 radius + 2 planes of (block_y x items_y + 2 radius) x
  /// (32 + 2 radius) elements.
  __host__ __device__ static constexpr std::size_t ring_bytes(std::size_t element_size, int radius,
                                                              int block_y, int items_y) {
    return static_cast<std::size_t>(2 * radius + 2) *
           static_cast<std::size_t>(block_y * items_y + 2 * radius) *
           static_cast<std::size_t>(32 + 2 * radius) * element_size;
  }
};

/// How apply_stencil2d_fused covers a grid. warps > 0: register streaming, blocks of `warps` warps,
/// each warp marching down strips `rows` output rows tall (32 16-byte vectors wide, overlapping
/// their neighbours by the columns the steps recompute), every step's rows in registers, input rows
/// copied ahead into a shared ring of `ring` rows a warp (ring - 1 in flight), at least
/// `min_blocks` blocks an SM. warps == 0: the shared tile, blocks of
/// block_x x block_y threads, each block computing a span of span_x x span_y points at every step
/// (its tile and Steps x Rad points around it), two buffers of the span and Rad more on every side
/// in shared memory.
struct stencil2d_fused_policy {
  int warps;
  int rows;
  int ring;
  int min_blocks;
  int span_x;
  int span_y;
  int block_x;
  int block_y;
  bool dependent_launch = true;  ///< programmatic dependent launch where the code has it (sm_90)
};

/// The library's fused 2D stencil policy for code built for `arch`, elements of `element_size`
/// bytes, radius `radius` and `steps` fused steps.
struct stencil2d_fused_tuning {
  __host__ __device__ static constexpr stencil2d_fused_policy select(int /*arch*/,
                                                                     std::size_t element_size,
                                                                     int radius, int steps) {
    // Streaming keeps steps x (2 radius + 1) rows of a 16-byte vector (4 registers) a lane: up to
    // 64 such registers at 4 blocks of 4 warps an SM (4 steps of radius 1, 2 of radius 2), up to
    // 128 at 2 blocks (8 steps of radius 1, 4 of radius 2), whatever the type; strips of 16 and
    // 32 rows, a ring of 8 rows a warp. Deeper fusions take the shared tile. Measured on the H100
    // (docs/stencil.md): 16-row strips beat 8, 12, 32 and 64 at 4 steps; 32 rows beat 16 at 8.
    // Since the edge strips copy through their ring (forty-fifth session), 32-row strips beat 16
    // at 4 steps on an H200 and lose at 2 (one call, 16 rows / 32 rows alternated, three runs of
    // each build, us at 8192^2 / 16384^2; notes/stencil.md): 4 steps, 5-point 199.7-203.1 /
    // 682.7-739.6 -> 193.8-196.1 / 657.8-658.9, 9-point 283.7-286.5 / 1020.1-1037.9 -> 255.8-263.8
    // / 891.6-912.3, the heat update 215.3-223.2 / 771.9-843.1 -> 200.6-201.4 / 670.9-690.9; 2
    // steps, 5-point 162.1-163.6 / 597.9-601.5 -> 176.2-178.1 / 634.4-637.5, 9-point 166.8-167.9 /
    // 603.0-655.3 -> 179.1-179.8 / 637.3-640.3. So 32 rows from 4 steps (radius 1 at 4 and 5
    // steps), 16 below (3 steps, and radius 2 at 2 steps: no height clearly faster). 24 and 22 rows
    // spill 8 bytes in the 4-step heat update (test/codegen/stencil2d.cu); 32 do not.
    const int words = steps * (2 * radius + 1) * 4;
    if (words <= 64) {
      return {4, steps >= 4 ? 32 : 16, 8, 4, 0, 0, 0, 0};
    }
    if (words <= 128) {
      return {4, 32, 8, 2, 0, 0, 0, 0};
    }
    return shared_tile(element_size);
  }
  /// The shared tile (deeper fusions): spans of 64 x 64 floats (two buffers
  /// of 66 x 66 at radius 1: 34.0 KiB; 40.5 KiB at radius 4) and 64 x 32 doubles (35.1 / 45.0
  /// KiB), within the 48 KiB of static shared memory every GPU gives a block; 32 x 8 threads.
  /// First values, not tuned.
  __host__ __device__ static constexpr stencil2d_fused_policy shared_tile(
      std::size_t element_size) {
    if (element_size <= 4) {
      return {0, 0, 0, 0, 64, 64, 32, 8};
    }
    return {0, 0, 0, 0, 64, 32, 32, 8};
  }
};

/// How apply_stencil3d_fused covers a grid: blocks of block_x x block_y threads, each taking a
/// column of tiles through a chunk of z_chunk planes. Every step of a plane is computed over a span
/// of span_x x span_y points shrinking by the radius a step (the tile and steps x radius points
/// on each side for the first step, the tile for the last); each step keeps 2 radius + 1 planes of
/// its inputs (the step before) in shared memory, the first step 2 radius + 1 + `prefetch` input
/// planes (`prefetch` of them copied ahead in the background): steps x (2 radius + 1) + prefetch
/// planes of span_x x span_y elements (shared_bytes), dynamic shared memory; registers for
/// `min_blocks` resident blocks an SM (capped by the target).
struct stencil3d_fused_policy {
  int block_x;
  int block_y;
  int span_x;
  int span_y;
  int z_chunk;
  int prefetch;
  int min_blocks;
};

/// apply_stencil3d_fused's register streaming (rows > 0): blocks of `warps` warps stacked along y,
/// each lane `rows` consecutive rows of a span one 16-byte vector a lane wide (32 vectors) and
/// warps x rows rows tall, marching along z through chunks of `z_chunk` planes; input planes are
/// copied into a shared ring of `ring` planes (ring - 1 in flight); every step's planes stay in
/// registers, its newest plane also in shared memory for the rows above and below. Registers for
/// `min_blocks` blocks an SM. rows == 0: the shared rings of stencil3d_fused_policy. After each
/// plane's barrier, `rows_first` reads the plane's rows from the ring before issuing the next
/// plane's copies (so the copies' instructions cover the shared loads' latency); otherwise the
/// copies go first.
struct stencil3d_fused_strip_policy {
  int warps;
  int rows;
  int ring;
  int z_chunk;
  int min_blocks;
  bool rows_first = false;
};

/// The library's fused 3D stencil policy for code built for `arch`, elements of `element_size`
/// bytes, radius `radius` and `steps` fused steps.
struct stencil3d_fused_tuning {
  /// One step of weights runs apply_stencil3d's kernel (stencil3d_tuning), the same bits and
  /// faster than the fused kernels at one step; a tuning without this member (or false) keeps the
  /// fused kernels.
  static constexpr bool one_step_by_stencil3d = true;
  /// The shared memory a block of policy `p` takes.
  __host__ __device__ static constexpr std::size_t shared_bytes(const stencil3d_fused_policy& p,
                                                                std::size_t element_size,
                                                                int radius, int steps) {
    return static_cast<std::size_t>(steps * (2 * radius + 1) + p.prefetch) *
           static_cast<std::size_t>(p.span_x) * static_cast<std::size_t>(p.span_y) * element_size;
  }
  /// The most shared memory a block of code built for `arch` may take (the SM's less the 1 KiB the
  /// hardware reserves per block).
  __host__ __device__ static constexpr std::size_t block_shared_limit(int arch) {
    return static_cast<std::size_t>(detail::arch::limits_of(arch).shared_bytes_per_sm - 1024);
  }
  __host__ __device__ static constexpr stencil3d_fused_policy select(int arch,
                                                                     std::size_t element_size,
                                                                     int radius, int steps) {
    // 32 x 8 threads on spans 32 columns wide, as tall as 32 rows or the tallest that fits the
    // block's shared memory (a tile at least a row tall); chunks of 64 planes, 4 input planes in
    // flight, registers for 3 blocks an SM (the 27-point box took 114 without a bound, and spills
    // at 4 blocks). First values: two steps of radius 1 take 40 KiB of floats, four 64 KiB, eight
    // 112 KiB (tiles of 28^2, 24^2 and 16^2).
    stencil3d_fused_policy p{32, 8, 32, 32, 64, 4, 3};
    while (p.span_y > 2 * steps * radius + 1 &&
           shared_bytes(p, element_size, radius, steps) > block_shared_limit(arch)) {
      --p.span_y;
    }
    return p;
  }
  /// The shared memory a block of the streaming policy `p` takes: `ring` input planes and one plane
  /// of every step but the last, each warps x rows rows of 32 16-byte vectors, and the rules'
  /// tables (1.5 KiB along x, 12 bytes a row and 64 along y).
  __host__ __device__ static constexpr std::size_t strip_shared_bytes(
      const stencil3d_fused_strip_policy& p, int steps) {
    const auto rows = static_cast<std::size_t>(p.warps * p.rows);
    return static_cast<std::size_t>(p.ring + steps - 1) * rows * 32 * 16 + 32 * 4 * (8 + 4) +
           rows * 12 + 64;
  }
  __host__ __device__ static constexpr stencil3d_fused_strip_policy strip(int arch,
                                                                          std::size_t element_size,
                                                                          int radius, bool box,
                                                                          int steps) {
    // A lane keeps, for each of its rows and every step, 2 radius planes of its 16-byte vector
    // (the star's centre values below and outputs waiting for the planes above; the box's 2
    // radius + 1 outputs in progress), plus the plane in hand and its radius rows around: streaming
    // where that is at most 120 registers of the 128 a thread has at 16 warps an SM (for floats: 4
    // steps of radius 1, 2 of radius 2; doubles twice that) and the span's 32 rows leave at least
    // 16 rows of outputs; boxes of radius 1 only (larger ones unroll past the registers). Deeper
    // fusions take the shared rings. 16 warps of 2 rows, a ring of 6 input planes where the
    // steps reach 2 planes or fewer, else 4: the best of the neighbours measured on the H100 that
    // keep a span 32 rows tall (docs/stencil.md). 4 steps of radius 1 spill a few registers.
    // Chunks of 47 planes where the steps reach 2 planes or fewer, else 64: 512^3 floats, 2 steps
    // of radius 1, one binary, two runs on an H100 (twenty-eighth session), us, 7-point / 27-point:
    // chunks of 43 607-608 / 853-855, 47 600-603 / 854-857, 64 625-628 / 871-872, 74 628-630 /
    // 866, 86 640-641 / 892-893, 128 682-684 / 907-909; the same order on an H200. At 4 steps 64
    // stayed: 1039-1045 / 1583-1596 against 1049 / 1636-1637 with 47 and 1034-1037 / 1600-1603
    // with 74. The star reads each plane's rows first: on the H100 (512^3 floats, three runs
    // alternating two builds, thirtieth session) 2 steps 575.6-582.4 us against 600.3-603.6 with
    // the copies first, 4 steps 1020.7-1025.9 against 1042.9-1043.5. The box keeps the copies
    // first: rows first it ran 859.6-865.4 against 854.7-861.9 (2 steps) and 1654.9-1659.5 against
    // 1583.3-1593.6 (4 steps).
    const int vector = static_cast<int>(16 / element_size);
    const bool shallow = steps * radius <= 2;
    stencil3d_fused_strip_policy p{16, 2, shallow ? 6 : 4, shallow ? 47 : 64, 1, !box};
    const int kept = (box ? 2 * radius + 1 : 2 * radius) * p.rows * vector * steps;
    const int words = kept + (p.rows + 2 * radius) * vector + p.rows * vector;
    if (words > 120 || steps * radius > 8 || (box && radius > 1)) {
      return {0, 0, 0, 0, 0};
    }
    while (p.ring > 2 && strip_shared_bytes(p, steps) > block_shared_limit(arch)) {
      --p.ring;
    }
    if (strip_shared_bytes(p, steps) > block_shared_limit(arch)) {
      return {0, 0, 0, 0, 0};
    }
    return p;
  }
};

}  // namespace gpuprims
