// seriesbook on Read the Docs: the book's own search and previews stay the reader's.
// Read the Docs injects its addons into every page it serves. Two of them would replace what the
// book does better: the search addon opens its own dialog (on "/" and on the event
// "readthedocs-search-show") and searches Read the Docs' server index, which does not segment
// Chinese as the book's search does; link previews would pop up over the book's own previews.
// Both belong switched off in the project's dashboard (see the README); this script keeps the
// book right if they are not:
// - "readthedocs-search-show" opens the book's search (the theme's search dialog) instead;
// - Read the Docs' link-preview tooltips are hidden (the style below);
// - on "readthedocs-addons-data-ready" (the page asks for API version 1 by its
//   <meta name="readthedocs-addons-api-version">), the console says which addons to switch off,
//   and <html> records it (data-readthedocs-search, data-readthedocs-linkpreviews).
(function () {
  "use strict";

  function openBookSearch() {
    var button = document.querySelector(".search-button__button");
    if (button) {
      button.click(); // the theme's search dialog (pydata-sphinx-theme)
      return;
    }
    var input = document.querySelector("form[action$='search.html'] input[name='q']");
    if (input && input.offsetParent !== null) {
      input.focus();
      return;
    }
    var root = document.documentElement.dataset.content_root || "";
    window.location.href = root + "search.html";
  }

  // Capture phase on the event's own target: before the search addon's listener on document.
  document.addEventListener(
    "readthedocs-search-show",
    function (event) {
      event.stopImmediatePropagation();
      event.preventDefault();
      openBookSearch();
    },
    true
  );

  var style = document.createElement("style");
  style.textContent =
    "div[data-linkpreview-href], readthedocs-linkpreviews { display: none !important; }";
  document.head.appendChild(style);

  function enabled(config, path) {
    var value = config;
    for (var i = 0; i < path.length; i++) {
      if (value === null || typeof value !== "object") return false;
      value = value[path[i]];
    }
    return value === true;
  }

  document.addEventListener("readthedocs-addons-data-ready", function (event) {
    var config = event.detail && event.detail.data ? event.detail.data() : {};
    var search = enabled(config, ["addons", "search", "enabled"]);
    var previews = enabled(config, ["addons", "linkpreviews", "enabled"]);
    var html = document.documentElement;
    html.dataset.readthedocsSearch = search ? "redirected" : "off";
    html.dataset.readthedocsLinkpreviews = previews ? "hidden" : "off";
    if (search) {
      console.info(
        "seriesbook: Read the Docs' search addon is on; the book's own search answers instead. " +
          "Switch it off in the project's Settings → Addons (see the book's README)."
      );
    }
    if (previews) {
      console.info(
        "seriesbook: Read the Docs' link previews are on and hidden; the book has its own. " +
          "Switch them off in the project's Settings → Addons (see the book's README)."
      );
    }
  });
})();
