import { createUIMessageStream, readUIMessageStream, streamText, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { manualClock, scriptedModel, tools, userTexts } from './scripted-model.test-util.js';
import { createUIMessageStreamSink, type HeadwayDataTypes } from './ui-message-stream.js';
import { withHeadway } from './with-headway.js';

type Message = UIMessage<unknown, HeadwayDataTypes>;

/** Runs a two-step (or limited) streamText agent into a UI message stream and reads it back with the AI SDK. */
async function readBack(options: {
  maxIterations: number;
  transientProgress?: boolean;
}): Promise<{ messages: Message[]; final: Message | undefined }> {
  const stream = createUIMessageStream<Message>({
    execute: async ({ writer }) => {
      const run = withHeadway({
        task: 'Read a.txt',
        sinks: [createUIMessageStreamSink(writer, { transientProgress: options.transientProgress ?? false })],
        maxIterations: options.maxIterations,
        clock: manualClock(),
      });
      const model = scriptedModel((call, o) => {
        if (userTexts(o).some((t) => t.startsWith('STOP:'))) return { text: 'no report today' };
        return call === 0 ? { calls: [{ tool: 'read', input: { path: 'a.txt' } }] } : { text: 'a.txt says hi' };
      });
      const result = streamText({ model, tools, prompt: 'Read a.txt', ...run.settings });
      writer.merge(result.toUIMessageStream());
      await run.track(result.text);
    },
  });
  const messages: Message[] = [];
  for await (const message of readUIMessageStream<Message>({ stream })) messages.push(structuredClone(message));
  return { messages, final: messages.at(-1) };
}

describe('createUIMessageStreamSink', () => {
  it('keeps one data-progress part, replaced in place, ending at 100 and completed', async () => {
    const { messages, final } = await readBack({ maxIterations: 5 });
    const progress = final?.parts.filter((p) => p.type === 'data-progress') ?? [];
    expect(progress).toEqual([{ type: 'data-progress', id: 'headway-progress', data: { percent: 100, status: 'completed' } }]);
    // Earlier snapshots of the message saw lower percents in the same single part.
    const seen = messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'data-progress' ? [p.data.percent] : [])));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(final?.parts.some((p) => p.type === 'data-report')).toBe(false);
    expect(final?.parts.some((p) => p.type === 'text' && p.text === 'a.txt says hi')).toBe(true);
  });

  it('at a limit the report is a persistent part; transient progress stays out of the history', async () => {
    const { final } = await readBack({ maxIterations: 2, transientProgress: true });
    expect(final?.parts.filter((p) => p.type === 'data-progress')).toEqual([]);
    const report = final?.parts.find((p) => p.type === 'data-report');
    expect(report).toMatchObject({ id: 'headway-report', data: { generatedBy: 'fallback', reason: 'max-iterations', task: 'Read a.txt' } });
  });
});
