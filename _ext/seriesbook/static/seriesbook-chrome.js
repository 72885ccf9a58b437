/* seriesbook chrome: the theme's two sidebar buttons at every width, and the skip link.

   pydata-sphinx-theme 0.17+ binds its sidebar dialogs to document.querySelector(".primary-toggle")
   and (".secondary-toggle"): the first such button, a hidden copy in its navbar, while
   sphinx-book-theme shows its own buttons in the article header. Below 992 px the visible
   buttons do nothing (pydata/pydata-sphinx-theme#2451, executablebooks/sphinx-book-theme#988),
   and above it the book theme's collapse handler is bound to the hidden copy too
   (executablebooks/sphinx-book-theme#935). Here every such button works: one listener on the
   document, in the capture phase, answers each click before the themes' own (so the behaviour
   is the same whether or not upstream is fixed). Narrow: the sidebar's content moves into the
   theme's <dialog>, opened modal; Escape, a tap outside, the close of the dialog or a followed
   link close it and put the content back. Wide: the book theme's collapse of the sidebar.
   tests/test_chrome_browser.py pins the upstream bug: when it is fixed, the test says so. */
(() => {
  "use strict";
  const SIDES = {
    "primary-toggle": ["pst-primary-sidebar", "pst-primary-sidebar-modal"],
    "secondary-toggle": ["pst-secondary-sidebar", "pst-secondary-sidebar-modal"],
  };
  const WIDE = "(min-width: 992px)";
  const byId = (id) => document.getElementById(id);
  const move = (from, to) => {
    for (const node of Array.from(from.childNodes)) to.appendChild(node);
    for (const cls of Array.from(from.classList)) {
      from.classList.remove(cls);
      to.classList.add(cls);
    }
  };
  const sideOf = (button) => Object.keys(SIDES).find((cls) => button.classList.contains(cls));
  const buttons = (cls) => document.querySelectorAll("." + cls);
  const expanded = (cls, open) => {
    for (const b of buttons(cls)) b.setAttribute("aria-expanded", open ? "true" : "false");
  };

  function openDialog(cls, button) {
    const [sidebarId, dialogId] = SIDES[cls];
    const sidebar = byId(sidebarId), dialog = byId(dialogId);
    if (!sidebar || !dialog || dialog.open) return;
    move(sidebar, dialog);
    dialog.setAttribute("aria-label", button.getAttribute("aria-label") || button.title || "");
    dialog.showModal();
    expanded(cls, true);
    dialog.addEventListener("close", () => {
      if (dialog.childNodes.length) move(dialog, sidebar);
      expanded(cls, false);
      if (button.isConnected) button.focus();
    }, { once: true });
    const first = dialog.querySelector("a[href], button, input");
    if (first) first.focus();
  }

  function collapse(cls) {
    const sidebar = byId(SIDES[cls][0]);
    if (!sidebar) return;
    const hidden = sidebar.classList.toggle("pst-sidebar-hidden");
    expanded(cls, !hidden);
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest(
      ".primary-toggle, .secondary-toggle");
    if (!button) return;
    const cls = sideOf(button);
    event.preventDefault();
    event.stopImmediatePropagation();
    button.blur(); // its tooltip would stay (the book theme's addBlurToButtons, bound to one)
    if (matchMedia(WIDE).matches && cls === "primary-toggle") collapse(cls);
    else openDialog(cls, button);
  }, true);

  // the dialogs: a tap on the backdrop, Escape (sphinx_highlight.js eats the native one), a link
  for (const [, dialogId] of Object.values(SIDES)) {
    const dialog = byId(dialogId);
    if (!dialog) continue;
    dialog.addEventListener("click", (event) => {
      const r = dialog.getBoundingClientRect();
      const outside = event.clientX < r.left || event.clientX > r.right
        || event.clientY < r.top || event.clientY > r.bottom;
      if (event.target === dialog && outside) dialog.close();
      else if (event.target instanceof Element && event.target.closest("a[href]")) dialog.close();
    });
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && dialog.open) {
        event.preventDefault();
        dialog.close();
      }
    });
  }
  for (const cls of Object.keys(SIDES)) {
    for (const b of buttons(cls)) {
      b.setAttribute("aria-expanded", "false");
      b.setAttribute("aria-controls", SIDES[cls][0]);
    }
  }

  // The skip link lands on the article itself, past the header's buttons (the theme's goes to
  // <main>, before them).
  const article = document.querySelector("article.bd-article");
  const skip = document.querySelector("#pst-skip-link a");
  if (article && skip) {
    article.id = article.id || "seriesbook-article";
    article.tabIndex = -1;
    skip.href = "#" + article.id;
    skip.addEventListener("click", (event) => {
      event.preventDefault();
      article.focus();
    });
  }

  // The search button's label is "Search" while it shows "Search Ctrl+K": a name that does not
  // hold the visible words (axe's label-content-name-mismatch). Its words are its name.
  for (const b of document.querySelectorAll(".search-button-field[aria-label]")) {
    b.removeAttribute("aria-label");
  }

  // sphinx-book-theme's printed contents are labelled "Page" in every language: their heading
  // (the edition's word) names them instead.
  const printed = document.querySelector("#jb-print-toc nav"), title = document.querySelector(
    "#jb-print-toc h2");
  if (printed && title) printed.setAttribute("aria-label", title.textContent.trim());

  // A table or diagram that scrolls inside itself is a keyboard stop too (the theme does it for
  // code blocks only).
  const tabStops = () => {
    for (const el of document.querySelectorAll(".bd-article table, .bd-article .mermaid")) {
      if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.tabIndex = 0;
    }
  };
  tabStops();
  addEventListener("resize", tabStops);
})();
