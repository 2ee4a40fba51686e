import { describe, expect, it } from 'vitest';
import { analyseAttention, type AttentionResult } from './attention.js';

const tools = [
  { name: 'run_tests', description: 'Run the test suite and report failures' },
  { name: 'read_file', description: 'Read a file from the repository' },
  { name: 'deploy', description: 'Deploy a build to staging or production' },
];

describe('analyseAttention', () => {
  it.each([
    ['URGENT: production is down, fix it now', 'high'],
    ['Please fix this asap', 'high'],
    ['The build fails!!!', 'high'],
    ['We have an outage in the payments service', 'high'],
    ['Summarise the README', 'normal'],
    ['Fix the test, it fails!', 'normal'],
    ['No rush, but tidy the changelog when you have time', 'low'],
    ['Whenever you get a chance, rename the module', 'low'],
  ] as const)('urgency of %j is %s', (text, urgency) => {
    expect(analyseAttention(text).urgency).toBe(urgency);
  });

  it.each([
    [
      'Fix the failing login test in login.test.ts; the login form rejects valid passwords',
      ['login', 'fix', 'failing', 'test', 'login.test.ts'],
    ],
    ['Deploy the staging build, then deploy production', ['deploy', 'staging', 'build', 'production']],
    ['the and of to', []],
    ['Compare 2024 and 2025 revenue', ['compare', 'revenue']],
  ] as const)('topics of %j are %j (most frequent first, then first seen)', (text, topics) => {
    expect(analyseAttention(text).topics).toEqual(topics);
  });

  it.each([
    ['Run the tests and read the failing file', ['run_tests', 'read_file']],
    ['Deploy the build to staging', ['deploy']],
    ['Write a poem about autumn', []],
  ] as const)('favours the tools that %j is about: %j', (text, favoured) => {
    expect(analyseAttention(text, { tools }).favouredTools).toEqual(favoured);
  });

  it('tracks focus across turns: continued while a topic is shared, reset when none is', () => {
    const turns = [
      'Why does the login test fail?',
      'Show me the login test file',
      'Now fix the login form',
      'What is the weather in Paris?',
    ];
    let previous: AttentionResult | undefined;
    const focus = turns.map((text) => {
      previous = analyseAttention(text, { previous });
      return previous.focus;
    });
    expect(focus).toEqual([
      { topic: 'login', turns: 1, continued: false },
      { topic: 'login', turns: 2, continued: true },
      { topic: 'login', turns: 3, continued: true },
      { topic: 'weather', turns: 1, continued: false },
    ]);
  });

  it('is deterministic and bounded on huge input', () => {
    const text = 'deploy '.repeat(100_000);
    expect(analyseAttention(text, { tools })).toEqual(analyseAttention(text, { tools }));
    expect(analyseAttention(text).topics).toEqual(['deploy']);
  });
});
