// A plausible recorded run for benches that push many events through one component: iterations
// of model steps and tool calls, with text that varies per event, ending in `run.finished`.
import type { ProgressEvent } from '@headway/protocol';

export interface RecordedRunOptions {
  /** `text.delta` events per iteration (default 1): a streamed answer's pieces. */
  textDeltas?: number;
}

/** Exactly `n` events of one run (`run-7f3a9c`), seq 1..n, 17 ms apart. */
export function recordedRun(n: number, options: RecordedRunOptions = {}): ProgressEvent[] {
  const events: ProgressEvent[] = [];
  const tools = ['file_read', 'web_search', 'shell', 'http_get'];
  const iterations = Math.ceil(n / 9);
  let seq = 0;
  let ts = 1_700_000_000_000;
  const push = (body: Record<string, unknown>): void => {
    seq += 1;
    ts += 17;
    events.push({ ...body, runId: 'run-7f3a9c', seq, ts } as ProgressEvent);
  };
  push({ type: 'run.started', agentName: 'researcher', task: 'Summarize the open issues of the repository' });
  for (let i = 0; events.length < n - 1; i++) {
    const tool = tools[i % tools.length]!;
    push({ type: 'iteration', index: i, max: iterations });
    push({ type: 'step.started', step: `llm-call-${i}`, description: `model call ${i}` });
    push({ type: 'thinking', content: `I should look at item ${i} next and compare it with item ${i - 1}` });
    for (let d = 0; d < (options.textDeltas ?? 1); d++) push({ type: 'text.delta', text: `Item ${i} part ${d} looks fine; ` });
    push({ type: 'step.finished', step: `llm-call-${i}`, durationMs: 800 + (i % 400) });
    push({ type: 'tool.executing', toolName: tool, toolCallId: `call_${i}`, args: { path: `src/module-${i % 97}.ts`, limit: 50 } });
    push({
      type: 'tool.completed',
      toolName: tool,
      toolCallId: `call_${i}`,
      durationMs: 30 + (i % 50),
      ok: i % 13 !== 0,
      preview: `Found ${i % 17} matches in module ${i % 97}`,
    });
    push({
      type: 'progress',
      percent: Math.min(99, (i * 100) / iterations),
      message: `Analyzing item ${i} of ${iterations}`,
      etaMs: 60_000 - (i % 60_000),
    });
  }
  events.length = n - 1;
  seq = n - 1;
  push({ type: 'run.finished', durationMs: 3_600_000, outcome: 'completed', summary: `finished after ${n} events` });
  return events;
}
