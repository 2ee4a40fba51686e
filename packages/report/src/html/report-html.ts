// The progress report as HTML. A report is written by a model (or built from tool results),
// so its text is hostile: markdown-it with `html: false` escapes every raw tag, refuses
// javascript:, vbscript:, file: and data: links, and runs in linear time; images are switched
// off (a report has none, and an image could call out to another site).
import MarkdownIt from 'markdown-it';

/** Longest Markdown drawn; the rest is cut with a note (a report is a few KB). */
export const MAX_REPORT_MARKDOWN: number = 256 * 1024;

const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
markdown.disable(['image']);
const defaultLinkOpen = markdown.renderer.rules.link_open;
// A link in a report leaves the page in a new tab, without the page's window or its address.
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index];
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen === undefined ? self.renderToken(tokens, index, options) : defaultLinkOpen(tokens, index, options, env, self);
};

/**
 * The report's Markdown (`renderProgressReport`) as HTML safe to put in the page: headings,
 * lists and emphasis rendered, every tag the text carries shown as text.
 */
export function reportHtml(text: string): string {
  const cut = text.length > MAX_REPORT_MARKDOWN;
  const source = cut
    ? `${text.slice(0, MAX_REPORT_MARKDOWN)}\n\n_(cut: the report is longer than ${MAX_REPORT_MARKDOWN} characters)_\n`
    : text;
  return markdown.render(source);
}
