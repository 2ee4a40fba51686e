// Hostile report Markdown: whatever a model writes, the HTML is inert and comes in linear time.
import { HOSTILE_PARSER_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileParserInput } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportHtml } from './report-html.js';
import { notInert } from './report-html.test-util.js';

const hostile = hostileParserInput({
  markers: [
    '<script>',
    '</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">',
    '](javascript:alert(1))',
    '](JAVASCRIPT&#58;alert(1))',
    '](data:text/html,<script>)',
    '](vbscript:x)',
    '![x](',
    '[x]: javascript:alert(1)\n',
    '<div onclick=x>',
    '<!--',
    '<?php',
    '<![CDATA[',
    '&lt;',
    '&#60;',
    '\\<',
    '> ',
    '1. ',
    '_None._',
    '| a | b |\n|--:|---|\n',
    '<https://x.example>',
    '<javascript:alert(1)>',
  ],
  repeat: ['- ', '> ', '[', '*a ', '<', '](', '`', '_', '  - x\n', '| '],
  nesting: [
    ['> ', ''],
    ['[', '](x)'],
    ['*', '*'],
    ['  - ', '\n'],
  ],
  shapes: [],
});

describe('reportHtml on hostile Markdown', () => {
  it(
    'renders any text inert: no tag, attribute or link that runs code',
    () => {
      fc.assert(
        fc.property(hostile.string, (text) => {
          const html = reportHtml(text);
          expect(notInert(html)).toBeUndefined();
        }),
        HOSTILE_PARSER_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'lists nested thousands deep and a huge report render without a hang',
    () => {
      let nested = '';
      for (let depth = 0; depth < 5000; depth++) nested += `${'  '.repeat(depth)}- level ${depth} <img src=x onerror=alert(1)>\n`;
      const quotes = `${'> '.repeat(100_000)}<script>alert(1)</script>`;
      const brackets = `${'['.repeat(100_000)}x${'](javascript:alert(1))'.repeat(10_000)}`;
      for (const text of [nested, quotes, brackets, '<'.repeat(300_000)]) expect(notInert(reportHtml(text))).toBeUndefined();
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
