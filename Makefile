# The two quick-start commands:  make run  and  make test.  Each creates .venv itself:
# make run installs what the rig needs to run, make test adds the test tools (pytest, playwright, ...).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
# make run PORT=8081: the scoreboard's port (RUN_ARGS passes any other `rig run` option); := so a PORT
# in the environment (set for some other program) does not move the rig
PORT   :=
# make test runs the suite on two pytest-xdist workers (the browser tests stay together on one of them:
# the xdist_group "browser", tests/conftest.py); make test TEST_JOBS=0 runs it in one process
TEST_JOBS ?= 2
XDIST  = $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadgroup)
# The suite runs under Debian's eatmydata (fsync a no-op, installed with the test tools): no test can
# observe a power cut, SIGKILL durability needs only the page cache, and a VM disk takes ~3 ms per fsync
# the event log makes for each event. make test TEST_FSYNC=on keeps the real fsync.
TEST_FSYNC ?= off
NOSYNC = $(if $(filter on,$(TEST_FSYNC)),,$$(command -v eatmydata))
# the suite's temporary files (scripts/test-tmp.sh): the last run's in $(TEST_TMP)/last; Python's byte code
# in $(TEST_TMP)/pycache even where PYTHONDONTWRITEBYTECODE is set (each xdist worker and each rig the tests
# start would compile every module, and pytest rewrite every test module's asserts, again)
TEST_TMP ?= $(or $(TMPDIR),/tmp)/rig-tests-$(shell id -u)
TEST_ENV = PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(TEST_TMP)/pycache

.PHONY: run test test-fast browser test-tools mosquitto league-demo bench hardware-test install clean venv

venv:
	@sh scripts/make-venv.sh $(PYTHON) $(VENV) $(VENV_FLAGS)

# the rig and its runtime packages only (no test tools): make run. --no-compile: Python compiles what
# the rig imports when it first runs, not every module of numpy and OpenCV now (a quicker first page)
$(RUN_STAMP): pyproject.toml | venv
	@echo "Setting up $(VENV): installing rig and the packages it runs on ..."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e .
	@touch $(RUN_STAMP)

# the rig with the test tools: make test (a test set-up serves make run too)
$(STAMP): pyproject.toml | venv
	@echo "Setting up $(VENV): installing rig with its test tools (the first time takes a minute or two) ..."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --progress-bar on --disable-pip-version-check -e '.[test]'
	@touch $(STAMP) $(RUN_STAMP)

## run: set up and start the rig (simulation mode on a machine without camera and GPIO);
## make run PORT=8081 for another port, RUN_ARGS='--listen 0.0.0.0' for any other `rig run` option
run: $(RUN_STAMP)
	@echo "The rig command is $(BIN)/rig (or, once per shell: . $(BIN)/activate, then rig --help)"
	$(BIN)/rig run $(if $(PORT),--port $(PORT)) $(RUN_ARGS)

## test: set up and run the whole test suite (installs Debian's chromium for the browser tests, mosquitto
## for the league tests, systemd-analyze and desktop-file-validate for the install-script tests, eatmydata)
test: $(STAMP) browser mosquitto test-tools
	@sh scripts/test-tmp.sh $(TEST_TMP)
	$(TEST_ENV) $(NOSYNC) $(BIN)/python -m pytest -q $(XDIST) --basetemp=$(TEST_TMP)/last $(PYTEST_ARGS)

## test-fast: the suite without the browser tests
test-fast: $(STAMP) mosquitto test-tools
	@sh scripts/test-tmp.sh $(TEST_TMP)
	$(TEST_ENV) $(NOSYNC) $(BIN)/python -m pytest -q $(XDIST) -m 'not browser' --basetemp=$(TEST_TMP)/last $(PYTEST_ARGS)

## browser: Debian's chromium for Playwright (its own browser download does not work offline)
browser:
	@sh scripts/apt-need.sh --recommends chromium=chromium

## test-tools: systemd-analyze and desktop-file-validate for the install-script tests, eatmydata for the suite
test-tools:
	@sh scripts/apt-need.sh systemd-analyze=systemd desktop-file-validate=desktop-file-utils eatmydata=eatmydata

## mosquitto: Debian's MQTT broker for the league tests (they start their own instance)
mosquitto:
	@sh scripts/apt-need.sh mosquitto=mosquitto

## league-demo: a local mosquitto, three simulated tables and the league page (http://127.0.0.1:8090/)
league-demo: $(RUN_STAMP) mosquitto
	$(BIN)/rig league --demo $(RUN_ARGS)

## bench: every benchmark, figures printed
bench: $(STAMP)
	$(BIN)/rig bench rules
	$(BIN)/rig bench vision
	$(BIN)/rig bench tosses
	$(BIN)/rig bench events
	$(BIN)/rig bench dice
	$(BIN)/rig bench durability
	$(BIN)/rig bench fuzz
	$(BIN)/rig bench lan
	$(BIN)/rig bench league
	$(BIN)/rig bench start

## install: on a Raspberry Pi (sudo make install): apt packages, a --system-site-packages venv with
## constraints-pi.txt (numpy<2), config, the hardened rig.service, the kiosk (KIOSK=cage on Lite)
install:
	sh scripts/install-pi.sh

## hardware-test: the tests that need a real Raspberry Pi (camera, GPIO, two loopback wire pairs);
## skipped, not failed, while rig.service holds the camera and pins (sudo systemctl stop rig first)
hardware-test: $(STAMP)
	RIG_HARDWARE=1 $(BIN)/python -m pytest -q -rs tests/hardware/pi

clean:
	rm -rf $(VENV) build *.egg-info tests/artifacts
