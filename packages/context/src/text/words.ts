/** Words too common to say what a text is about. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does done for from had has have how i if in into is it its just me my no not of on ' +
    'or our please so some than that the their them then there these they this to up us was we were what when where which who why will with ' +
    'would you your yes also all any about after again before being both each few more most other own same should such very out over under ' +
    'only off once here now new need needs use used using get make let like want one two take call tool tools result results task'
  ).split(' '),
);

/** Longest text read for words: bounded work on hostile input. */
const MAX_TEXT = 20_000;

/**
 * The content words of a text, lower-cased, in order of first appearance, repeats kept: letters,
 * digits, `_`, `-` and `.` inside a word (file names, identifiers), at least 3 characters, no
 * stopwords, no pure numbers.
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const source = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const match of source.toLowerCase().matchAll(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]/gu)) {
    const word = match[0];
    if (word.length < 3 || word.length > 64 || STOPWORDS.has(word) || /^[\d.-]+$/.test(word)) continue;
    out.push(word);
  }
  return out;
}

/** The distinct content words of a text. */
export function wordSet(text: string): Set<string> {
  return new Set(contentWords(text));
}

/** Jaccard similarity of two word sets (0–1; two empty sets are 1). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** One line of at most `max` characters: whitespace runs become one space, an ellipsis marks a cut. */
export function oneLine(text: string, max: number): string {
  const flat = (text.length > max * 4 ? text.slice(0, max * 4) : text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Tool-call arguments as text (JSON; a string as it is; `''` when they cannot be written). */
export function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  try {
    const json = JSON.stringify(args) as string | undefined;
    return json ?? '';
  } catch {
    return '';
  }
}
