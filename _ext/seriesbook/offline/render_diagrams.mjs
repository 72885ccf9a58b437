// Render many Mermaid diagrams in one Chromium session with npm's @mermaid-js/mermaid-cli.
//
// Usage: node render_diagrams.mjs NODE_MODULES JOBS.json
// JOBS.json: {"config": {mermaid config}, "jobs": [{"code", "output", "format": "pdf"|"png"}]}.
// Each job's file is written to a temporary name and renamed, so a cache never holds half a
// file. One JSON line per job on stdout: {"output", "error": null | message}.
// The browser is the system Chromium (PUPPETEER_EXECUTABLE_PATH, else /usr/bin/chromium …);
// puppeteer's own download is used only when none is found.

import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const [nodeModules, jobsFile] = process.argv.slice(2)
// Bare names are resolved as the book's own code would (ES module conditions), with the
// resolver mermaid-cli itself uses.
const bookURL = pathToFileURL(path.join(path.resolve(nodeModules), '..', 'package.json')).href
const requireHere = createRequire(bookURL)
const { resolve } = await import(pathToFileURL(requireHere.resolve('import-meta-resolve')).href)
const importPackage = async (name) => import(resolve(name, bookURL))

const SYSTEM_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
const CONCURRENCY = 2

function executablePath () {
  if (process.env.PUPPETEER_EXECUTABLE_PATH) return process.env.PUPPETEER_EXECUTABLE_PATH
  return SYSTEM_BROWSERS.find((candidate) => fs.existsSync(candidate))
}

async function renderOne (browser, renderMermaid, config, job) {
  const { data } = await renderMermaid(browser, job.code, job.format, {
    mermaidConfig: config,
    backgroundColor: 'white',
    pdfFit: true,
    viewport: { width: 800, height: 600, deviceScaleFactor: job.format === 'png' ? 2 : 1 }
  })
  const partial = `${job.output}.${process.pid}.part`
  fs.mkdirSync(path.dirname(job.output), { recursive: true })
  fs.writeFileSync(partial, data)
  fs.renameSync(partial, job.output)
}

async function main () {
  const { config, jobs } = JSON.parse(fs.readFileSync(jobsFile, 'utf-8'))
  const puppeteer = (await importPackage('puppeteer')).default
  const { renderMermaid } = await importPackage('@mermaid-js/mermaid-cli')
  const browser = await puppeteer.launch({
    executablePath: executablePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-setuid-sandbox', '--disable-gpu', '--disable-dev-shm-usage']
  })
  try {
    let next = 0
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]
        let error = null
        try {
          await renderOne(browser, renderMermaid, config, job)
        } catch (exception) {
          error = String(exception?.message ?? exception).split('\n').slice(0, 3).join(' ')
        }
        process.stdout.write(JSON.stringify({ output: job.output, error }) + '\n')
      }
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker))
  } finally {
    await browser.close()
  }
}

main().catch((exception) => {
  process.stderr.write(`render_diagrams: ${exception?.message ?? exception}\n`)
  process.exit(1)
})
