// main() of the test executables that need no GPU.
#define GPUPRIMS_CATCH_RUNNER
#include "catch.hpp"

int main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
