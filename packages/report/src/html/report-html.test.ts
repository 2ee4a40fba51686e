import { renderProgressReport, type ProgressReport } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { MAX_REPORT_MARKDOWN, reportHtml } from './report-html.js';
import { notInert, withoutTags } from './report-html.test-util.js';

const report: ProgressReport = {
  task: 'Compare the sorting algorithms',
  reason: 'max-iterations',
  completedWork: ['Read **Merge sort**'],
  keyFindings: [],
  attemptedInconclusive: [],
  remaining: ['Read Quicksort'],
  suggestedNextSteps: ['Read Quicksort'],
  stats: { iterations: 3, toolCalls: 4, elapsedMs: 1500 },
  generatedBy: 'model',
};

describe('reportHtml', () => {
  it('renders the report: headings, lists, emphasis, no Markdown markers left', () => {
    const html = reportHtml(renderProgressReport(report));
    expect(html).toContain('<h2>PROGRESS REPORT</h2>');
    expect(html).toContain('<h3>Key Findings</h3>\n<p><em>None.</em></p>');
    expect(html).toContain('<li>Read <strong>Merge sort</strong></li>');
    expect(html).toMatch(/<p><strong>Stats:<\/strong> 3 iterations/);
    expect(withoutTags(html)).not.toMatch(/##|\*\*|_None\._/);
  });

  it('shows raw HTML as text and refuses links that run code', () => {
    const hostile = [
      '- <img src=x onerror="alert(1)">',
      '- <script>alert(2)</script>',
      '- [click](javascript:alert(3)) [tab](JaVaScRiPt&#58;alert(4)) [vb](vbscript:msgbox(5)) [data](data:text/html;base64,PHNjcmlwdD4=)',
      '- ![pixel](https://tracker.example/p.png)',
      '',
      '<div onclick="alert(6)">raw block</div>',
      '<a href="javascript:alert(7)">raw link</a>',
      '[ok](https://example.org/docs)',
    ].join('\n');
    const html = reportHtml(hostile);
    expect(notInert(html)).toBeUndefined();
    expect(html).toContain('<li>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</li>');
    expect(html).toContain('<li>&lt;script&gt;alert(2)&lt;/script&gt;</li>');
    expect(html).toContain('<p>&lt;div onclick=&quot;alert(6)&quot;&gt;raw block&lt;/div&gt;');
    expect(html).not.toMatch(/<img|<script|<div|href="(?:javascript|vbscript|data)/i);
    expect(html).toContain('<a href="https://example.org/docs" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
  });

  it('cuts a huge report with a note', () => {
    const html = reportHtml(`- ${'x'.repeat(MAX_REPORT_MARKDOWN + 10)}`);
    expect(html).toContain(`<em>(cut: the report is longer than ${MAX_REPORT_MARKDOWN} characters)</em>`);
    expect(html.length).toBeLessThan(MAX_REPORT_MARKDOWN + 200);
  });

  it('has a check that fails on live markup', () => {
    expect(notInert('<p><img src="x"></p>')).toBe('tag <img src="x">');
    expect(notInert('<p onclick="x">a</p>')).toBe('attribute onclick in <p onclick="x">');
    expect(notInert('<a href="jav&#x61;script:x">a</a>')).toBe('link jav&#x61;script:x');
    expect(notInert('<a href=javascript:x>a</a>')).toBe('malformed tag <a href=javascript:x>');
    expect(notInert('<h2>ok</h2><a href="https://x.example" target="_blank">x</a>')).toBeUndefined();
  });
});
