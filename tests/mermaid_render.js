// Render Mermaid sources to SVG with mermaid itself, in a browser page (used by
// tests/test_editions_diagram_render.py through Playwright): for each code, whether mermaid
// parsed and rendered it, the text a reader sees (line breaks and separate text elements as
// newlines, as in the page) and the diagram's <style> (a changed theme shows there).
async (codes) => {
  const results = [];
  let count = 0;
  for (const code of codes) {
    count += 1;
    try {
      await mermaid.parse(code);
      const { svg } = await mermaid.render(`seriesbook-check-${count}`, code);
      const holder = document.createElement('div');
      holder.innerHTML = svg;
      document.body.appendChild(holder);
      const parts = [];
      const styles = [];
      const blocks = new Set(['text', 'tspan', 'div', 'p', 'span', 'foreignobject', 'g', 'title', 'desc']);
      const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          parts.push(node.nodeValue);
          return;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) return;
        const tag = node.tagName.toLowerCase();
        if (tag === 'style') {
          styles.push(node.textContent.replaceAll(`seriesbook-check-${count}`, '#ID'));
          return;
        }
        if (tag === 'br') {
          parts.push('\n');
          return;
        }
        const block = blocks.has(tag);
        if (block) parts.push('\n');
        for (const child of node.childNodes) walk(child);
        if (block) parts.push('\n');
      };
      walk(holder);
      holder.remove();
      results.push({ ok: true, text: parts.join(''), style: styles.join('\n') });
    } catch (error) {
      results.push({ ok: false, text: String((error && error.message) || error), style: '' });
    }
  }
  return results;
}
