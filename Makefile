# Sphinx's Makefile convention, plus the bootstrap a fresh machine needs, each target installing
# only what it uses (one stamp per set, redone when pyproject.toml or the npm lock changes):
#   make html, gettext, update-po   .venv with the project and its theme (`pip install -e
#                                   .[theme]`): Python 3.11+ and pip; the site's mermaid comes
#                                   with the package (no npm)
#   make livehtml                   + the serve extra (watchfiles: seriesbook serve)
#   make test, lint                 + the test extras; `make test` also `npm ci` (the renderer)
#   make epub                       as make html (its diagrams are the site's drawings)
#   make latexpdf                   + `npm ci` (mermaid-cli, puppeteer: draws the PDF's diagrams in
#                                   the system Chromium; never downloads a browser), after checking
#                                   the system packages (.ci/offline-packages)
#   make bootstrap                  everything a developer uses (test + dev extras, npm ci)

PYTHON      ?= python3
SPHINXOPTS  ?=
SERVEOPTS   ?=
PYTESTOPTS  ?=
EDITION_JOBS ?=
LANGUAGES   ?= en
LIVE_LANGUAGE ?= zh_CN
SOURCEDIR    = source
BUILDDIR     = _build
VENV         = .venv
BIN          = $(VENV)/bin
SPHINXBUILD  = $(BIN)/sphinx-build
RUFF         = $(BIN)/ruff check _ext tests docs
MYPY         = $(BIN)/mypy
PYTEST       = $(BIN)/pytest
# Warnings are errors, but report all of them; conf.py lives next to this Makefile.
SPHINXFLAGS  = -W --keep-going -c .

# One stamp per extra set: `make html` alone installs no test or dev tools.
RUNTIME_STAMP = $(VENV)/.seriesbook-installed
TEST_STAMP    = $(VENV)/.seriesbook-installed-test
DEV_STAMP     = $(VENV)/.seriesbook-installed-dev
SERVE_STAMP   = $(VENV)/.seriesbook-installed-serve
NPM_STAMP     = node_modules/.seriesbook-installed

.PHONY: help html test test-quick test-lowest docs lint clean distclean livehtml gettext update-po convert \
	bootstrap latexpdf epub latexpdf-requirements epub-requirements

help:
	@echo "make html       build every edition (seriesbook editions) into $(BUILDDIR)/html/<language>/"
	@echo "make latexpdf   PDF of every edition: $(BUILDDIR)/latex/<language>/<name>.pdf (XeLaTeX)"
	@echo "make epub       EPUB of every edition: $(BUILDDIR)/epub/<language>/<name>.epub"
	@echo "make test       ruff, mypy and the whole pytest suite (PYTESTOPTS=... passes options)"
	@echo "make test-quick pytest without browser and slow tests, on every core (QUICK_WORKERS=auto)"
	@echo "make test-lowest the suite against the lowest supported dependencies (.venv/lowest)"
	@echo "make docs       seriesbook's manual (docs/) with -W into $(BUILDDIR)/docs/"
	@echo "make lint       ruff and mypy only"
	@echo "make livehtml   serve the $(LIVE_LANGUAGE) edition, rebuilt on every save (seriesbook serve)"
	@echo "make gettext    extract messages into $(BUILDDIR)/gettext/"
	@echo "make update-po  update locale/<lang>/LC_MESSAGES/*.po for LANGUAGES (default: en)"
	@echo "make convert    fill and refresh locale/zh_TW/ by conversion (reviewed entries kept)"
	@echo "make clean      remove $(BUILDDIR)/; make distclean also removes .venv and node_modules"
	@echo "make bootstrap  everything a developer uses: .venv with the test and dev extras, npm ci"
	@echo "Overridable: PYTHON=$(PYTHON) SPHINXOPTS=$(SPHINXOPTS) LANGUAGES=$(LANGUAGES)"
	@echo "             LIVE_LANGUAGE=$(LIVE_LANGUAGE) SERVEOPTS=$(SERVEOPTS) (e.g. --port 8001)"

bootstrap: $(RUNTIME_STAMP) $(TEST_STAMP) $(DEV_STAMP) $(NPM_STAMP)

# $(call pip_install,EXTRAS): create .venv if needed, install the project with EXTRAS (e.g. [test]).
# Two makes at once in a fresh clone (`make html & make test`) must not both build .venv: the
# install holds a lock (flock, from util-linux; where it is missing, no lock) and, once it has
# it, looks again whether the other make did the work meanwhile. A .venv whose python or pip no
# longer runs (half deleted) is made again.
VENV_LOCK = $(shell command -v flock >/dev/null 2>&1 && echo flock $(VENV).lock)
define pip_install
	@$(VENV_LOCK) sh -c 'if [ -f $@ ] && [ $@ -nt $< ]; then exit 0; fi; \
	  if ! $(BIN)/python -c "import pip" >/dev/null 2>&1; then \
	    if [ -e $(VENV) ]; then echo "$(VENV) is damaged (its python or pip does not run): making it again"; fi; \
	    $(PYTHON) -m venv --clear $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip || exit 1; \
	  fi; \
	  echo "pip install -e .$(1)"; \
	  $(BIN)/python -m pip install --quiet -e ".$(1)" && touch $@'
endef

# A .venv installed once and damaged since (seriesbook or Sphinx gone) is named, not a traceback.
define venv_check
	@$(BIN)/python -c "import seriesbook.commands.cli, sphinx" >/dev/null 2>&1 || { \
	  echo "error: $(VENV) is damaged (seriesbook or Sphinx cannot be imported):" \
	    "run 'make distclean', then make again" >&2; exit 2; }
endef

$(RUNTIME_STAMP): pyproject.toml
	$(call pip_install,[theme])

$(TEST_STAMP): $(RUNTIME_STAMP)
	$(call pip_install,[test])

$(DEV_STAMP): $(RUNTIME_STAMP)
	$(call pip_install,[dev])

$(SERVE_STAMP): $(RUNTIME_STAMP)
	$(call pip_install,[serve])

# .puppeteerrc.cjs: puppeteer's install downloads no browser, ever (the system's is used).
$(NPM_STAMP): package.json package-lock.json .puppeteerrc.cjs
	@command -v npm >/dev/null 2>&1 || { \
	  echo "error: npm not found. The PDF and EPUB draw their diagrams with npm's mermaid-cli" >&2; \
	  echo "(package-lock.json): install Node.js with npm (https://nodejs.org/, or" >&2; \
	  echo "'apt-get install nodejs npm'), then run make again." >&2; \
	  exit 1; }
	npm ci --no-audit --no-fund
	touch $@

# $(call every_edition,BUILDER,DOCTREES_PREFIX,THEN): build every edition (`seriesbook editions`)
# with BUILDER into $(BUILDDIR)/BUILDER/<language>/, -W --keep-going, THEN run after a success
# (with $$language). The editions build side by side, as many at once as there are cores
# (EDITION_JOBS=1: one after the other), each one's log printed whole and in order
# (seriesbook.speed.editions). A failed build forgets its environment: an incremental rebuild
# would not repeat the warnings of unchanged pages, and would pass.
define every_edition
	@languages="$$($(BIN)/seriesbook editions)" || exit 1; \
	$(BIN)/python -m seriesbook.speed.editions --builder $(1) --builddir $(BUILDDIR) \
	  --doctrees-prefix '$(2)' --languages "$$languages" $(if $(EDITION_JOBS),--jobs $(EDITION_JOBS)) \
	  $(if $(3),--then '$(3)') -- $(SPHINXBUILD) $(SPHINXFLAGS) $(SPHINXOPTS) $(SOURCEDIR)
endef

html: $(RUNTIME_STAMP)
	$(venv_check)
	$(call every_edition,html,,)

# The offline editions. Missing system packages stop make with one line naming them; each
# edition is built like `make html` (-W --keep-going, a failed build forgets its state), its
# diagrams drawn once and cached in its doctree directory.
# (.ci/offline-packages latexpdf|epub prints them; checked before anything is installed or built.)
# No browser (chromium) names the other way to get one too.
latexpdf-requirements epub-requirements:
	$(eval OFFLINE_MISSING := $(shell .ci/offline-packages $(@:%-requirements=%)))
	$(if $(OFFLINE_MISSING),$(error make $(@:%-requirements=%) needs system packages \
	  that are missing: apt-get install $(OFFLINE_MISSING)$(if $(filter chromium,$(OFFLINE_MISSING)), \
	  (chromium is the browser that draws the diagrams; or set PUPPETEER_EXECUTABLE_PATH to a \
	  Chrome or Chromium))))
	@:

latexpdf: latexpdf-requirements $(RUNTIME_STAMP) $(NPM_STAMP)
	$(call every_edition,latex,latex-,$(MAKE) -C $(BUILDDIR)/latex/$$language all-pdf LATEXMKOPTS=-silent)

epub: epub-requirements $(RUNTIME_STAMP)
	$(call every_edition,epub,epub-,)

lint: $(TEST_STAMP)
	$(RUFF)
	$(MYPY)

# Every step runs even when an earlier one fails, so one run reports everything.
test: $(TEST_STAMP) $(NPM_STAMP)
	@status=0; \
	echo "$(RUFF)"; $(RUFF) || status=1; \
	echo "$(MYPY)"; $(MYPY) || status=1; \
	echo "$(PYTEST) $(PYTESTOPTS)"; $(PYTEST) $(PYTESTOPTS) || status=1; \
	exit $$status

# The contributor's loop: no browser, no fresh clones, venvs or whole-book builds, on every
# core (pytest-xdist; a module's tests stay in one worker, so its fixtures are built once).
QUICK_WORKERS ?= auto
test-quick: $(TEST_STAMP)
	$(PYTEST) -m "not browser and not slow" -n $(QUICK_WORKERS) --dist loadfile $(PYTESTOPTS)

# The suite against the lowest versions pyproject.toml allows (.ci/lowest-constraints reads
# them), in its own venv, .venv/lowest (make distclean removes it); PYTESTOPTS as for `make test`.
LOWEST = $(VENV)/lowest
test-lowest: pyproject.toml
	test -x $(LOWEST)/bin/python || $(PYTHON) -m venv $(LOWEST)
	$(PYTHON) .ci/lowest-constraints > $(LOWEST)/constraints.txt
	$(LOWEST)/bin/python -m pip install --quiet -c $(LOWEST)/constraints.txt -e '.[test]'
	$(LOWEST)/bin/python -m pip freeze | grep -iE '^(sphinx|myst-parser|babel|jieba)=='
	$(LOWEST)/bin/python -m pytest $(PYTESTOPTS)

# seriesbook's manual, built with seriesbook (docs/conf.py; docs/.readthedocs.yaml on RTD).
docs: $(RUNTIME_STAMP)
	$(SPHINXBUILD) -b html -W --keep-going -c docs -d $(BUILDDIR)/doctrees/docs $(SPHINXOPTS) \
	  docs $(BUILDDIR)/docs

# The author's loop (docs/serve.md): one warm process, the page back and its problems shown on
# every save; its own output and environment (_build/serve/), never the normal build's.
livehtml: $(SERVE_STAMP)
	$(BIN)/seriesbook serve $(SOURCEDIR) -c . --language $(LIVE_LANGUAGE) $(SERVEOPTS)

# One template per page (gettext_compact = False), messages in page order, no locations or uuids
# (conf.py); extracted afresh so a removed page leaves no stale template behind.
gettext: $(RUNTIME_STAMP)
	$(venv_check)
	rm -rf $(BUILDDIR)/gettext
	$(SPHINXBUILD) -b gettext $(SPHINXFLAGS) -d $(BUILDDIR)/doctrees/gettext $(SPHINXOPTS) \
	  $(SOURCEDIR) $(BUILDDIR)/gettext

# Creates or updates locale/<lang>/LC_MESSAGES/<page>.po (seriesbook update-po, on Babel as
# sphinx-intl): existing translations are kept, a changed message keeps its old translation
# marked fuzzy with the old source text as #| lines (until a translator clears the flag), a
# removed one stays as an obsolete #~ entry, text moved to another page keeps its translation.
# No line wrapping, so a changed paragraph is a one-line diff.
update-po: gettext
	$(BIN)/seriesbook update-po -p $(BUILDDIR)/gettext -d locale \
	  $(addprefix -l ,$(LANGUAGES))

# The Traditional Chinese edition's catalogs: update-po's update, then every message no person
# has translated converted (OpenCC s2twp and locale/zh_TW/glossary.toml; docs/zh_TW.md).
convert: gettext
	$(BIN)/seriesbook convert zh_TW -p $(BUILDDIR)/gettext -d locale

clean:
	rm -rf $(BUILDDIR)

distclean: clean
	rm -rf $(VENV) $(VENV).lock node_modules
