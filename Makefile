# Sphinx's Makefile convention, plus the bootstrap a fresh machine needs:
# the first `make html` or `make test` creates .venv, installs the project into it and installs
# the pinned mermaid with npm (package.json + package-lock.json). Needs Python 3.11+ with pip,
# Node.js with npm, and the package registries.

PYTHON      ?= python3
SPHINXOPTS  ?=
PYTESTOPTS  ?=
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

VENV_STAMP   = $(VENV)/.seriesbook-installed
NPM_STAMP    = node_modules/.seriesbook-installed

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
	@echo "Overridable: PYTHON=$(PYTHON) SPHINXOPTS=$(SPHINXOPTS) LANGUAGES=$(LANGUAGES)"

bootstrap: $(VENV_STAMP) $(NPM_STAMP)

$(VENV_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $@

$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "error: npm not found. The site serves its own copy of mermaid (no CDN), installed" >&2; \
	  echo "with npm from package-lock.json: install Node.js with npm (https://nodejs.org/," >&2; \
	  echo "or 'apt-get install nodejs npm'), then run make again." >&2; \
	  exit 1; }
	npm ci --no-audit --no-fund
	touch $@

# $(call every_edition,BUILDER,DOCTREES_PREFIX,THEN): build every edition (`seriesbook editions`)
# with BUILDER into $(BUILDDIR)/BUILDER/<language>/, -W --keep-going, THEN run after a success
# (with $$language). A failed build forgets its environment: an incremental rebuild would not
# repeat the warnings of unchanged pages, and would pass.
define every_edition
	@languages="$$($(BIN)/seriesbook editions)" || exit 1; status=0; \
	for language in $$languages; do \
	  echo "== $$language -> $(BUILDDIR)/$(1)/$$language/"; \
	  $(SPHINXBUILD) -b $(1) $(SPHINXFLAGS) -D language=$$language \
	    -d $(BUILDDIR)/doctrees/$(2)$$language $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/$(1)/$$language \
	  $(3) || { status=1; rm -rf $(BUILDDIR)/doctrees/$(2)$$language; }; \
	done; exit $$status
endef

html: bootstrap
	$(call every_edition,html,,)

# The offline editions. Missing system packages stop make with one line naming them; each
# edition is built like `make html` (-W --keep-going, a failed build forgets its state), its
# diagrams drawn once and cached in its doctree directory.
# (.ci/offline-packages latexpdf|epub prints them; checked before anything is installed or built.)
latexpdf-requirements epub-requirements:
	$(eval OFFLINE_MISSING := $(shell .ci/offline-packages $(@:%-requirements=%)))
	$(if $(OFFLINE_MISSING),$(error make $(@:%-requirements=%) needs system packages \
	  that are missing: apt-get install $(OFFLINE_MISSING)))
	@:

latexpdf: latexpdf-requirements bootstrap
	$(call every_edition,latex,latex-,&& $(MAKE) -C $(BUILDDIR)/latex/$$language all-pdf LATEXMKOPTS=-silent)

epub: epub-requirements bootstrap
	$(call every_edition,epub,epub-,)

lint: $(VENV_STAMP)
	$(RUFF)
	$(MYPY)

# Every step runs even when an earlier one fails, so one run reports everything.
test: bootstrap
	@status=0; \
	echo "$(RUFF)"; $(RUFF) || status=1; \
	echo "$(MYPY)"; $(MYPY) || status=1; \
	echo "$(PYTEST) $(PYTESTOPTS)"; $(PYTEST) $(PYTESTOPTS) || status=1; \
	exit $$status

# Its own environment (no -W here), so `make html` still sees every warning.
livehtml: bootstrap
	$(BIN)/sphinx-autobuild -b html -c . -D language=$(LIVE_LANGUAGE) \
	  -d $(BUILDDIR)/doctrees/live-$(LIVE_LANGUAGE) --watch _ext --watch conf.py \
	  $(addprefix --watch ,$(wildcard locale)) $(SPHINXOPTS) \
	  $(SOURCEDIR) $(BUILDDIR)/html/$(LIVE_LANGUAGE)

# One template per page (gettext_compact = False), messages in page order, no locations or uuids
# (conf.py); extracted afresh so a removed page leaves no stale template behind.
gettext: bootstrap
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
