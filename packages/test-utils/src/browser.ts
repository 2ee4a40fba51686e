/**
 * A headless Chromium for the suites that check a page, through playwright-core. Its own entry
 * (`@headway/test-utils/browser`), so suites without a browser never load playwright-core.
 *
 * @packageDocumentation
 */
export { CHROMIUM_ARGS, launchTestBrowser } from './test-browser.js';
export type { TestBrowser, TestBrowserOptions } from './test-browser.js';
