// Draws the add-on's icon.png (128×128) and logo.png (250×100) with headless Chromium from an SVG
// drawn here (developers.home-assistant.io, "Presenting your app": icon 1:1 at 128 px, logo about
// 250×100 px). Usage: node scripts/addon-images.mjs [chromium path]
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const folder = fileURLToPath(new URL('../homeassistant-addon/mowability/', import.meta.url));
// A lawn with three blades of grass and a sun: green and yellow on transparent.
const mark = `
  <circle cx="92" cy="34" r="16" fill="#f2b705"/>
  <path d="M8 108 Q64 84 120 108 L120 120 L8 120 Z" fill="#2e7d32"/>
  <path d="M34 104 C34 80 30 66 22 54 C36 64 42 82 42 104 Z" fill="#43a047"/>
  <path d="M58 100 C58 70 60 50 66 36 C68 54 68 76 66 100 Z" fill="#66bb6a"/>
  <path d="M84 104 C84 86 90 72 102 62 C96 76 92 90 92 104 Z" fill="#43a047"/>`;
const icon = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">${mark}</svg>`;
const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="250" height="100" viewBox="0 0 250 100">
  <g transform="translate(0 0) scale(0.78)">${mark}</g>
  <text x="100" y="60" font-family="DejaVu Sans, Arial, sans-serif" font-size="22" font-weight="bold" fill="#2e7d32">Mowability</text>
</svg>`;

const browser = await puppeteer.launch({ executablePath: process.argv[2] ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const [name, svg, width, height] of [
    ['icon.png', icon, 128, 128],
    ['logo.png', logo, 250, 100],
  ]) {
    await page.setViewport({ width, height, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: `${folder}${name}`, omitBackground: true, clip: { x: 0, y: 0, width, height } });
  }
} finally {
  await browser.close();
}
