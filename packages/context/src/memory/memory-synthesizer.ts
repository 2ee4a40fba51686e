import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseOptions } from '../parse-options.js';
import { estimateTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import { jaccard, oneLine, wordSet } from '../text/words.js';

interface Prepared {
  text: string;
  words: Set<string>;
  cost: number;
}

/** Where a memory fragment comes from. */
export type MemorySource = 'learnings' | 'playbook' | 'conversation' | 'summaries';

/** The seed's weight of each source. */
export const DEFAULT_MEMORY_WEIGHTS: Readonly<Record<MemorySource, number>> = {
  learnings: 0.7,
  playbook: 0.6,
  conversation: 0.5,
  summaries: 0.4,
};
/** The seed's budget of the memory block, in tokens. */
export const MEMORY_BUDGET_TOKENS = 4500;
/** Word-set similarity at or above which two fragments are near-duplicates. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

/** One piece of memory offered to the synthesizer. */
export interface MemoryFragment {
  source: MemorySource;
  text: string;
}

/** A fragment as ranked: its score is the source's weight times its keyword overlap with the query. */
export interface RankedFragment extends MemoryFragment {
  score: number;
  /** Share of the query's words (0–1) the fragment contains. */
  overlap: number;
}

/** What {@link MemorySynthesizer.synthesize} produced. */
export interface SynthesizedMemory {
  /** The block injected into the context; `''` when nothing is relevant. */
  block: string;
  /** Its tokens (by the synthesizer's counter). */
  tokens: number;
  /** The fragments in the block, best first. */
  fragments: RankedFragment[];
  /** Fragments left out as near-duplicates of better ones, or because the budget was full. */
  duplicates: number;
  overBudget: number;
}

/** Options of {@link MemorySynthesizer}. */
export interface MemorySynthesizerOptions {
  /** Weight of each source (default 0.7 / 0.6 / 0.5 / 0.4); each in 0–1. */
  weights?: Partial<Record<MemorySource, number>>;
  /** Tokens the block may take (default 4,500). */
  maxTokens?: number;
  /** Counts tokens (default the estimate). */
  counter?: TokenCounter;
}

const weight = z.number().min(0).max(1);
const schema = z.strictObject({
  weights: z
    .strictObject({
      learnings: weight.optional(),
      playbook: weight.optional(),
      conversation: weight.optional(),
      summaries: weight.optional(),
    })
    .optional(),
  maxTokens: z.int().min(1).max(1_000_000).optional(),
  counter: z
    .custom<TokenCounter>(
      (v) => typeof v === 'object' && v !== null && typeof (v as TokenCounter).countText === 'function',
      'expected { countText(text) }',
    )
    .optional(),
});

const HEADER = '## Relevant memory (ranked; use what helps, ignore the rest)';
const FRAGMENT_CHARS = 1200;
const MAX_FRAGMENTS = 2000;
/** Prepared fragments remembered (least recently used dropped first): one full offer of fragments, twice. */
const MEMORY_CACHE_ENTRIES = 2 * MAX_FRAGMENTS;
/** Texts up to this length are their own cache key; longer ones are keyed by their SHA-256, so the cache never holds them. */
const KEY_AS_TEXT_CHARS = 256;

/**
 * The memory synthesizer: scores fragments from learnings (0.7), the playbook (0.6), the
 * conversation (0.5) and summaries (0.4) against the query by keyword overlap (the query's words
 * and attention's topic words), drops near-duplicates (word sets 80% alike), and writes one
 * ranked block within 4,500 tokens.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming the bad field, e.g. `weights.learnings: too big`.
 * @example
 * ```ts
 * const memory = new MemorySynthesizer().synthesize('fix the login test', ['login'], [
 *   { source: 'learnings', text: 'The login test needs the TEST_DB variable.' },
 * ]);
 * memory.block; // "## Relevant memory …\n- [learnings] The login test needs the TEST_DB variable."
 * ```
 */
export class MemorySynthesizer {
  readonly weights: Readonly<Record<MemorySource, number>>;
  readonly maxTokens: number;
  readonly #counter: TokenCounter;
  readonly #cache = new Map<string, Prepared>();

  constructor(options: MemorySynthesizerOptions = {}) {
    const o = parseOptions('MemorySynthesizer', schema, options);
    this.weights = { ...DEFAULT_MEMORY_WEIGHTS, ...(o.weights as Partial<Record<MemorySource, number>> | undefined) };
    this.maxTokens = o.maxTokens ?? MEMORY_BUDGET_TOKENS;
    this.#counter = o.counter ?? estimateTokenCounter;
  }

  /** Ranks `fragments` against `query` (plus `topics`) and writes the block. */
  synthesize(query: string, topics: readonly string[], fragments: readonly MemoryFragment[]): SynthesizedMemory {
    const queryWords = new Set([...this.#prepared(query).words, ...topics.map((t) => t.toLowerCase())]);
    const ranked: (RankedFragment & { words: Set<string>; i: number; cost: number })[] = [];
    fragments.slice(0, MAX_FRAGMENTS).forEach((f, i) => {
      const { text, words } = this.#prepared(f.text);
      if (text === '' || queryWords.size === 0) return;
      let shared = 0;
      for (const w of queryWords) if (words.has(w)) shared += 1;
      if (shared === 0) return;
      const overlap = shared / queryWords.size;
      ranked.push({
        source: f.source,
        text,
        overlap,
        score: this.weights[f.source] * overlap,
        words,
        i,
        cost: this.#prepared(f.text).cost + this.#counter.countText(f.source),
      });
    });
    ranked.sort((a, b) => b.score - a.score || this.weights[b.source] - this.weights[a.source] || a.i - b.i);
    const kept: typeof ranked = [];
    let duplicates = 0;
    let overBudget = 0;
    let tokens = this.#counter.countText(HEADER);
    const keptTexts = new Set<string>();
    for (const f of ranked) {
      // Cheapest checks first: the same text, then the budget, then word-set similarity.
      if (keptTexts.has(f.text)) {
        duplicates += 1;
        continue;
      }
      if (tokens + f.cost > this.maxTokens) {
        overBudget += 1;
        continue;
      }
      if (kept.some((k) => jaccard(k.words, f.words) >= NEAR_DUPLICATE_SIMILARITY)) {
        duplicates += 1;
        continue;
      }
      tokens += f.cost;
      kept.push(f);
      keptTexts.add(f.text);
    }
    const block = kept.length === 0 ? '' : [HEADER, ...kept.map((f) => `- [${f.source}] ${f.text}`)].join('\n');
    return {
      block,
      tokens: block === '' ? 0 : tokens,
      fragments: kept.map(({ source, text, score, overlap }) => ({ source, text, score, overlap })),
      duplicates,
      overBudget,
    };
  }

  /**
   * A fragment's line, word set and token cost (of `\n- [] text`; the source name is added as
   * characters), remembered: a conversation is offered again every iteration. The cache is keyed
   * by a hash of long texts and holds at most {@link MEMORY_CACHE_ENTRIES} entries, so offering
   * many large fragments keeps none of them alive.
   */
  #prepared(raw: string): Prepared {
    const key = raw.length <= KEY_AS_TEXT_CHARS ? `t:${raw}` : `h:${createHash('sha256').update(raw).digest('base64')}`;
    let p = this.#cache.get(key);
    if (p === undefined) {
      const text = oneLine(raw, FRAGMENT_CHARS);
      p = { text, words: wordSet(text), cost: this.#counter.countText(`\n- [] ${text}`) };
      if (this.#cache.size >= MEMORY_CACHE_ENTRIES) {
        const oldest = this.#cache.keys().next();
        if (oldest.done !== true) this.#cache.delete(oldest.value);
      }
    } else {
      // Refreshes its place: a Map iterates in insertion order, so the first key is the least recently used.
      this.#cache.delete(key);
    }
    this.#cache.set(key, p);
    return p;
  }
}
