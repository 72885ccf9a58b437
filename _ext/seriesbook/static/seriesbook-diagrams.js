// seriesbook: the diagrams' full-screen view, drawn everywhere and named in the edition's language.
// Diagrams drawn when the book was built (div.seriesbook-diagram, an inline SVG) get a button that
// opens a dialog holding the drawing at its natural size, which scrolls and, on a phone, zooms
// with the page; Escape, the close button or a tap outside the drawing closes it.
// A diagram left to mermaid in the browser (pre.mermaid: one the build could not draw, where the
// author allowed it) is drawn here: mermaid's classic one-file build (this tag's data-mermaid,
// next to this script; a module script would not load from file://) is loaded once, when the
// first such diagram comes within a screen or so of the view, with the site's mermaid settings
// (data-mermaid-config). For those diagrams' full-screen buttons, if any:
// sphinxcontrib-mermaid writes its button as the character U+26F6, which common fonts lack (an
// empty box), and names it in English. seriesbook sets that text to "" (mermaid_fullscreen_button)
// and this script gives each such button an inline SVG icon and the edition's words (this
// script tag's data-open, data-close and data-viewer attributes). A button with text of its own
// (an author's mermaid_fullscreen_button) keeps it. The full-screen copy of a diagram keeps the
// diagram's language (lang="zh-CN" on a diagram not translated yet), and in a diagram partly
// translated the labels still in the book's language say so.
(function () {
  "use strict";
  var words = (document.currentScript && document.currentScript.dataset) || {};
  var here = (document.currentScript && document.currentScript.src) || "";
  var SVG_NS = "http://www.w3.org/2000/svg";

  function icon() {
    // Four corners pointing outwards: "expand".
    var svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("width", "16");
    svg.setAttribute("height", "16");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    svg.setAttribute("class", "seriesbook-fullscreen-icon");
    var path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", "M1.5 6V1.5H6M10 1.5h4.5V6M14.5 10v4.5H10M6 14.5H1.5V10");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "1.6");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    svg.appendChild(path);
    return svg;
  }

  function languageOf(element) {
    var marked = element && element.closest("[lang]");
    return marked ? marked.getAttribute("lang") : "";
  }

  function decorate(button) {
    if (button.dataset.seriesbook) return;
    button.dataset.seriesbook = "1";
    if (words.open) {
      button.setAttribute("aria-label", words.open);
      button.setAttribute("title", words.open);
    }
    if (!button.textContent.trim()) {
      button.replaceChildren(icon());
    }
    button.addEventListener("click", function () {
      // mermaid copies the diagram into its full-screen view (outside the diagram's lang)
      var diagram = button.parentNode && button.parentNode.querySelector(".mermaid");
      var view = document.querySelector(".mermaid-container-fullscreen");
      if (!view) return;
      var language = languageOf(diagram);
      if (language) view.setAttribute("lang", language);
      else view.removeAttribute("lang");
    });
  }

  function decorateViewer(modal) {
    if (words.viewer) modal.setAttribute("aria-label", words.viewer);
    var close = modal.querySelector(".mermaid-fullscreen-close");
    if (close && words.close) {
      close.setAttribute("aria-label", words.close);
      close.setAttribute("title", words.close);
    }
  }

  // A diagram partly translated: the page lists its untranslated labels' texts (spaces and line
  // breaks removed) right after it; each element mermaid drew with one of those texts gets the
  // source language. Checked again whenever mermaid redraws (a theme change).
  function markSourceLabels() {
    document.querySelectorAll("script.seriesbook-source-labels").forEach(function (script) {
      var before = script.previousElementSibling;
      var diagram = before && (before.matches(".mermaid") ? before : before.querySelector(".mermaid"));
      var svg = diagram && diagram.querySelector("svg");
      if (!svg) return;
      var data;
      try {
        data = JSON.parse(script.textContent);
      } catch (error) {
        return;
      }
      var texts = new Set(data.labels);
      svg.querySelectorAll("text, foreignObject div, foreignObject span, foreignObject p")
        .forEach(function (element) {
          var text = element.textContent.replace(/\s+/g, "");
          if (!texts.has(text)) return;
          var marked = element.parentElement && element.parentElement.closest("[lang]");
          if (marked && svg.contains(marked) && marked.getAttribute("lang") === data.lang) return;
          element.setAttribute("lang", data.lang);
        });
    });
  }

  // --- drawings made when the book was built ---------------------------------------------
  var viewer = null;

  function closeButton(dialog) {
    var close = document.createElement("button");
    close.type = "button";
    close.className = "seriesbook-diagram-close";
    close.textContent = "\u00d7";
    if (words.close) {
      close.setAttribute("aria-label", words.close);
      close.setAttribute("title", words.close);
    }
    close.addEventListener("click", function () { dialog.close(); });
    return close;
  }

  function openViewer(box) {
    var svg = box.querySelector("svg");
    if (!svg || typeof HTMLDialogElement === "undefined") return;
    if (!viewer) {
      viewer = document.createElement("dialog");
      viewer.className = "seriesbook-diagram-viewer";
      if (words.viewer) viewer.setAttribute("aria-label", words.viewer);
      viewer.addEventListener("click", function (event) {
        if (event.target === viewer) viewer.close(); // the backdrop, outside the drawing
      });
      viewer.addEventListener("close", function () {
        var drawing = viewer.querySelector(".seriesbook-diagram-full");
        if (drawing) drawing.remove();
      });
      document.body.appendChild(viewer);
    }
    var holder = document.createElement("div");
    holder.className = "seriesbook-diagram seriesbook-diagram-full";
    var copy = svg.cloneNode(true); // the same id: the drawing's own style rules apply
    var title = copy.querySelector("title");
    if (title) {
      copy.removeAttribute("aria-labelledby");
      copy.setAttribute("aria-label", title.textContent);
      title.removeAttribute("id");
    }
    copy.style.minWidth = copy.style.maxWidth; // natural size: the dialog scrolls
    holder.appendChild(copy);
    var language = languageOf(box);
    if (language) viewer.setAttribute("lang", language);
    else viewer.removeAttribute("lang");
    viewer.replaceChildren(closeButton(viewer), holder);
    viewer.showModal();
  }

  function decorateDrawing(box) {
    if (box.dataset.seriesbook || box.classList.contains("seriesbook-diagram-full")) return;
    box.dataset.seriesbook = "1";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "seriesbook-diagram-fullscreen";
    if (words.open) {
      button.setAttribute("aria-label", words.open);
      button.setAttribute("title", words.open);
    }
    button.appendChild(icon());
    button.addEventListener("click", function () { openViewer(box); });
    box.insertBefore(button, box.firstChild);
  }

  function decorateAll(root) {
    root.querySelectorAll(".seriesbook-diagram").forEach(decorateDrawing);
    root.querySelectorAll(".mermaid-fullscreen-btn").forEach(decorate);
    root.querySelectorAll(".mermaid-fullscreen-modal").forEach(decorateViewer);
  }

  // --- diagrams left to the browser ----------------------------------------------------
  var loading = null;

  function loadMermaid() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = new URL(words.mermaid || "mermaid/mermaid.min.js", here).href;
      tag.onload = resolve;
      tag.onerror = reject;
      document.head.appendChild(tag);
    }).then(function () {
      var config = {};
      try {
        config = JSON.parse(words.mermaidConfig || "{}");
      } catch (error) {
        config = {};
      }
      config.startOnLoad = false;
      if (!config.theme) {
        config.theme = document.documentElement.dataset.theme === "dark" ? "dark" : "default";
      }
      window.mermaid.initialize(config);
    });
    return loading;
  }

  function drawNearTheView() {
    var waiting = document.querySelectorAll("pre.mermaid:not([data-processed])");
    if (!waiting.length || !here) return;
    var draw = function (node) {
      loadMermaid()
        .then(function () { return window.mermaid.run({ nodes: [node] }); })
        .then(markSourceLabels)
        .catch(function (error) { console.warn("seriesbook: mermaid could not draw", error); });
    };
    if (!("IntersectionObserver" in window)) {
      waiting.forEach(draw);
      return;
    }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        observer.unobserve(entry.target);
        draw(entry.target);
      });
    }, { rootMargin: "100% 0px" });
    waiting.forEach(function (node) { observer.observe(node); });
  }

  function start() {
    decorateAll(document);
    markSourceLabels();
    if (!document.querySelector(".mermaid")) return; // every diagram drawn: nothing to watch
    drawNearTheView();
    // mermaid adds the buttons once the diagrams are drawn (and again on a theme change)
    new MutationObserver(function (records) {
      markSourceLabels();
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (node.nodeType !== 1) return;
          if (node.matches(".mermaid-fullscreen-btn")) decorate(node);
          else if (node.matches(".mermaid-fullscreen-modal")) decorateViewer(node);
          else decorateAll(node);
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
