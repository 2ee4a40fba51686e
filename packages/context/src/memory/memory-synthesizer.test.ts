import { HeadwayError } from '@headway/protocol';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_WEIGHTS, MEMORY_BUDGET_TOKENS, MemorySynthesizer, type MemoryFragment } from './memory-synthesizer.js';

describe('MemorySynthesizer', () => {
  it('has the seed numbers: weights 0.7 / 0.6 / 0.5 / 0.4 and a 4,500-token budget', () => {
    expect(DEFAULT_MEMORY_WEIGHTS).toEqual({ learnings: 0.7, playbook: 0.6, conversation: 0.5, summaries: 0.4 });
    expect(MEMORY_BUDGET_TOKENS).toBe(4500);
    expect(new MemorySynthesizer().maxTokens).toBe(4500);
  });

  it('scores weight × keyword overlap, ranks, and leaves out what shares no word with the query', () => {
    const fragments: MemoryFragment[] = [
      { source: 'summaries', text: 'The login test failed twice yesterday.' },
      { source: 'conversation', text: 'The login test needs a database.' },
      { source: 'learnings', text: 'Login tests need the TEST_DB variable.' },
      { source: 'playbook', text: 'For debug tasks: read_file → run_tests.' },
      { source: 'learnings', text: 'The weather is nice.' },
    ];
    const memory = new MemorySynthesizer().synthesize('Fix the login test', ['login'], fragments);
    // Query words: fix, login, test (topics add nothing new): 3.
    expect(memory.fragments.map((f) => [f.source, f.overlap, Number(f.score.toFixed(4))])).toEqual([
      ['conversation', 2 / 3, 0.3333],
      ['summaries', 2 / 3, 0.2667],
      ['learnings', 1 / 3, 0.2333],
    ]);
    expect(memory.block).toBe(
      [
        '## Relevant memory (ranked; use what helps, ignore the rest)',
        '- [conversation] The login test needs a database.',
        '- [summaries] The login test failed twice yesterday.',
        '- [learnings] Login tests need the TEST_DB variable.',
      ].join('\n'),
    );
  });

  it('removes near-duplicates, keeping the better-scored one', () => {
    const memory = new MemorySynthesizer().synthesize(
      'deploy staging',
      [],
      [
        { source: 'summaries', text: 'Deploy to staging needs the VPN.' },
        { source: 'learnings', text: 'Deploy to staging needs the VPN!' },
      ],
    );
    expect(memory.fragments.map((f) => f.source)).toEqual(['learnings']);
    expect(memory.duplicates).toBe(1);
  });

  it('stays within 4,500 tokens however much is offered', () => {
    const fragments = Array.from({ length: 500 }, (_, i): MemoryFragment => ({
      source: 'conversation',
      text: `deploy step ${i} ${'x'.repeat(i)} ${'detail '.repeat(40)}`,
    }));
    const memory = new MemorySynthesizer().synthesize('deploy', [], fragments);
    expect(memory.tokens).toBeLessThanOrEqual(4500);
    expect(Math.ceil(memory.block.length / 4)).toBeLessThanOrEqual(4500 + memory.fragments.length + 1);
    expect(memory.overBudget).toBeGreaterThan(0);
  });

  it.each([
    [{ weights: { learnings: 1.5 } }, 'Invalid MemorySynthesizer options: weights.learnings: too big: expected number to be <=1'],
    [{ weights: { memories: 0.3 } }, 'Invalid MemorySynthesizer options: weights: unrecognized key: "memories"'],
    [{ maxTokens: 0 }, 'Invalid MemorySynthesizer options: maxTokens: too small: expected number to be >=1'],
  ])('refuses %j at construction, naming the field', (options, message) => {
    let error: unknown;
    try {
      new MemorySynthesizer(options as never);
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, 'CONTEXT_INVALID_CONFIG')).toBe(true);
    expect((error as Error).message).toBe(message);
  });

  it('keeps no offered fragment alive: 100 distinct 1 MB fragments leave the heap (nearly) as it was', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const memory = new MemorySynthesizer();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i += 1) {
      // Each fragment is a fresh 1 MB string that the caller drops right after.
      const text = `login test ${String(i)} ${'x'.repeat(1_000_000)}`;
      memory.synthesize('fix the login test', [], [{ source: 'conversation', text }]);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Keyed by whole texts, the cache held all 100 MB; keyed by hashes it holds a few KB per fragment.
    expect(grown).toBeLessThan(30_000_000);
  }, 120_000);

  it('still prepares a fragment once when offered again (the cache works), whether short or long', () => {
    let counted = 0;
    const memory = new MemorySynthesizer({ counter: { name: 'counting', countText: (t) => ((counted += 1), Math.ceil(t.length / 4)) } });
    const long = `login ${'y'.repeat(10_000)}`;
    const fragments: MemoryFragment[] = [
      { source: 'learnings', text: 'The login test needs TEST_DB.' },
      { source: 'conversation', text: long },
    ];
    memory.synthesize('login', [], fragments);
    const first = counted;
    memory.synthesize('login', [], fragments);
    // The second offer counts only the header and the source names, not the fragments again.
    expect(counted - first).toBeLessThan(first);
    const again = memory.synthesize('login', [], fragments);
    expect(again.fragments.map((f) => f.source)).toEqual(['learnings', 'conversation']);
  });
});
