// Puppeteer drives a browser for @mermaid-js/mermaid-cli, which draws the diagrams of the PDF and
// EPUB editions. Where the system has Chromium (Debian's /usr/bin/chromium, or
// PUPPETEER_EXECUTABLE_PATH), `npm ci` downloads no browser and that one is used; elsewhere
// (Read the Docs) puppeteer downloads its own at `npm ci`.
const fs = require('node:fs')

const systemBrowser = [process.env.PUPPETEER_EXECUTABLE_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  .find((candidate) => candidate && fs.existsSync(candidate))

module.exports = systemBrowser ? { skipDownload: true, executablePath: systemBrowser } : {}
