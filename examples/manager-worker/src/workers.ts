// The four worker agents of the workflow. Each is a real AgentRuntime run with its own
// scripted model and tools; two report `_progress` themselves, two leave it to the
// estimator's fallback.
import { AgentRuntime, defineTool, type Tool } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import type { SinkLike } from '@headway/protocol';
import { z } from 'zod';

const NOTES = [
  'Added @headway/protocol: typed progress events and a fault-isolating hub.',
  'Added @headway/estimator: percent that never goes backwards and an honest ETA.',
  'Added reporters for terminals, JSON lines and audit logs.',
  'Added the agent runtime with limits that end in a progress report.',
];

const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words of a text',
  parameters: z.object({ text: z.string() }),
  safe: true,
  execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
});
const listChanges = defineTool({
  name: 'list_changes',
  description: 'List the changes going into the release',
  parameters: z.object({}),
  safe: true,
  execute: () => NOTES,
});
const draftSection = defineTool({
  name: 'draft_section',
  description: 'Draft one section of the release note',
  parameters: z.object({ title: z.string(), bullets: z.array(z.string()) }),
  execute: ({ title, bullets }) => `### ${title}\n${bullets.map((b) => `- ${b}`).join('\n')}`,
});
const checkLength = defineTool({
  name: 'check_length',
  description: 'Check a text is at most the given number of words',
  parameters: z.object({ text: z.string(), maxWords: z.number().int().positive() }),
  safe: true,
  execute: ({ text, maxWords }) => {
    const words = text.split(/\s+/).filter(Boolean).length;
    return words <= maxWords ? `ok: ${words} words` : `too long: ${words} words`;
  },
});

function progress(percent: number, message: string): string {
  return `\`\`\`json\n${JSON.stringify({ _progress: { percent, message } })}\n\`\`\``;
}

interface WorkerSpec {
  tools: Tool[];
  steps: ScriptedStep[];
  /** Whether this worker reports its own `_progress`. */
  reportsProgress: boolean;
}

const draft = NOTES.join(' ');

/** Workers by the name a WORKFLOW.md calls them. */
const WORKERS: Record<string, WorkerSpec> = {
  'workers/analyzer': {
    reportsProgress: true,
    tools: [listChanges, wordCount],
    steps: [
      { content: progress(30, 'Listing the changes'), toolCalls: [{ name: 'list_changes', args: {} }] },
      { content: progress(70, 'Measuring the material'), toolCalls: [{ name: 'word_count', args: { text: draft } }] },
      { content: `Four changes, ${draft.split(/\s+/).length} words of material.` },
    ],
  },
  'workers/planner': {
    reportsProgress: false,
    tools: [listChanges],
    steps: [
      { toolCalls: [{ name: 'list_changes', args: {} }] },
      { content: 'Plan: one section "What is new" with one bullet per change.' },
    ],
  },
  'workers/generator': {
    reportsProgress: true,
    tools: [draftSection, wordCount],
    steps: [
      {
        content: progress(25, 'Drafting the first half'),
        toolCalls: [{ name: 'draft_section', args: { title: 'What is new', bullets: NOTES.slice(0, 2) } }],
      },
      {
        content: progress(55, 'Drafting the second half'),
        toolCalls: [{ name: 'draft_section', args: { title: 'Also new', bullets: NOTES.slice(2) } }],
      },
      { content: progress(85, 'Counting words'), toolCalls: [{ name: 'word_count', args: { text: draft } }] },
      { content: `## headway 0.1\n### What is new\n${NOTES.map((n) => `- ${n}`).join('\n')}` },
    ],
  },
  'workers/validator': {
    reportsProgress: false,
    tools: [checkLength],
    steps: [
      { toolCalls: [{ name: 'check_length', args: { text: draft, maxWords: 120 } }] },
      { content: 'The release note is within 120 words.' },
    ],
  },
};

/** Runs one worker to completion; its events go to `sinks`. */
export async function runWorker(name: string, options: { stepDelayMs: number; sinks: SinkLike[] }): Promise<string> {
  const spec = WORKERS[name];
  if (spec === undefined) throw new Error(`WORKFLOW.md calls ${name}, which is not a known worker (${Object.keys(WORKERS).join(', ')})`);
  const runtime = new AgentRuntime(
    { provider: 'scripted', agentName: name, maxIterations: 6, progress: { aiDriven: spec.reportsProgress } },
    {
      provider: new ScriptedProvider(spec.steps.map((s) => ({ ...s, delayMs: options.stepDelayMs }))),
      tools: spec.tools,
      sinks: options.sinks,
    },
  );
  const result = await runtime.run(`Do your part of the release note (${name}).`);
  if (result.status !== 'completed') throw new Error(`${name} did not complete: ${result.status}`);
  return result.text;
}
