// gpuprims_bench: every primitive's benchmark family with its baselines, in one binary.
//   gpuprims_bench [--full] [--short | --profile] [Google Benchmark flags, e.g.
//   --benchmark_filter=copy]
// Without --full: the quick set (each primitive's default and its baselines at a cache-sized and a
// DRAM-sized input); --full: every rung of the ladders, every size, the studies and experiments.
// --short: 0.05 s of timed launches per benchmark. --profile: one untimed launch per benchmark
// inside cudaProfilerStart/Stop (scripts/profile.sh). Prints progress as [done/total] and ends with
// a summary per family: the default against its best baseline.
#include "support.cuh"

#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

namespace gpuprims::bench {
namespace {

// One measured row: what the summary needs.
struct row {
  std::string family, variant, args, label;
  double gbps = 0, peak_pct = 0;
};

// Splits "family/variant/name:value.../manual_time[_median]" into family, variant and the
// arguments.
bool parse_name(const std::string& name, row& r) {
  static const std::regex arg("^[A-Za-z_]+:-?[0-9]+$");
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t slash = name.find('/'); slash != std::string::npos;
       slash = name.find('/', start)) {
    parts.push_back(name.substr(start, slash - start));
    start = slash + 1;
  }
  parts.push_back(name.substr(start));
  if (parts.size() < 3) {
    return false;
  }
  r.family = parts[0];
  std::size_t i = 1;
  for (; i < parts.size() && !std::regex_match(parts[i], arg); ++i) {
    r.variant += (r.variant.empty() ? "" : "/") + parts[i];
  }
  for (; i < parts.size(); ++i) {
    if (std::regex_match(parts[i], arg) && parts[i].rfind("min_time", 0) != 0 &&
        parts[i].rfind("iterations", 0) != 0) {
      r.args += (r.args.empty() ? "" : " ") + parts[i];
    }
  }
  return true;
}

// The console reporter with "[done/total]" before each row and, at the end, each family's default
// against the best baseline of the same arguments.
class progress_reporter : public benchmark::ConsoleReporter {
 public:
  explicit progress_reporter(std::size_t total) : total_(total) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      // With repetitions the summary takes their median, else the single run.
      const bool aggregate = run.run_type == Run::RT_Aggregate;
      if (aggregate ? run.aggregate_name != "median" : run.repetitions > 1) {
        continue;
      }
      row r;
      const auto gbps = run.counters.find("GB/s");
      const auto peak = run.counters.find("peak_pct");
      if (gbps == run.counters.end() || peak == run.counters.end() ||
          !parse_name(run.benchmark_name(), r)) {
        continue;
      }
      r.label = run.report_label;
      r.gbps = gbps->second.value;
      r.peak_pct = peak->second.value;
      rows_.push_back(r);
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    print_summary();
  }

 protected:
  // Each row after the header: "[done/total]" first (repetitions and aggregates count once).
  void PrintRunData(const Run& run) override {
    if (run.run_type != Run::RT_Aggregate && run.repetition_index <= 0) {
      ++done_;
    }
    if (total_ > 0) {
      GetOutputStream() << "[" << done_ << "/" << total_ << "] ";
    }
    ConsoleReporter::PrintRunData(run);
  }

 private:
  void print_summary() const {
    std::map<std::tuple<std::string, std::string>, std::vector<const row*>> groups;
    for (const row& r : rows_) {
      groups[{r.family, r.args}].push_back(&r);
    }
    std::string family;
    for (const auto& [key, members] : groups) {
      const row* best = nullptr;
      for (const row* r : members) {
        if (r->label == "baseline" && (best == nullptr || r->gbps > best->gbps)) {
          best = r;
        }
      }
      for (const row* r : members) {
        if (r->label != "default") {
          continue;
        }
        if (family != r->family) {
          family = r->family;
          std::printf("\n%-28s %-26s %-24s %9s %7s   %s\n", ("summary: " + family).c_str(),
                      "default", "arguments", "GB/s", "% peak", "against the best baseline");
        }
        std::printf("%-28s %-26s %-24s %9.1f %7.1f   ", "", r->variant.c_str(), r->args.c_str(),
                    r->gbps, r->peak_pct);
        if (best != nullptr) {
          std::printf("%.3fx %s (%.1f GB/s)\n", r->gbps / best->gbps, best->variant.c_str(),
                      best->gbps);
        } else {
          std::printf("no baseline\n");
        }
      }
    }
    std::fflush(stdout);
  }

  std::size_t total_, done_ = 0;
  std::vector<row> rows_;
};

// How many registered benchmarks the filter selects (Google Benchmark matches it the same way
// against the name; a filter starting with '-' excludes).
std::size_t selected(const std::string& filter) {
  const bool exclude = !filter.empty() && filter[0] == '-';
  const std::regex re(exclude ? filter.substr(1)
                              : (filter.empty() || filter == "all" ? "." : filter));
  std::size_t count = 0;
  for (const std::string& name : registered_names()) {
    count += std::regex_search(name, re) != exclude ? 1 : 0;
  }
  return count;
}

}  // namespace
}  // namespace gpuprims::bench

int main(int argc, char** argv) {
  gpuprims::bench::options opt;
  std::vector<char*> args;
  std::string filter = ".";
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--short") == 0) {
      opt.min_time = 0.05;
    } else if (std::strcmp(argv[i], "--full") == 0) {
      opt.full = true;
    } else if (std::strcmp(argv[i], "--profile") == 0) {
      opt.profile = true;
      gpuprims::bench::profiling() = true;
    } else {
      if (std::strncmp(argv[i], "--benchmark_filter=", 19) == 0) {
        filter = argv[i] + 19;
      }
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) {
    return 1;
  }

  cudaDeviceProp prop{};
  int driver = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaDriverGetVersion(&driver) != cudaSuccess) {
    std::fprintf(stderr, "gpuprims_bench: no usable CUDA device\n");
    return 1;
  }
  benchmark::AddCustomContext("device", prop.name);
  benchmark::AddCustomContext("compute_capability",
                              std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext(
      "cuda_driver", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10));
  benchmark::AddCustomContext("peak_GBps",
                              std::to_string(gpuprims::bench::peak_bytes_per_second() / 1e9));
  benchmark::AddCustomContext("l2_bytes", std::to_string(prop.l2CacheSize));
  benchmark::AddCustomContext("set", opt.full ? "full" : "quick");

  gpuprims::bench::register_copy(opt);
  gpuprims::bench::register_transpose(opt);
  gpuprims::bench::register_reduce(opt);
  gpuprims::bench::register_segmented_reduce(opt);
  gpuprims::bench::register_scan(opt);
  gpuprims::bench::register_select(opt);
  gpuprims::bench::register_histogram(opt);
  gpuprims::bench::register_gemm(opt);
  gpuprims::bench::register_stencil2d(opt);
  gpuprims::bench::register_stencil3d(opt);
  gpuprims::bench::register_stencil(opt);
  gpuprims::bench::register_block_reduce(opt);
  gpuprims::bench::register_transpose_ladder(opt);
  gpuprims::bench::register_reduce_ladder(opt);
  gpuprims::bench::register_stencil_ladder(opt);
  gpuprims::bench::register_scan_ladder(opt);
  gpuprims::bench::register_memory_access(opt);
  gpuprims::bench::register_transpose_placement(opt);
  gpuprims::bench::register_read_streams(opt);
  gpuprims::bench::register_scan_l2_chunks(opt);

  gpuprims::bench::progress_reporter reporter(gpuprims::bench::selected(filter));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
