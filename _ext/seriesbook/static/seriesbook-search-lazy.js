/*
 * seriesbook: search's scripts and index, loaded when the search box is first used.
 *
 * pydata-sphinx-theme loads searchtools.js, language_data.js and the whole searchindex.js in
 * the head of every page (pydata/pydata-sphinx-theme#2115); seriesbook's layout.html loads them
 * on the search page only, and this script loads them on other pages the first time a search
 * field is focused or the search button is pressed (Ctrl+K too), in the order the search page
 * loads them, from the same addresses: the search page then finds them in the browser's cache.
 * What the reader has already typed is kept (Sphinx's search clears the fields as it starts).
 */
(() => {
  const root = document.documentElement.dataset.content_root ?? "";
  const FILES = ["_static/searchtools.js", "_static/language_data.js", "searchindex.js"];
  let loading = null;

  const script = (file) =>
    new Promise((resolve, reject) => {
      const element = document.createElement("script");
      element.src = root + file;
      element.onload = resolve;
      element.onerror = () => reject(new Error(`seriesbook: ${file} did not load`));
      document.head.append(element);
    });

  // the search page (or the theme's search-as-you-type) loads them itself
  const loadedByPage = () => document.querySelector('script[src*="searchindex.js"]') !== null;

  const load = () => {
    if (loading || typeof Search !== "undefined" || loadedByPage()) return loading;
    const fields = [...document.querySelectorAll('input[name="q"]')];
    const typed = () => new Map(fields.map((field) => [field, field.value]));
    loading = FILES.reduce((previous, file) => {
      return previous.then(() => {
        const before = typed();
        return script(file).then(() => {
          for (const [field, value] of before) if (value && !field.value) field.value = value;
        });
      });
    }, Promise.resolve());
    loading.catch((error) => console.warn(error.message));
    return loading;
  };

  const isSearchField = (element) => element?.matches?.('input[name="q"]');
  document.addEventListener("focusin", (event) => {
    if (isSearchField(event.target)) load();
  });
  document.addEventListener(
    "pointerdown",
    (event) => {
      if (event.target.closest?.(".search-button, .search-button-field, .search-button__button"))
        load();
    },
    { capture: true, passive: true },
  );
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") load();
  });
  window.SeriesbookLazySearch = { load };
})();
