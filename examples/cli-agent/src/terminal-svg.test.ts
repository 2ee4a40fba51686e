import { describe, expect, it } from 'vitest';
import { renderTerminalSvg, screenText } from './terminal-svg.js';

// What tmux's `capture-pane -e` gives for two lines of the live block, blank rows after them.
const capture =
  '\u001b[36m⠴\u001b[39m \u001b[1mSummarize <it> & go\n\u001b[0m\u001b[39m\u001b[49m  \u001b[2mRead README.md\n\u001b[0m\n\n   \n';

describe('renderTerminalSvg', () => {
  it('keeps the plain text, without colours or the blank rows below it', () => {
    expect(screenText(capture)).toBe('⠴ Summarize <it> & go\n  Read README.md');
  });

  it('puts each cell at its column with its colour, bold and dim, the text escaped', () => {
    expect(renderTerminalSvg(capture, { columns: 40, title: 'npm run demo' })).toMatchInlineSnapshot(`
      "<svg xmlns="http://www.w3.org/2000/svg" width="364" height="94" viewBox="0 0 364 94" role="img">
      <title>npm run demo</title>
      <desc>⠴ Summarize &lt;it&gt; &amp; go
        Read README.md</desc>
      <rect width="364" height="94" rx="8" fill="rgb(30,32,36)"/>
      <circle cx="20" cy="16" r="6" fill="rgb(255,95,86)"/><circle cx="40" cy="16" r="6" fill="rgb(255,189,46)"/><circle cx="60" cy="16" r="6" fill="rgb(39,201,63)"/>
      <text x="182" y="21" fill="rgb(150,150,150)" font-family="sans-serif" font-size="13" text-anchor="middle">npm run demo</text>
      <g font-family="ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace" font-size="14" fill="rgb(220,223,228)" xml:space="preserve" style="white-space:pre">
      <text x="14.0" y="56" textLength="8.4" lengthAdjust="spacingAndGlyphs" fill="rgb(0,187,187)">⠴</text><text x="30.8" y="56" textLength="159.6" lengthAdjust="spacingAndGlyphs" font-weight="bold">Summarize &lt;it&gt; &amp; go</text>
      <text x="30.8" y="75" textLength="117.6" lengthAdjust="spacingAndGlyphs" opacity="0.6">Read README.md</text>
      </g>
      </svg>
      "
    `);
  });

  it('drops control bytes XML cannot hold', () => {
    expect(renderTerminalSvg('a\u0001b\u0007c', { columns: 10, title: 't\u0000' })).toContain('<title>t</title>\n<desc>abc</desc>');
  });
});
