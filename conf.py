"""Sphinx configuration of 《PyTorch 训练框架内核深度解析》 (sources in source/)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

project = "PyTorch 训练框架内核深度解析"
author = "《PyTorch 训练框架内核深度解析》作者"
copyright = "2026，《PyTorch 训练框架内核深度解析》作者。正文采用 CC BY-NC-SA 4.0 许可"
language = "zh_CN"
# The edition of the book (the EPUB's metadata needs one); the PyTorch release is in the text.
version = release = "2026.1"

extensions = ["seriesbook"]
exclude_patterns = ["_build", ".venv", "node_modules"]
myst_enable_extensions = ["colon_fence"]

# Theme: sphinx-book-theme; its repository and edit buttons come from seriesbook_repository_url.
html_theme = "sphinx_book_theme"
html_title = "《PyTorch 训练框架内核深度解析》"
# html_title is not a catalog message: each edition's title is chosen once its language is known.
EDITION_TITLES = {
    "en": "Inside PyTorch: The Training Stack, Source by Source",
    "zh_TW": "《PyTorch 訓練框架內核深度解析》",
}
EDITION_AUTHORS = {
    "en": "The authors of Inside PyTorch",
    "zh_TW": "《PyTorch 訓練框架內核深度解析》作者",
}
EDITION_COPYRIGHTS = {
    "en": "2026, the authors of Inside PyTorch. Text licensed CC BY-NC-SA 4.0",
    "zh_TW": "2026，《PyTorch 訓練框架內核深度解析》作者。正文採用 CC BY-NC-SA 4.0 授權",
}
html_search_language = "zh"
html_theme_options = {"show_toc_level": 2, "navigation_with_keys": False}
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "")

# Translated editions: catalogs in locale/<language>/LC_MESSAGES/<page>.po next to this file
# (locale_dirs is relative to source/). One catalog per page, messages in page order, no uuids
# and no source locations (line numbers churn), so re-extraction is stable and diffs are small.
locale_dirs = ["../locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
gettext_additional_targets: list[str] = []
gettext_last_translator = "seriesbook"
gettext_language_team = "seriesbook translators"

seriesbook_repository_url = "https://github.com/seriesbook/pytorch-internals"
# zh_TW: converted from the Simplified text (seriesbook convert zh_TW, docs/zh_TW.md)
seriesbook_editions = ["zh_CN", "en", "zh_TW"]
if os.environ.get("READTHEDOCS"):
    # Each edition is its own Read the Docs project, served at /<language>/<version>/.
    _rtd_version = os.environ.get("READTHEDOCS_VERSION", "latest")
    seriesbook_edition_url = "/{rtd_language}/" + _rtd_version + "/{target}"
    # The PDF and EPUB .ci/readthedocs-build makes, as Read the Docs serves them.
    seriesbook_download_url = "/_/downloads/{rtd_language}/" + _rtd_version + "/{format}/"
seriesbook_sources = {
    "pytorch": {
        "repo": "https://github.com/pytorch/pytorch",
        "ref": "v2.11.0",
        "commit": "70d99e9",
        # Written by the build, so in the wheel but not in the repository: cite what makes them.
        "generated": {
            "aten/src/ATen/ops/*": "torchgen/gen.py and aten/src/ATen/native/native_functions.yaml",
            "aten/src/ATen/*Functions.h": "aten/src/ATen/templates/ and torchgen/gen.py",
            "aten/src/ATen/*Functions_inl.h": "aten/src/ATen/templates/ and torchgen/gen.py",
            "aten/src/ATen/Operators.h": "aten/src/ATen/templates/Operators.h",
            "aten/src/ATen/MethodOperators.h": "aten/src/ATen/templates/MethodOperators.h",
            "aten/src/ATen/RegistrationDeclarations.h": "torchgen/gen.py",
            "aten/src/ATen/VmapGeneratedPlumbing.h": "torchgen/gen_vmap_plumbing.py",
            "aten/src/ATen/Config.h": "aten/src/ATen/Config.h.in",
            "aten/src/ATen/core/TensorBody.h": "aten/src/ATen/templates/TensorBody.h",
            "aten/src/ATen/core/aten_interned_strings.h":
                "aten/src/ATen/templates/aten_interned_strings.h",
            "aten/src/ATen/core/enum_tag.h": "aten/src/ATen/templates/enum_tag.h",
            "c10/macros/cmake_macros.h": "c10/macros/cmake_macros.h.in",
            "torch/_C/__init__.pyi": "torch/_C/__init__.pyi.in",
            "torch/_C/_VariableFunctions.pyi": "torch/_C/_VariableFunctions.pyi.in",
            "torch/_C/_nn.pyi": "torch/_C/_nn.pyi.in",
            "torch/_VF.pyi": "tools/pyi/gen_pyi.py",
            "torch/return_types.pyi": "tools/pyi/gen_pyi.py",
            "torch/nn/functional.pyi": "torch/nn/functional.pyi.in",
            "torch/csrc/autograd/generated/*":
                "tools/autograd/templates/ and tools/autograd/derivatives.yaml",
            "torch/csrc/lazy/generated/*": "torchgen/dest/lazy_ir.py",
            "torch/version.py": "tools/generate_torch_version.py",
        },
    },
    "vllm": {"repo": "https://github.com/vllm-project/vllm", "ref": "v0.8.5"},
}
seriesbook_default_source = "pytorch"
# This book's house rules (seriesbook has no gates by default): a chapter not marked
# `status: draft` has at least 6,500 Chinese characters, 4 diagrams and 2 source excerpts.
seriesbook_gates = {"min_han": 6500, "min_mermaid": 4, "min_excerpts": 2}


# PDF and EPUB editions (make latexpdf, make epub): _build/latex/<language>/pytorch-internals.pdf
# and _build/epub/<language>/pytorch-internals.epub; the rest comes from seriesbook.offline.
BOOK_FILE = "pytorch-internals"
epub_basename = BOOK_FILE


def _edition_title(app: Sphinx, config: Config) -> None:
    title = EDITION_TITLES.get(config.language, project)
    author_ = EDITION_AUTHORS.get(config.language, author)
    if config.language in EDITION_TITLES:
        config.html_title = title
    # the page footer's words are the edition's too
    config.author = author_
    config.copyright = EDITION_COPYRIGHTS.get(config.language, copyright)
    config.latex_documents = [("index", f"{BOOK_FILE}.tex", title, author_, "manual")]
    config.epub_title = title
    config.epub_author = author_


def setup(app: Sphinx) -> None:
    app.connect("config-inited", _edition_title)
