/*
 * seriesbook: search's snippets when the book is opened from disk (file://).
 *
 * Sphinx's search fetches each result's page for its snippet (searchtools.js, _displayItem);
 * a browser refuses fetch() from file://, so from disk every result came without its snippet
 * and the console filled with "Failed to fetch". The build writes each page's text as a small
 * script (_static/seriesbook-pages/<page>.js, calling SeriesbookDisk.page); opened from disk,
 * this page's fetch() of a page of the book is answered from that script. Over http nothing
 * changes.
 */
const SeriesbookDisk = (() => {
  const pending = new Map();
  const page = (name, html) => {
    const waiting = pending.get(name);
    if (waiting) waiting.resolve(html);
  };
  if (window.location.protocol !== "file:") return { page };

  const self = document.currentScript;
  const root = new URL(document.documentElement.dataset.content_root ?? "", window.location.href);
  const pages = new URL(self?.dataset.pages ?? "_static/seriesbook-pages/", root);
  const suffix = () =>
    typeof DOCUMENTATION_OPTIONS === "undefined" ? ".html" : DOCUMENTATION_OPTIONS.FILE_SUFFIX;
  const stockFetch = window.fetch.bind(window);

  /** The book's page *url* names, or null for anything else. */
  const pageName = (url) => {
    if (url.protocol !== "file:" || !url.pathname.startsWith(root.pathname)) return null;
    const name = decodeURIComponent(url.pathname.slice(root.pathname.length));
    return name.endsWith(suffix()) ? name.slice(0, -suffix().length) : null;
  };

  const text = (name) => {
    if (!pending.has(name)) {
      let resolve;
      const promise = new Promise((done) => (resolve = done));
      pending.set(name, { promise, resolve });
      const element = document.createElement("script");
      element.src = new URL(`${name}.js`, pages).href;
      element.onerror = () => resolve("");
      document.head.append(element);
    }
    return pending.get(name).promise;
  };

  window.fetch = (input, init) => {
    const url = new URL(typeof input === "string" ? input : input.url, window.location.href);
    const name = pageName(url);
    if (name === null) return stockFetch(input, init);
    return text(name).then((html) => new Response(html, { headers: { "Content-Type": "text/html" } }));
  };
  return { page };
})();
