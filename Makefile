# Opponent Lab: the targets the README names.
SWIFT ?= swift
OPLAB := .build/release/oplab

.PHONY: setup build run test bench bench-check map-check strength-check clean

setup:            ## install missing system packages (pkg-config, libopenblas-dev, zlib1g-dev)
	@scripts/setup.sh

build: setup      ## release build of the oplab command
	$(SWIFT) build -c release --product oplab

run: build        ## the main job: the quickstart tournament into results/quickstart/ (replaced each time)
	$(OPLAB) tournament configs/quickstart.yaml --force

# The tests start python3 about 550 times: scripts/test-python.sh links the interpreter
# they run (Debian's when it has jsonschema) first on their PATH. The build runs with the
# PATH as it is: SwiftPM builds everything again when the PATH it sees changes.
test: setup       ## every test suite (Swift Testing), built optimized: the engines and the oplab the CLI tests launch run at release speed
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing
	@scripts/test-python.sh
	PATH="$$PWD/.build/test-python:$$PATH" $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build

bench: setup      ## package-benchmark suites in Benchmarks/, then the hot paths' allocation thresholds
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark
	$(MAKE) bench-check

bench-check: setup  ## the hot paths' allocations against Benchmarks/Thresholds/ (fails 2 % above or below: update them in the same commit)
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark thresholds check --target HotPathBenchmarks --no-progress

strength-check: build  ## SPRT: the shipped rail model's greedy player against the documented CPU; fails unless it is stronger by 50 normalized Elo
	$(OPLAB) sprt rail --candidate blas-greedy --baseline heuristic --model normalized --elo0 0 --elo1 50 --seed 20261122 \
		--out results/strength-check --force

map-check: build
	$(OPLAB) map check configs/maps/train-depot-europe.json

clean:
	rm -rf .build Benchmarks/.build
