# The two set-up commands of the README, plus a few conveniences.
# `make run` and `make test` install what is missing (Debian packages), configure, build and run.
BUILD ?= build
JOBS  ?= 2

.PHONY: all run uetsim test build sanitize sanitize-campaign fuzz campaign bench bench-scaling format clean

all: build

build:
	@scripts/setup.sh $(BUILD)
	@cmake --build $(BUILD) -j$(JOBS)

# Only the uetsim target and its libraries, with only the packages they need (make test builds
# and installs the rest): a first make run takes minutes (docs/performance.md, "First run").
uetsim:
	@UETSIM_SETUP=run scripts/setup.sh $(BUILD)
	@cmake --build $(BUILD) -j$(JOBS) --target uetsim

run: uetsim
	$(BUILD)/bin/uetsim run --out out

test: build
	cd $(BUILD) && ctest -j$(JOBS) --output-on-failure --timeout 600

# Debug build with AddressSanitizer and UndefinedBehaviorSanitizer, then the whole suite.
sanitize:
	@BUILD_TYPE=Debug scripts/setup.sh build-asan -DUETSIM_SANITIZE=ON
	@cmake --build build-asan -j$(JOBS)
	cd build-asan && ctest -j$(JOBS) --output-on-failure --timeout 1800

# The example fault campaigns, 1,000 random cases each (docs/campaign.md).
campaign: uetsim
	$(BUILD)/bin/uetsim campaign examples/campaign/faults.yaml --cases 1000 --jobs $(JOBS) --out campaign-out
	$(BUILD)/bin/uetsim campaign examples/campaign/link-layer.yaml --cases 1000 --jobs $(JOBS) --out campaign-out/link-layer

# Its 50 cases under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize-campaign:
	@BUILD_TYPE=Debug scripts/setup.sh build-asan -DUETSIM_SANITIZE=ON
	@cmake --build build-asan -j$(JOBS) --target uetsim
	build-asan/bin/uetsim campaign examples/campaign/faults.yaml --jobs $(JOBS) --out campaign-asan-out

# The libFuzzer targets of the input readers (clang), each run for FUZZ_SECONDS from its seeds
# (docs/fuzzing-and-sanitizers.md).
FUZZ_SECONDS ?= 30
fuzz:
	@BUILD_TYPE=Debug scripts/setup.sh build-fuzz -DUETSIM_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0
	@cmake --build build-fuzz -j$(JOBS) --target fuzzers
	cd build-fuzz && UETSIM_FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --output-on-failure

bench: build
	bench/run.sh $(BUILD)

# Wall time and peak memory against hosts (bench/scaling.png).
bench-scaling: build
	bench/scaling.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.h' '*.cpp')

clean:
	rm -rf $(BUILD) build-asan build-fuzz out campaign-out campaign-asan-out
