# The two set-up commands of the README, plus a few conveniences.
# `make run` and `make test` install what is missing (Debian packages), configure, build and run.
BUILD ?= build
JOBS  ?= 2

.PHONY: all run test build sanitize sanitize-campaign campaign bench bench-scaling format clean

all: build

build:
	@scripts/setup.sh $(BUILD)
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	$(BUILD)/bin/uetsim run --out out

test: build
	cd $(BUILD) && ctest -j$(JOBS) --output-on-failure --timeout 600

# Debug build with AddressSanitizer and UndefinedBehaviorSanitizer, then the whole suite.
sanitize:
	@BUILD_TYPE=Debug scripts/setup.sh build-asan -DUETSIM_SANITIZE=ON
	@cmake --build build-asan -j$(JOBS)
	cd build-asan && ctest -j$(JOBS) --output-on-failure --timeout 1800

# The example fault campaign, 1,000 random cases (docs/campaign.md).
campaign: build
	$(BUILD)/bin/uetsim campaign examples/campaign/faults.yaml --cases 1000 --jobs $(JOBS) --out campaign-out

# Its 50 cases under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize-campaign:
	@BUILD_TYPE=Debug scripts/setup.sh build-asan -DUETSIM_SANITIZE=ON
	@cmake --build build-asan -j$(JOBS) --target uetsim
	build-asan/bin/uetsim campaign examples/campaign/faults.yaml --jobs $(JOBS) --out campaign-asan-out

bench: build
	bench/run.sh $(BUILD)

# Wall time and peak memory against hosts (bench/scaling.png).
bench-scaling: build
	bench/scaling.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.h' '*.cpp')

clean:
	rm -rf $(BUILD) build-asan out campaign-out campaign-asan-out
