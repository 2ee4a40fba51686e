import { contentWords } from '../text/words.js';

/** How pressing a request is. */
export type Urgency = 'low' | 'normal' | 'high';

/** What {@link analyseAttention} makes of one user turn. */
export interface AttentionResult {
  urgency: Urgency;
  /** Up to 5 topic words, most frequent first (first appearance breaks ties). */
  topics: string[];
  /** The topic the user has stayed on, and for how many turns in a row (1 for a new one). */
  focus: { topic: string | undefined; turns: number; continued: boolean };
  /** Tools whose name or description shares words with the turn, best first (all tools stay offered). */
  favouredTools: string[];
}

/** A tool as attention sees it. */
export interface AttentionTool {
  name: string;
  description: string;
}

const HIGH = /\b(?:urgent(?:ly)?|asap|emergency|immediately|critical|right now|outage|(?:is|are|went) down|blocker|p0|sev[ -]?1)\b/i;
const LOW = /\b(?:no rush|whenever|low priority|when you (?:have|get) (?:a chance|time)|eventually|not urgent|someday)\b/i;
const MAX_TOPICS = 5;

/**
 * The attention system at the start of a run: urgency (high for words such as "urgent", "asap",
 * "outage", or three or more `!`; low for "no rush", "whenever"), topic words (the most frequent
 * content words), focus continuity (whether the turn shares a topic with the previous turn of
 * the session) and tool prioritisation (tools whose name or description share the turn's words).
 * Deterministic: the same input gives the same result.
 *
 * @example
 * ```ts
 * analyseAttention('URGENT: the deploy script fails on staging!', { tools: [{ name: 'run_shell', description: 'Run a deploy or build script' }] });
 * // { urgency: 'high', topics: ['urgent', 'deploy', 'script', 'fails', 'staging'], focus: {...}, favouredTools: ['run_shell'] }
 * ```
 */
export function analyseAttention(
  text: string,
  context: { previous?: AttentionResult | undefined; tools?: readonly AttentionTool[] } = {},
): AttentionResult {
  const words = contentWords(text);
  const urgency: Urgency = HIGH.test(text) || (text.match(/!/g)?.length ?? 0) >= 3 ? 'high' : LOW.test(text) ? 'low' : 'normal';
  const topics = topWords(words, MAX_TOPICS);
  const previous = context.previous;
  const shared = previous === undefined ? undefined : topics.find((t) => previous.topics.includes(t));
  const focus =
    previous !== undefined && shared !== undefined
      ? {
          topic: previous.focus.topic !== undefined && topics.includes(previous.focus.topic) ? previous.focus.topic : shared,
          turns: previous.focus.turns + 1,
          continued: true,
        }
      : { topic: topics[0], turns: 1, continued: false };
  return { urgency, topics, focus, favouredTools: favouredTools(new Set(words), context.tools ?? []) };
}

function topWords(words: readonly string[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  // Map keeps first-appearance order; the sort is stable.
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
}

/** Tools sharing words with the turn, by how many (name words count double), then in offered order. */
function favouredTools(words: ReadonlySet<string>, tools: readonly AttentionTool[]): string[] {
  const scored: { name: string; score: number; i: number }[] = [];
  tools.forEach((tool, i) => {
    let score = 0;
    const nameWords = new Set(
      tool.name
        .toLowerCase()
        .split(/[_\-.\s]+/)
        .filter((w) => w.length >= 3),
    );
    for (const w of nameWords) if (words.has(w) || words.has(`${w}s`) || (w.endsWith('s') && words.has(w.slice(0, -1)))) score += 2;
    for (const w of new Set(contentWords(tool.description))) if (!nameWords.has(w) && words.has(w)) score += 1;
    if (score > 0) scored.push({ name: tool.name, score, i });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.name);
}
