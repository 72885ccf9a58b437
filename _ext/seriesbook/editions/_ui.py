"""The few words seriesbook itself shows in an edition, per language (prefix fallback, then en)."""

from __future__ import annotations

from seriesbook.config import language_key

LANGUAGE_NAMES: dict[str, str] = {
    "zh_CN": "简体中文",
    "zh_TW": "繁體中文",
    "zh": "中文",
    "en": "English",
    "ja": "日本語",
    "ko": "한국어",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "ru": "Русский",
}

UI: dict[str, dict[str, str]] = {
    "en": {
        "editions": "Editions",
        "notice-title": "Translation in progress",
        "notice": (
            "This page is {percent}% translated. Passages not translated yet are shown in the "
            "original ({source})."
        ),
    },
    "zh": {
        "editions": "版本",
        "notice-title": "翻译进行中",
        "notice": "本页已翻译 {percent}%。尚未翻译的段落以原文（{source}）显示。",
    },
    "ja": {
        "editions": "言語版",
        "notice-title": "翻訳中",
        "notice": (
            "このページの翻訳率は {percent}% です。未翻訳の箇所は原文（{source}）で表示されます。"
        ),
    },
}


def language_name(language: str) -> str:
    key = language_key(language, LANGUAGE_NAMES)
    return LANGUAGE_NAMES[key] if key else language


def text(language: str, key: str, **fields: str) -> str:
    """The UI string *key* in *language* (falling back to English), formatted with *fields*."""
    table = UI[language_key(language, UI) or "en"]
    return table[key].format(**fields)


def html_lang(language: str) -> str:
    """A BCP 47 tag for ``lang``/``hreflang``: ``zh_CN`` → ``zh-CN``."""
    return language.replace("_", "-")
