import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PAGE_HTML, PAGE_SCRIPT } from './page.js';

describe('the page', () => {
  it('sends at most 100 KB of script, gzipped', () => {
    expect(gzipSync(PAGE_SCRIPT).byteLength).toBeLessThanOrEqual(100 * 1024);
  });

  it('has no inline script, and parses HTML only for the server-rendered report, in an inert document', () => {
    expect(PAGE_HTML.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/app.js">']);
    expect(PAGE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    expect(PAGE_SCRIPT.match(/parseFromString\([^)]*\)/g)).toEqual(["parseFromString(html, 'text/html')"]);
  });

  it('reads live data over Server-Sent Events, never by polling', () => {
    expect(PAGE_SCRIPT).toContain('new EventSource(url)');
    expect(PAGE_SCRIPT).not.toMatch(/setInterval|setTimeout/);
  });
});
