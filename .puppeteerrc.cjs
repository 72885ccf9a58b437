// Puppeteer drives a browser for @mermaid-js/mermaid-cli, which draws the diagrams of the PDF and
// EPUB editions. `npm ci` never downloads a browser (many builders' networks block the download
// host, and `make html` must not depend on it): the system's Chromium is used
// (PUPPETEER_EXECUTABLE_PATH, else Debian's /usr/bin/chromium). A browser is fetched only when
// asked for, as .readthedocs.yaml does: `PUPPETEER_SKIP_DOWNLOAD=false npx puppeteer browsers install`.
const fs = require('node:fs')

const systemBrowser = [process.env.PUPPETEER_EXECUTABLE_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  .find((candidate) => candidate && fs.existsSync(candidate))

module.exports = systemBrowser ? { skipDownload: true, executablePath: systemBrowser } : { skipDownload: true }
