// A scripted "research" model and its tool: it looks up one license at a time, reports
// `_progress`, winds down when asked for a report (finishing the lookup in hand first), and,
// handed a continuation prompt, picks up only what is still missing.
import { defineTool, type ChatMessage, type CompletionRequest } from '@headway/runtime';
import type { ScriptedStep } from '@headway/runtime/testing';
import { z } from 'zod';

/** The research task both runs work on. */
export const TASK =
  'Compare eight open-source licenses (MIT, Apache-2.0, GPL-3.0, MPL-2.0, BSD-3-Clause, LGPL-3.0, AGPL-3.0, EPL-2.0) for a commercial library';

export const LICENSES = ['MIT', 'Apache-2.0', 'GPL-3.0', 'MPL-2.0', 'BSD-3-Clause', 'LGPL-3.0', 'AGPL-3.0', 'EPL-2.0'] as const;
type License = (typeof LICENSES)[number];

const FACTS: Record<License, string> = {
  MIT: 'permissive; keep the notice; no patent grant',
  'Apache-2.0': 'permissive; explicit patent grant; state changes',
  'GPL-3.0': 'strong copyleft; derivatives under GPL-3.0; patent grant',
  'MPL-2.0': 'weak copyleft per file; patent grant',
  'BSD-3-Clause': 'permissive; no endorsement clause; no patent grant',
  'LGPL-3.0': 'weak copyleft for libraries; dynamic linking allowed',
  'AGPL-3.0': 'strong copyleft that also covers use over a network',
  'EPL-2.0': 'weak copyleft per module; patent grant; GPL-compatible by option',
};

/** The tool: a slow lookup in a local table (real time passes, so budgets bite). */
export function lookupTool(delayMs: number) {
  return defineTool({
    name: 'lookup_license',
    description: 'Look up the key terms of an open-source license by SPDX id',
    parameters: z.object({ id: z.enum(LICENSES) }),
    safe: true,
    execute: ({ id }, ctx) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          resolve(`${id}: ${FACTS[id]}`);
        }, delayMs);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('lookup cancelled'));
        });
      }),
  });
}

const FINDING = /^(?:- )?(MIT|Apache-2\.0|GPL-3\.0|MPL-2\.0|BSD-3-Clause|LGPL-3\.0|AGPL-3\.0|EPL-2\.0): (.+)$/gm;

/** License → terms, from tool results in this run and findings handed over in the prompt. */
function knownTerms(conversation: readonly ChatMessage[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const m of conversation) {
    if (m.role !== 'tool' && m.role !== 'user') continue;
    for (const match of m.content.matchAll(FINDING))
      if (match[1] !== undefined && match[2] !== undefined) known.set(match[1], match[2].trim());
  }
  return known;
}

function progress(percent: number, message: string): string {
  return `\`\`\`json\n${JSON.stringify({ _progress: { percent, message } })}\n\`\`\``;
}

function report(known: Map<string, string>, remaining: string[]): string {
  return [
    '## PROGRESS REPORT',
    '### Task',
    TASK,
    '### Completed Work',
    ...[...known.keys()].map((id) => `- Looked up ${id}`),
    '### Key Findings',
    ...[...known.entries()].map(([id, terms]) => `- ${id}: ${terms}`),
    '### Attempted but Inconclusive',
    '### Not Started / Remaining',
    ...remaining.map((id) => `- Look up ${id}`),
    '### Suggested Next Steps',
    ...remaining.map((id) => `- lookup_license {"id":"${id}"}`),
    '- Write the comparison table',
  ].join('\n');
}

/** The scripted model: `(conversation, request) => step`. */
export function researchModel(thinkMs: number): (conversation: readonly ChatMessage[], request: CompletionRequest) => ScriptedStep {
  return (conversation, request) => {
    const known = knownTerms(conversation);
    const remaining = LICENSES.filter((id) => !known.has(id));
    const reportAsk = conversation.findLastIndex((m) => m.role === 'user' && m.content.includes('## PROGRESS REPORT'));
    const canCall = request.tools.length > 0 && remaining.length > 0;
    if (reportAsk !== -1) {
      // Winding down: finish the lookup in hand (one grace iteration), then hand over.
      const answeredSince = conversation.slice(reportAsk).filter((m) => m.role === 'assistant').length;
      if (canCall && answeredSince === 0) {
        return {
          content: `Finishing the lookup in hand before I report.`,
          toolCalls: [{ name: 'lookup_license', args: { id: remaining[0] } }],
          delayMs: thinkMs,
        };
      }
      return { content: report(known, [...remaining]), delayMs: thinkMs };
    }
    if (canCall) {
      const id = remaining[0] ?? '';
      const percent = Math.round((known.size / LICENSES.length) * 90);
      return { content: progress(percent, `Looking up ${id}`), toolCalls: [{ name: 'lookup_license', args: { id } }], delayMs: thinkMs };
    }
    const rows = LICENSES.map((id) => `| ${id} | ${known.get(id) ?? 'unknown'} |`);
    return {
      content: [
        '| license | key terms |',
        '|---|---|',
        ...rows,
        '',
        'For a commercial library: MIT, BSD-3-Clause or Apache-2.0 (Apache adds a patent grant).',
      ].join('\n'),
      delayMs: thinkMs,
    };
  };
}
