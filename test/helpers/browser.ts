/// <reference lib="dom" />
/**
 * Headless Chromium for the status page tests: Debian's `chromium` package
 * (/usr/bin/chromium, installed by .ci/run), driven by puppeteer-core, which
 * downloads no browser. CHROMIUM_PATH overrides the path.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type ConsoleMessage, type Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots and other artefacts of the browser tests (ignored by git). */
export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts');

export async function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // CI runs as root, where Chromium refuses its sandbox; the pages loaded are our own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--lang=en-GB'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, page errors and failed requests seen so far. */
  problems: string[];
}

export async function openWatchedPage(
  browser: Browser,
  options: { width?: number; height?: number; mobile?: boolean; language?: string } = {},
): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warn') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  await page.setViewport({
    width: options.width ?? 1280,
    height: options.height ?? 900,
    isMobile: options.mobile ?? false,
    hasTouch: options.mobile ?? false,
    deviceScaleFactor: 1,
  });
  if (options.language) {
    await page.setExtraHTTPHeaders({ 'accept-language': options.language });
    await page.evaluateOnNewDocument((language: string) => {
      Object.defineProperty(navigator, 'language', { get: () => language });
      Object.defineProperty(navigator, 'languages', { get: () => [language] });
    }, options.language);
  }
  return { page, problems };
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}

export interface ChromiumSuite {
  /** The file's Chromium (launched before its first test). */
  readonly browser: Browser;
  /** Runs `step` after the current test, the last registered first (a harness, a daemon, a fake provider). */
  afterTest(step: () => unknown): void;
}

/**
 * The browser tests' start-up: one Chromium for the whole test file, closed after it, and what
 * each test started stopped after that test, whether it passed or not.
 */
export function useChromium(): ChromiumSuite {
  let browser: Browser | undefined;
  const steps: Array<() => unknown> = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  return {
    get browser() {
      if (!browser) throw new Error('useChromium: the browser is there only inside a test');
      return browser;
    },
    afterTest: (step) => void steps.push(step),
  };
}
