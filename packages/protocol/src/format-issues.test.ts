import { describe, expect, it } from 'vitest';
import { describeIssues, limitIssues } from './format-issues.js';

const issues = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `items[${String(i)}]`, message: 'expected a number' }));

describe('limitIssues', () => {
  it('keeps every issue up to the cap', () => {
    expect(limitIssues(issues(20))).toEqual(issues(20));
  });

  it('keeps the first 20 and counts the rest in one last issue', () => {
    const limited = limitIssues(issues(1000));
    expect(limited).toHaveLength(21);
    expect(limited[19]).toEqual({ path: 'items[19]', message: 'expected a number' });
    expect(limited[20]).toEqual({ path: '', message: 'and 980 more issues' });
    expect(limitIssues(issues(3), { max: 2 })[2]).toEqual({ path: '', message: 'and 1 more issue' });
  });

  it('counts issues that were never collected when told the total', () => {
    expect(limitIssues(issues(20), { total: 25 }).at(-1)).toEqual({ path: '', message: 'and 5 more issues' });
  });
});

describe('describeIssues', () => {
  it('names the issues, then how many more, reading the count limitIssues added', () => {
    expect(describeIssues(limitIssues(issues(4), { max: 2 }))).toBe('items[0]: expected a number; items[1]: expected a number; and 2 more');
    expect(describeIssues(limitIssues(issues(30)), { max: 1 })).toBe('items[0]: expected a number; and 29 more');
  });

  it('says (root) for an issue of the whole input', () => {
    expect(describeIssues([{ path: '', message: 'expected a JSON object' }])).toBe('(root): expected a JSON object');
  });
});
