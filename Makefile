# Sphinx's Makefile convention, plus the bootstrap a fresh machine needs, each target installing
# only what it uses (one stamp per set, redone when pyproject.toml or the npm lock changes):
#   make html, gettext, update-po   .venv with the project (`pip install -e .`): Python 3.11+ and
#                                   pip; the site's mermaid comes with the package (no npm)
#   make livehtml                   + the dev extras (sphinx-autobuild)
#   make test, lint                 + the test extras; `make test` also `npm ci` (the renderer)
#   make latexpdf, epub             + `npm ci` (mermaid-cli, puppeteer: draws the diagrams in the
#                                   system Chromium; never downloads a browser), after checking
#                                   the system packages (.ci/offline-packages)
#   make bootstrap                  everything a developer uses (test + dev extras, npm ci)

PYTHON      ?= python3
SPHINXOPTS  ?=
PYTESTOPTS  ?=
EDITION_JOBS ?=
LANGUAGES   ?= en
LIVE_LANGUAGE ?= zh_CN
SOURCEDIR    = source
BUILDDIR     = _build
VENV         = .venv
BIN          = $(VENV)/bin
SPHINXBUILD  = $(BIN)/sphinx-build
RUFF         = $(BIN)/ruff check _ext tests
MYPY         = $(BIN)/mypy
PYTEST       = $(BIN)/pytest
# Warnings are errors, but report all of them; conf.py lives next to this Makefile.
SPHINXFLAGS  = -W --keep-going -c .

# One stamp per extra set: `make html` alone installs no test or dev tools.
RUNTIME_STAMP = $(VENV)/.seriesbook-installed
TEST_STAMP    = $(VENV)/.seriesbook-installed-test
DEV_STAMP     = $(VENV)/.seriesbook-installed-dev
NPM_STAMP     = node_modules/.seriesbook-installed

.PHONY: help html test lint clean distclean livehtml gettext update-po bootstrap latexpdf epub \
	latexpdf-requirements epub-requirements

help:
	@echo "make html       build every edition (seriesbook editions) into $(BUILDDIR)/html/<language>/"
	@echo "make latexpdf   PDF of every edition: $(BUILDDIR)/latex/<language>/<name>.pdf (XeLaTeX)"
	@echo "make epub       EPUB of every edition: $(BUILDDIR)/epub/<language>/<name>.epub"
	@echo "make test       ruff, mypy and the whole pytest suite (PYTESTOPTS=... passes options)"
	@echo "make lint       ruff and mypy only"
	@echo "make livehtml   rebuild the $(LIVE_LANGUAGE) edition on every change (sphinx-autobuild)"
	@echo "make gettext    extract messages into $(BUILDDIR)/gettext/"
	@echo "make update-po  update locale/<lang>/LC_MESSAGES/*.po for LANGUAGES (default: en)"
	@echo "make clean      remove $(BUILDDIR)/; make distclean also removes .venv and node_modules"
	@echo "make bootstrap  everything a developer uses: .venv with the test and dev extras, npm ci"
	@echo "Overridable: PYTHON=$(PYTHON) SPHINXOPTS=$(SPHINXOPTS) LANGUAGES=$(LANGUAGES)"

bootstrap: $(RUNTIME_STAMP) $(TEST_STAMP) $(DEV_STAMP) $(NPM_STAMP)

# $(call pip_install,EXTRAS): create .venv if needed, install the project with EXTRAS (e.g. [test]).
define pip_install
	test -x $(BIN)/python || { $(PYTHON) -m venv $(VENV) && \
	  $(BIN)/python -m pip install --quiet --upgrade pip; }
	$(BIN)/python -m pip install --quiet -e '.$(1)'
	touch $@
endef

$(RUNTIME_STAMP): pyproject.toml
	$(call pip_install,)

$(TEST_STAMP): $(RUNTIME_STAMP)
	$(call pip_install,[test])

$(DEV_STAMP): $(RUNTIME_STAMP)
	$(call pip_install,[dev])

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

epub: epub-requirements $(RUNTIME_STAMP) $(NPM_STAMP)
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

# Its own environment (no -W here), so `make html` still sees every warning.
livehtml: $(DEV_STAMP)
	$(BIN)/sphinx-autobuild -b html -c . -D language=$(LIVE_LANGUAGE) \
	  -d $(BUILDDIR)/doctrees/live-$(LIVE_LANGUAGE) --watch _ext --watch conf.py \
	  $(addprefix --watch ,$(wildcard locale)) $(SPHINXOPTS) \
	  $(SOURCEDIR) $(BUILDDIR)/html/$(LIVE_LANGUAGE)

# One template per page (gettext_compact = False), messages in page order, no locations or uuids
# (conf.py); extracted afresh so a removed page leaves no stale template behind.
gettext: $(RUNTIME_STAMP)
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

clean:
	rm -rf $(BUILDDIR)

distclean: clean
	rm -rf $(VENV) node_modules
