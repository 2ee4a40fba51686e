// What "inert" means for the HTML of a report: only the tags Markdown makes, only harmless
// attributes, no link that runs code. Every literal `<` in markdown-it's output opens a real tag
// (text is escaped), so reading the tags off the string sees everything a browser would build.

const TAGS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'ul',
  'ol',
  'li',
  'em',
  'strong',
  's',
  'code',
  'pre',
  'blockquote',
  'hr',
  'br',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ATTRIBUTES = new Set(['href', 'title', 'target', 'rel', 'start', 'class', 'style']);

/** Why `html` is not inert, or `undefined` when it is. */
export function notInert(html: string): string | undefined {
  for (const piece of html.split('<').slice(1)) {
    const end = piece.indexOf('>');
    if (end === -1) return `unclosed tag <${piece.slice(0, 80)}`;
    const inside = piece.slice(0, end);
    const tag = /^\/?([a-z\d]*)/.exec(inside)?.[1] ?? '';
    if (!TAGS.has(tag)) return `tag <${inside.slice(0, 80)}>`;
    const attributes = inside.slice(tag.length + (inside.startsWith('/') ? 1 : 0));
    for (const attribute of attributes.matchAll(/ ([a-z]+)="([^"]*)"/g)) {
      const [, name = '', value = ''] = attribute;
      if (!ATTRIBUTES.has(name)) return `attribute ${name} in <${inside.slice(0, 80)}>`;
      if (name === 'href' && /^\s*(?:javascript|vbscript|data|file):/i.test(decodeEntities(value))) return `link ${value.slice(0, 80)}`;
      if (name === 'style' && !/^text-align:(?:left|right|center)$/.test(value)) return `style ${value.slice(0, 80)}`;
    }
    // Anything besides well-formed attributes (an unquoted one, a stray character) is suspect.
    if (attributes.replace(/ [a-z]+="[^"]*"/g, '').trim() !== '') return `malformed tag <${inside.slice(0, 80)}>`;
  }
  return undefined;
}

/** The text of `html` without its tags (entities left as they are). */
export function withoutTags(html: string): string {
  return html
    .split('<')
    .map((piece, i) => (i === 0 ? piece : piece.slice(piece.indexOf('>') + 1)))
    .join('');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([\da-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ':');
}
