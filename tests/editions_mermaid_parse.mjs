// Check Mermaid sources with mermaid's own parser (used by tests/test_editions_diagrams.py).
// Reads a JSON list of diagram sources on stdin; prints one JSON list of "OK" / error strings.
// DOMPurify needs a browser DOM; syntax checking does not, so its hooks are stubbed.
import DOMPurify from 'dompurify';

DOMPurify.addHook = () => {};
DOMPurify.removeHook = () => {};
DOMPurify.removeHooks = () => {};
DOMPurify.sanitize = (text) => String(text);
const { default: mermaid } = await import('mermaid');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const code of JSON.parse(input)) {
  try {
    await mermaid.parse(code);
    results.push('OK');
  } catch (error) {
    results.push(String(error.message || error).split('\n').slice(0, 3).join(' '));
  }
}
console.log(JSON.stringify(results));
