// A headless Chromium for the suites that check a page (the dashboard, the example pages): one
// launch with the same flags everywhere, one page, and the page's errors collected, so a test
// asserts `pageErrors` is empty instead of wiring the same listeners again. Loaded from its own
// entry (`@headway/test-utils/browser`) so that suites without a browser never load playwright-core.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The flags every suite launches Chromium with: no sandbox (the tests run as root in containers),
 * no GPU, and no first-run, sync or background traffic that a test could wait on.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Options of {@link launchTestBrowser}. */
export interface TestBrowserOptions {
  /** The Chromium binary (`findTestPart('HEADWAY_CHROMIUM_PATH')`). */
  executablePath: string;
  /** A profile directory for a persistent context (a returning user's browser); default a fresh context. */
  profileDir?: string;
  /** The viewport of the pages (default Playwright's 1280×720). */
  viewport?: { width: number; height: number };
  /**
   * Which console messages of the first page count as page errors besides uncaught exceptions:
   * `csp`, the Content-Security-Policy refusals (default); `error`, every error; `warning`, errors
   * and warnings.
   */
  console?: 'csp' | 'error' | 'warning';
}

/** A browser started by {@link launchTestBrowser}. */
export interface TestBrowser {
  /** The context its pages live in (cookies are shared between them). */
  readonly context: BrowserContext;
  /** The first page, whose errors {@link TestBrowser.pageErrors} collects. */
  readonly page: Page;
  /** Uncaught exceptions of the first page, and the console messages `console` selects, in order. */
  readonly pageErrors: string[];
  /** Another page in the same context (its errors are not collected). */
  newPage(): Promise<Page>;
  /** Closes the pages and the browser. */
  close(): Promise<void>;
}

/**
 * How long a launch, a navigation or an action may take before Playwright gives up: 2 minutes
 * instead of its 30 s. On a busy two-core machine one launch took 28 s, so 30 s failed tests that
 * had nothing wrong; a test's own timeout is the hang guard.
 */
const BROWSER_TIMEOUT_MS = 120_000;

function isCollected(type: string, text: string, level: NonNullable<TestBrowserOptions['console']>): boolean {
  if (level === 'warning') return type === 'error' || type === 'warning';
  if (level === 'error') return type === 'error';
  return text.includes('Content Security Policy');
}

/**
 * Launches headless Chromium with {@link CHROMIUM_ARGS}, opens one page and collects its errors.
 *
 * @example
 * ```ts
 * const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
 * const browser = await launchTestBrowser({ executablePath: chromiumPath });
 * await browser.page.goto(url);
 * expect(browser.pageErrors).toEqual([]);
 * await browser.close();
 * ```
 */
export async function launchTestBrowser(options: TestBrowserOptions): Promise<TestBrowser> {
  const launch = {
    executablePath: options.executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    timeout: BROWSER_TIMEOUT_MS,
  };
  const viewport = options.viewport === undefined ? {} : { viewport: options.viewport };
  let browser: Browser | undefined;
  let context: BrowserContext;
  if (options.profileDir === undefined) {
    browser = await chromium.launch(launch);
    context = await browser.newContext(viewport);
  } else {
    context = await chromium.launchPersistentContext(options.profileDir, { ...launch, ...viewport });
  }
  context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  const level = options.console ?? 'csp';
  page.on('pageerror', (error) => {
    pageErrors.push(error.message);
  });
  page.on('console', (message) => {
    if (isCollected(message.type(), message.text(), level))
      pageErrors.push(level === 'csp' ? message.text() : `${message.type()}: ${message.text()}`);
  });
  return {
    context,
    page,
    pageErrors,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await browser?.close();
    },
  };
}
