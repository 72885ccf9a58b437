"""Every private Sphinx, jieba or docutils internal seriesbook relies on, behind one door each.

seriesbook needs a few things no public API offers (the builder class inside a transform, the
doctrees Sphinx holds, conf.py's own values, intersphinx's fetch). Each is reached in exactly
one small function here, listed in :data:`INTERNALS` with the upstream code it relies on and,
where there is one, the upstream issue about a public hook. ``tests/test_compat.py`` pins that
code (a Sphinx or jieba upgrade that changes it fails the test, not a build) and scans the
package: a private access outside this package fails it too.
"""

from __future__ import annotations

from dataclasses import dataclass

from seriesbook.compat._babel import PreviousParser
from seriesbook.compat._docutils import (
    detach_document,
    educate_quotes,
    same_state,
    text_paragraph,
)
from seriesbook.compat._i18n import (
    Compiled,
    CompiledState,
    Noted,
    compiled_state,
    extract_messages,
    messages_of,
    page_catalog,
    translate_page,
    translations_of,
    walk_page,
)
from seriesbook.compat._jieba import (
    double_total,
    empty_tokenizer,
    frequencies,
    import_jieba,
    total,
)
from seriesbook.compat._search import (
    FedPage,
    feed_alone,
    feed_page,
    fill_mappings,
    freeze_with,
    loads,
    pages_of,
    restore_page,
)
from seriesbook.compat._sphinx import (
    ENVIRONMENT_BOOKKEEPING,
    SphinxNodeUpdater,
    after_logging_setup,
    application,
    builder_class,
    conf_py_values,
    doctrees_in_memory,
    fetch_like_intersphinx,
    filter_compiled_catalogs,
    forget_translations,
    init_search_language,
    replace_listener,
    replace_node_updater,
    replace_post_transform,
    replace_transform,
    route_index,
    sphinx_logger,
)

__all__ = [
    "ENVIRONMENT_BOOKKEEPING",
    "INTERNALS",
    "REASSIGNED",
    "Compiled",
    "CompiledState",
    "FedPage",
    "Internal",
    "Noted",
    "PreviousParser",
    "Reassigned",
    "SphinxNodeUpdater",
    "after_logging_setup",
    "application",
    "builder_class",
    "compiled_state",
    "conf_py_values",
    "detach_document",
    "doctrees_in_memory",
    "double_total",
    "educate_quotes",
    "empty_tokenizer",
    "extract_messages",
    "feed_alone",
    "feed_page",
    "fetch_like_intersphinx",
    "fill_mappings",
    "filter_compiled_catalogs",
    "forget_translations",
    "freeze_with",
    "frequencies",
    "import_jieba",
    "init_search_language",
    "loads",
    "messages_of",
    "page_catalog",
    "pages_of",
    "replace_listener",
    "replace_node_updater",
    "replace_post_transform",
    "replace_transform",
    "restore_page",
    "route_index",
    "same_state",
    "sphinx_logger",
    "text_paragraph",
    "total",
    "translate_page",
    "translations_of",
    "walk_page",
]


@dataclass(frozen=True)
class Internal:
    """One private upstream name a door uses, and the upstream code that must stay as seen."""

    name: str  # the attribute or function reached (its last part is what the code names)
    door: str  # the function here that reaches it
    owner: str  # dotted path of the upstream code pinned
    sha256: str  # of ``inspect.getsource(owner)`` as of the tested version
    upstream: str = ""  # the upstream issue about a public hook, where there is one


@dataclass(frozen=True)
class Reassigned:
    """Something of Sphinx's a door replaces (the house rule's stated exceptions: no method of
    Sphinx's objects is reassigned, but for these, where no subclass or public API can do it)."""

    target: str  # as the door's code writes it
    door: str
    why: str


#: Every replacement of something Sphinx owns, anywhere in seriesbook (``tests/
#: test_architecture.py`` reads the code's AST and finds exactly these).
REASSIGNED: tuple[Reassigned, ...] = (
    Reassigned("sphinx_logging.setup", "after_logging_setup",
               "Sphinx() replaces its logger's handlers while starting and warns before it "
               "returns; the commands' problem collector must see those warnings. Only while "
               "the commands create an app, restored after; never in a build."),
    Reassigned("i18n._NodeUpdater", "replace_node_updater",
               "Locale instantiates the class it finds in its module; there is no setting or "
               "hook for a subclass."),
    Reassigned("builder.compile_catalogs", "filter_compiled_catalogs",
               "no event between Sphinx's choice of catalogs and their compiling, and every "
               "builder compiles; the instance's method is wrapped, the class untouched."),
    *(Reassigned(f"indexer.{method}", "route_index",
                 "no hook gives the search index a page's words kept from an earlier build, "
                 "nor freezes it without the mappings Sphinx fills, empties and fills again; "
                 "this build's indexer instance's methods are wrapped, the class untouched.")
      for method in ("feed", "prune", "freeze")),
)


INTERNALS: tuple[Internal, ...] = (
    Internal("babel.messages.pofile.PoFileParser._process_comment", "PreviousParser",
             "babel.messages.pofile.PoFileParser._process_comment",
             "d66bf0c1e5fd8f7f745acec36949c42bac06d3224b3940e9ddbc1e1b021102b0",
             "https://github.com/python-babel/babel/issues/206"),
    Internal("babel.messages.pofile.PoFileParser._add_message", "PreviousParser",
             "babel.messages.pofile.PoFileParser._add_message",
             "653282ec75725f928ce5af82ed0256d5e33a1a4abee06c185efcaf632b7fa674",
             "https://github.com/python-babel/babel/issues/206"),
    Internal("babel.messages.pofile.PoFileParser._finish_current_message", "PreviousParser",
             "babel.messages.pofile.PoFileParser._finish_current_message",
             "54b40a12143ad4d84154d05774e1454765c5099bbab69f3bf7553dcf1c7194ee",
             "https://github.com/python-babel/babel/issues/206"),
    Internal("babel.messages.pofile.PoFileParser._process_message_line", "PreviousParser",
             "babel.messages.pofile.PoFileParser._process_message_line",
             "221e617efa5c4b26d7c1b6a6a848a7208240df02ac13cd2b22b3c8522c8ce4db",
             "https://github.com/python-babel/babel/issues/206"),
    Internal("BuildEnvironment._builder_cls", "builder_class",
             "sphinx.application.Sphinx._post_init_env",
             "7bf195f2af8568487200dfa8e9373615a8aecb61acdc915d68a08e0c42861f8b"),
    Internal("BuildEnvironment._app", "application",
             "sphinx.environment.BuildEnvironment.__init__",
             "f7546f87bad24ad9d2c99b3b4a90bb4d7e94492be1cc4f07ba1a2e0b3ce68b46"),
    Internal("BuildEnvironment._write_doc_doctree_cache", "doctrees_in_memory",
             "sphinx.environment.BuildEnvironment.__init__",
             "f7546f87bad24ad9d2c99b3b4a90bb4d7e94492be1cc4f07ba1a2e0b3ce68b46"),
    Internal("BuildEnvironment._pickled_doctree_cache", "ENVIRONMENT_BOOKKEEPING",
             "sphinx.environment.BuildEnvironment.__init__",
             "f7546f87bad24ad9d2c99b3b4a90bb4d7e94492be1cc4f07ba1a2e0b3ce68b46"),
    Internal("Config._raw_config", "conf_py_values", "sphinx.config.Config.__init__",
             "9c80d8846de7a14a96a163c32d64cfa8be9962d2e69f32d187d631596bc119aa"),
    Internal("sphinx.locale.translators", "forget_translations", "sphinx.locale.init",
             "da7b4ddbc73c1799bdd9530985d7c7b02f18ddd6156ec837084bbe68049f7adc"),
    Internal("sphinx.locale.translators", "page_catalog", "sphinx.locale.init",
             "da7b4ddbc73c1799bdd9530985d7c7b02f18ddd6156ec837084bbe68049f7adc"),
    # a page's catalog from .mo files whose bytes are known: init's chain of gettext.translation
    # (each .mo gettext finds, the later ones fallbacks), each made from what gettext's parse
    # of those bytes left (its catalog and header; the plural function from the header)
    Internal("sphinx.locale.init", "page_catalog", "sphinx.locale.init",
             "da7b4ddbc73c1799bdd9530985d7c7b02f18ddd6156ec837084bbe68049f7adc"),
    Internal("gettext.translation", "page_catalog", "gettext.translation",
             "369bde47166473158870d3aaf2e88617a691434de983f0da8774504e276ec011"),
    *(Internal(f"GNUTranslations.{name}", door, "gettext.GNUTranslations._parse",
               "d1aff3bc87b98b5a117be055cb10901761755a2764e3db70f3b5666dec341781")
      for door in ("compiled_state", "translations_of")
      for name in ("_catalog", "_info", "plural")),
    Internal("NullTranslations.__init__", "translations_of", "gettext.NullTranslations.__init__",
             "0ec7e1ac44db94edde8e7cd7288378383c534bd72bad42aa8b28c88aa6d403ce"),
    Internal("sphinx.util.logging.setup", "after_logging_setup", "sphinx.util.logging.setup",
             "fd9a17e25eb64f2834f99bf4dd09bb3f071786baa976e2465426012ca90f50fa"),
    # pinned through the door: once editions is set up, Locale's module holds the subclass
    Internal("sphinx.transforms.i18n._NodeUpdater", "SphinxNodeUpdater",
             "seriesbook.compat.SphinxNodeUpdater.update_title_mapping",
             "562795a8e7a9ff4c458e549ccb74e548566d4cf3a32344c334cfd42c92be3867"),
    Internal("sphinx.transforms.i18n._NodeUpdater", "replace_node_updater",
             "sphinx.transforms.i18n.Locale.apply",
             "118126ca0d1cb9850eaf3ebfb76f532cf473107a0c6fdbf7e6701c379cb6a3b6"),
    Internal("Builder.compile_catalogs", "filter_compiled_catalogs",
             "sphinx.builders.Builder.compile_update_catalogs",
             "5044f9c0d11ac71d24255c4db7eb2b5218fd5a765c2b060408a4c489e76feeb8"),
    Internal("SearchChinese.__init__", "init_search_language",
             "sphinx.search.zh.SearchChinese.__init__",
             "0f9f9dd26e40920bad7860d6b05ec8b6af82ffe3e89723b707469b2b4cdb57fa"),
    # a copy of IndexBuilder.feed that says what it added, and its inverse
    *(Internal(f"IndexBuilder.{name}", door, "sphinx.search.IndexBuilder.feed",
               "056af53b330d8dac4d0d499a39e57cffbc1aec743757f0fd2d59034635611a48")
      for door in ("feed_page", "restore_page", "feed_alone")
      for name in ("_titles", "_filenames", "_all_titles", "_title_mapping", "_mapping",
                   "_index_entries")),
    # IndexBuilder.load's mappings and check, and freeze copied (the terms changed in place)
    *(Internal(f"IndexBuilder.{name}", door, "sphinx.search.IndexBuilder.load",
               "f6bda8631cdd8c130a6b65f4d2fad628e015abe99c8e6d8e9a2b82defb59ab59")
      for door, name in (("fill_mappings", "_mapping"), ("fill_mappings", "_title_mapping"),
                         ("loads", "_env_version"), ("pages_of", "_titles"))),
    Internal("IndexBuilder.prune", "fill_mappings", "sphinx.search.IndexBuilder.prune",
             "cd9133b0a71ae08953ca84cfd5cde516a52570b8c9471969fa5f95536d730b37",
             "https://github.com/sphinx-doc/sphinx/issues/11120"),
    *(Internal(f"IndexBuilder.{name}", "freeze_with", "sphinx.search.IndexBuilder.freeze",
               "e03ca24370523151d691014da355c165b3e6a56bab7160a4e1c4f0b786aa2a6d",
               "https://github.com/sphinx-doc/sphinx/issues/11120")
      for name in ("_titles", "_filenames", "_all_titles", "_index_entries", "_objtypes",
                   "_objnames", "_env_version")),
    Internal("IndexBuilder.get_terms", "freeze_with", "sphinx.search.IndexBuilder.get_terms",
             "ba9cf3ae1547fb0caafaac62868625b26736e98d2ecc8edc5244e3265f829610"),
    # the order the HTML builder loads, prunes, feeds, prunes and freezes the index in
    Internal("StandaloneHTMLBuilder.indexer", "route_index",
             "sphinx.builders.html.StandaloneHTMLBuilder.load_indexer",
             "b78f84fcc285866abe68eca7fb63e35bf7f0b4fbcd71676037d98ca7dd05eec5"),
    Internal("StandaloneHTMLBuilder.indexer", "route_index",
             "sphinx.builders.html.StandaloneHTMLBuilder.dump_search_index",
             "1af76e6bdbb15a0fe866a8d8ea5cac6b477d974a5d87bcf9d58883e7f1f3e48e"),
    Internal("StandaloneHTMLBuilder.finish", "route_index",
             "sphinx.builders.html.StandaloneHTMLBuilder.finish",
             "c3898b6d53745553ed0e78117b16f016bcc31fb3781765b92d2819c71400edf8"),
    Internal("IndexBuilder._word_collector", "feed_page", "sphinx.search.IndexBuilder.feed",
             "056af53b330d8dac4d0d499a39e57cffbc1aec743757f0fd2d59034635611a48"),
    Internal("sphinx.search._feed_visit_nodes", "feed_page",
             "sphinx.search.IndexBuilder._word_collector",
             "76db48f1e261e3eedf6b879517280fa50b86e518502043eb7461d2146ac9b4e2"),
    Internal("sphinx.ext.intersphinx._load._fetch_inventory_data", "fetch_like_intersphinx",
             "sphinx.ext.intersphinx._load._fetch_inventory_data",
             "a40f5898c68104c52aa28b246db0aaf435fed90530c8720f687d7f979ae50647",
             "https://github.com/sphinx-doc/sphinx/pull/12657"),
    Internal("sphinx.ext.intersphinx._load._InvConfig", "fetch_like_intersphinx",
             "sphinx.ext.intersphinx._load._InvConfig",
             "672b8fe695e33b089f9c2e527ce0a8c4cd5343c26e9c4fb81b45c60fecb9d216"),
    Internal("docutils.nodes.Node._document", "detach_document",
             "docutils.nodes.Node.document.fget",
             "b57260974b1d1cf6030e3165873eb4666d9cb596dd90e53773f47d89be48de7f"),
    # a copy of docutils' loop (the block test added): pinned where it is copied from and
    # where Sphinx calls it, with the tokens Sphinx hands it
    Internal("docutils.transforms.universal.SmartQuotes.apply", "educate_quotes",
             "docutils.transforms.universal.SmartQuotes.apply",
             "ec64cdb0825263e2708f483e7d7a8f83083184e404245bb84cb6d46c47e0b1ff",
             "https://github.com/sphinx-doc/sphinx/issues/3967"),
    Internal("sphinx.transforms.SphinxSmartQuotes.apply", "educate_quotes",
             "sphinx.transforms.SphinxSmartQuotes.apply",
             "cf3ef9a9ada297875913cf1c46d03adf0b778cc50a667f4742e328710a90b468",
             "https://github.com/sphinx-doc/sphinx/issues/3967"),
    Internal("sphinx.transforms.SphinxSmartQuotes.is_available", "educate_quotes",
             "sphinx.transforms.SphinxSmartQuotes.is_available",
             "d6b1a87953840dd9ae1ea3c8483b873971a682e24c3cc1f55cf4a32d143d5e39"),
    # ... and what its text replacement leaves, reproduced without the new node (the state
    # setup_child gives it, at the place Element.replace finds by equality), and its walk
    Internal("docutils.nodes.Node._document", "educate_quotes", "docutils.nodes.Node.document.fget",
             "b57260974b1d1cf6030e3165873eb4666d9cb596dd90e53773f47d89be48de7f"),
    Internal("docutils.nodes.Node.setup_child", "educate_quotes", "docutils.nodes.Node.setup_child",
             "e4d4c187fb9402f0b071a5155a31c56c5d320922e6d363c0077f030b1b00a230"),
    Internal("docutils.nodes.Element.replace", "educate_quotes", "docutils.nodes.Element.replace",
             "3805ed019324291fd5725f8f3c5fe7b91e3ff9556aa51f07c365555bf940c575"),
    Internal("docutils.nodes.Element.__setitem__", "educate_quotes",
             "docutils.nodes.Element.__setitem__",
             "8577ba8e978e8a95f4b04ca846fee6ffa12cfef5027df3ea8c064150989913fa"),
    Internal("docutils.nodes.Element.index", "educate_quotes", "docutils.nodes.Element.index",
             "ff80f8a559c547d82bf45bcaf316f11232f98b77ccc71c2bfc8521f93b3a1367"),
    Internal("docutils.nodes.Node._fast_findall", "educate_quotes",
             "docutils.nodes.Node._fast_findall",
             "5675aefbd2cf1b0843ca6bdc00f6bb5bc8a9ec8b7d97346d1c7178f1f526bd9d"),
    # a kept paragraph of text made as unpickling its detached copy gives it (each made one is
    # compared with the parse it stands for when it is kept, so a change here keeps it pickled)
    Internal("sphinx.util.nodes._copy_except__document", "text_paragraph",
             "sphinx.util.nodes._copy_except__document",
             "76057061080c8c7d54266eeec2a6bb43a73133bd263c67213e00f5102019de6d"),
    Internal("sphinx.util.nodes._deepcopy", "text_paragraph", "sphinx.util.nodes._deepcopy",
             "8cfb2126d650d7b0ba1fadfe872de34cfb4497275814a9a465d9ec34eb92e680"),
    # a copy of Locale.apply (four changes, seriesbook.compat._i18n): pinned where it is copied
    # from, with the helpers it calls and the walk it reproduces
    *(Internal(name, "translate_page", "sphinx.transforms.i18n.Locale.apply",
               "118126ca0d1cb9850eaf3ebfb76f532cf473107a0c6fdbf7e6701c379cb6a3b6",
               "https://github.com/sphinx-doc/sphinx/pull/13670")
      for name in ("sphinx.transforms.i18n._publish_msgstr", "sphinx.transforms.i18n._NodeUpdater",
                   "BuildEnvironment._registry", "GNUTranslations._catalog",
                   "NullTranslations._fallback")),
    Internal("sphinx.transforms.i18n._publish_msgstr", "translate_page",
             "sphinx.transforms.i18n._publish_msgstr",
             "9a43862bd8487aafb8b06fac5bc38e9db7f0082189e23d8a93ea1b79bef8faa3",
             "https://github.com/sphinx-doc/sphinx/pull/13670"),
    Internal("sphinx.util.nodes._clean_extracted_message", "translate_page",
             "sphinx.util.nodes.extract_messages",
             "bac10c09ec20edcb66c70247033d25ab58c9c967647b7bb8cc6944deee37fd7d"),
    Internal("sphinx.util.nodes.is_translatable", "translate_page",
             "sphinx.util.nodes.is_translatable",
             "d4f74a4dd76613380b307f37af45178d5eda6bf4b8e1192a0bf5b4eecd8a9df4"),
    Internal("docutils.nodes.Node.findall", "translate_page", "docutils.nodes.Node.findall",
             "4c53325c43ecc0d9f82f18a9ab0c868d39080865b46b1a074593a66c09e36a4d"),
    # Sphinx's extract_messages over the walk translate_page uses, for the editions' own walks
    Internal("sphinx.util.nodes._clean_extracted_message", "extract_messages",
             "sphinx.util.nodes.extract_messages",
             "bac10c09ec20edcb66c70247033d25ab58c9c967647b7bb8cc6944deee37fd7d",
             "https://github.com/sphinx-doc/sphinx/pull/13670"),
    Internal("sphinx.util.nodes.is_translatable", "extract_messages",
             "sphinx.util.nodes.is_translatable",
             "d4f74a4dd76613380b307f37af45178d5eda6bf4b8e1192a0bf5b4eecd8a9df4",
             "https://github.com/sphinx-doc/sphinx/pull/13670"),
    Internal("docutils.nodes.Node.findall", "extract_messages", "docutils.nodes.Node.findall",
             "4c53325c43ecc0d9f82f18a9ab0c868d39080865b46b1a074593a66c09e36a4d"),
    # the reference updates skipped where there is no reference (all five would find none)
    Internal("sphinx.transforms.i18n._NodeUpdater", "translate_page",
             "seriesbook.compat.SphinxNodeUpdater",
             "7d37583b29a00943de4d9f05b4c1e0c5cf2a9a7d03d6cc99986e6b6e2b3eeadd"),
    # a theme's listener given another handler in its place (speed.navigation, .description);
    # Sphinx calls the listeners from this list, in order of priority, then of connection
    Internal("EventManager.listeners", "replace_listener", "sphinx.events.EventManager.emit",
             "3ddc693676be03356cab0088228cfb95baaceb976f17cbd329509b1d1e0b95f5"),
    Internal("SphinxComponentRegistry.get_transforms", "replace_transform",
             "sphinx.registry.SphinxComponentRegistry.get_transforms",
             "1f9ba0d953b1dde6f4227291719a444cd542175bdebd315057071b13122febfd"),
    Internal("SphinxComponentRegistry.get_post_transforms", "replace_post_transform",
             "sphinx.registry.SphinxComponentRegistry.get_post_transforms",
             "d5c348bd48729084667e2cbf3de5bad851014a59ce8dddbf294596effae1c4af"),
    # what seriesbook.speed.codelang's subclass relies on: the transform's walk, and the
    # visitor's state (the default pushed at the document, changed only by these two nodes)
    Internal("sphinx.transforms.post_transforms.code.HighlightLanguageVisitor",
             "replace_post_transform",
             "sphinx.transforms.post_transforms.code.HighlightLanguageTransform",
             "208edb64cf5d08d408ff424a2396d5215fa5adaf1e90bf693bfd7915d555c253"),
    Internal("sphinx.transforms.post_transforms.code.HighlightLanguageVisitor.visit_literal_block",
             "replace_post_transform",
             "sphinx.transforms.post_transforms.code.HighlightLanguageVisitor",
             "326163551f2315795b9f33313f2d9edd3a234c9d3bf96d0aa4a0a8a4b0c338b8"),
    Internal("jieba.Tokenizer.FREQ", "frequencies", "jieba.Tokenizer.initialize",
             "37d4a8937f6058fa2614a2ec3ca1751cbe4ecd9e5168b89aa0a03e5db635f541"),
    Internal("jieba.Tokenizer.total", "total", "jieba.Tokenizer.initialize",
             "37d4a8937f6058fa2614a2ec3ca1751cbe4ecd9e5168b89aa0a03e5db635f541"),
    Internal("jieba.Tokenizer.initialized", "empty_tokenizer", "jieba.Tokenizer.check_initialized",
             "5357ee21433b7b98f053bf5708be9f572610d2a45bf3a3109c53a2cd6134d773"),
    Internal("jieba._compat.get_module_res", "import_jieba", "jieba._compat",
             "ce079f41be19a25857607275336073703a3fa116c66472821a1f6f53472a6023",
             "https://github.com/fxsjy/jieba/pull/1044"),
)
