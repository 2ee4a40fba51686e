import { createStallDetector, type StallChange } from '@headway/estimator';
import type { ProgressEvent } from '@headway/protocol';

/** Most tool calls remembered between their start and their end. */
const MAX_OPEN_CALLS = 1_000;

/** Stall detection over a watched stream (what `headway watch` shows as `stuck? …`). */
export interface WatchStall {
  /** The stall changes `event` causes, in order (usually none). */
  see(event: ProgressEvent): StallChange[];
}

/**
 * Feeds a converted agent stream (Claude Code, Codex, gemini-cli, or a headway log without stall
 * events of its own) to the estimator's stall detector: a tool call is its name and arguments from
 * `tool.executing` and its result preview from `tool.completed`, an iteration ends at
 * `step.finished`, and the model's text of a turn is its `text.delta`s.
 */
export function createWatchStall(): WatchStall {
  const detector = createStallDetector();
  const open = new Map<string, { name: string; args: unknown }>();
  let iteration = 0;
  let text = '';
  let ownEvents = false;
  return {
    see(event) {
      // A stream that reports its own stalls (a headway runtime's log) is not second-guessed.
      if (event.type === 'stall.detected' || event.type === 'stall.cleared') ownEvents = true;
      if (ownEvents) return [];
      const changes: (StallChange | undefined)[] = [];
      switch (event.type) {
        case 'tool.executing':
          if (event.toolCallId !== undefined && open.size < MAX_OPEN_CALLS)
            open.set(event.toolCallId, { name: event.toolName, args: event.args });
          break;
        case 'tool.completed': {
          const started = event.toolCallId === undefined ? undefined : open.get(event.toolCallId);
          if (event.toolCallId !== undefined) open.delete(event.toolCallId);
          changes.push(
            detector.toolCall({
              iteration,
              ...(event.toolCallId === undefined ? {} : { id: event.toolCallId }),
              name: event.toolName,
              args: started?.args,
              result: event.preview,
              ok: event.ok,
            }),
          );
          break;
        }
        case 'text.delta':
          if (text.length < 8192) text += event.text;
          break;
        case 'plan.updated':
          detector.plan(event.items.filter((item) => item.status === 'completed').length);
          break;
        case 'step.finished':
          if (text.trim() !== '') changes.push(detector.text(iteration, text));
          text = '';
          changes.push(detector.iterationFinished(iteration));
          iteration += 1;
          break;
        default:
          break;
      }
      return changes.filter((c): c is StallChange => c !== undefined);
    },
  };
}
