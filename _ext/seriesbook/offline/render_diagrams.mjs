// Render many Mermaid diagrams in one Chromium session, with npm's @mermaid-js/mermaid-cli.
//
// Usage: node render_diagrams.mjs NODE_MODULES JOBS.json
// JOBS.json: {"config": {mermaid config}, "jobs": [{"code", "output", "format": "pdf"|"png"}]}.
// One JSON line per job on stdout: {"output", "error": null | message}. Each file is written
// under a temporary name and renamed, so a cache never holds half a file.
//
// mermaid-cli's renderMermaid() opens a fresh page and loads ~5 MB of JavaScript for every
// diagram; here each worker loads mermaid-cli's page and mermaid once and draws diagram after
// diagram in it, the way renderMermaid() does (same page, same mermaid, same PDF sizing).
// The browser is the system Chromium (PUPPETEER_EXECUTABLE_PATH, else /usr/bin/chromium …);
// puppeteer's own download is used only when none is found.

import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const [nodeModules, jobsFile] = process.argv.slice(2)
// Bare names are resolved as the book's own code would, with the resolver mermaid-cli uses.
const bookURL = pathToFileURL(path.join(path.resolve(nodeModules), '..', 'package.json')).href
const requireHere = createRequire(bookURL)
const { resolve } = await import(pathToFileURL(requireHere.resolve('import-meta-resolve')).href)
const packageFile = (name) => new URL(resolve(name, bookURL))

const SYSTEM_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
const WORKERS = 2
const ATTEMPTS = 2 // a second try for a browser hiccup; a diagram mermaid rejects fails again
const PNG_SCALE = 2
const VIEWPORT = { width: 800, height: 600, deviceScaleFactor: PNG_SCALE } // mmdc's default size

function executablePath () {
  if (process.env.PUPPETEER_EXECUTABLE_PATH) return process.env.PUPPETEER_EXECUTABLE_PATH
  return SYSTEM_BROWSERS.find((candidate) => fs.existsSync(candidate))
}

async function openPage (browser, config, cliPage, mermaidScript) {
  const page = await browser.newPage()
  await page.setViewport(VIEWPORT)
  await page.goto(cliPage.href)
  await page.addScriptTag({ path: mermaidScript })
  await page.evaluate(async (config) => {
    await Promise.all(Array.from(document.fonts, (font) => font.load()))
    document.body.style.background = 'white'
    globalThis.mermaid.initialize({ startOnLoad: false, ...config })
  }, config)
  return page
}

// Screenshots one at a time: a tab in the background gets no frames, and its capture waits.
let front = Promise.resolve()
function inFront (task) {
  const turn = front.then(task, task)
  front = turn.catch(() => {})
  return turn
}

async function draw (page, job, index) {
  await page.setViewport(VIEWPORT) // a PNG's clip resized it: lay every diagram out alike
  const box = await page.$eval('#container', async (container, code, id) => {
    container.innerHTML = ''
    const { svg } = await globalThis.mermaid.render(id, code, container)
    container.innerHTML = svg
    const element = container.getElementsByTagName('svg')[0]
    element.style.backgroundColor = 'white'
    const rect = element.getBoundingClientRect()
    return { x: rect.left, y: rect.top, width: rect.width, height: rect.height }
  }, job.code, `seriesbook-diagram-${index}`)
  if (job.format === 'png') {
    const clip = {
      x: Math.floor(box.x), y: Math.floor(box.y), width: Math.ceil(box.width), height: Math.ceil(box.height)
    }
    return inFront(async () => { // headless Chromium paints only the tab in front
      await page.bringToFront()
      await page.setViewport({ width: clip.x + clip.width, height: clip.y + clip.height, deviceScaleFactor: PNG_SCALE })
      return page.screenshot({ clip })
    })
  }
  return page.pdf({ // as mermaid-cli's --pdfFit: one page the size of the diagram and its margin
    printBackground: true,
    width: `${Math.ceil(box.width) + box.x * 2}px`,
    height: `${Math.ceil(box.height) + box.y * 2}px`,
    pageRanges: '1-1'
  })
}

function save (output, data) {
  const partial = `${output}.${process.pid}.part`
  fs.mkdirSync(path.dirname(output), { recursive: true })
  fs.writeFileSync(partial, data)
  fs.renameSync(partial, output)
}

async function main () {
  const { config, jobs } = JSON.parse(fs.readFileSync(jobsFile, 'utf-8'))
  const puppeteer = (await import(packageFile('puppeteer').href)).default
  const cliPage = new URL('../dist/index.html', packageFile('@mermaid-js/mermaid-cli'))
  const mermaidScript = path.join(path.dirname(packageFile('mermaid').pathname), 'mermaid.js')
  const browser = await puppeteer.launch({
    executablePath: executablePath(),
    protocolTimeout: 60000,
    headless: true,
    args: ['--no-sandbox', '--disable-setuid-sandbox', '--disable-gpu', '--disable-dev-shm-usage']
  })
  try {
    let next = 0
    const worker = async () => {
      let page = await openPage(browser, config, cliPage, mermaidScript)
      while (next < jobs.length) {
        const index = next++
        const job = jobs[index]
        let error = null
        for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
          try {
            save(job.output, await draw(page, job, index))
            error = null
            break
          } catch (exception) {
            error = String(exception?.message ?? exception).split('\n').slice(0, 3).join(' ')
            await page.close() // a failure may leave mermaid or the tab stuck: start afresh
            page = await openPage(browser, config, cliPage, mermaidScript)
          }
        }
        process.stdout.write(JSON.stringify({ output: job.output, error }) + '\n')
      }
      await page.close()
    }
    await Promise.all(Array.from({ length: Math.min(WORKERS, jobs.length) }, worker))
  } finally {
    await browser.close()
  }
}

main().catch((exception) => {
  process.stderr.write(`render_diagrams: ${exception?.message ?? exception}\n`)
  process.exit(1)
})
