# The two commands of the README: `make demo` and `make test`.
# Each creates .venv when it is missing and installs the project into it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench setup clean

demo: $(STAMP)
	KIVY_NO_ARGS=1 $(VENV)/bin/tactical app --demo

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(VENV)/bin/tactical bench all

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/ensure-system-libs.sh
	bash scripts/ensure-system-libs.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
