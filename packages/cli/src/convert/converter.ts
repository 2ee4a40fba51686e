import type { ProgressEventBody } from '@headway/protocol';

/** The stream formats `headway watch --from` and `headway convert --from` read. */
export type AgentFormat = 'headway' | 'claude-code' | 'codex' | 'gemini';

/** Every {@link AgentFormat}, in the order `--from auto` tries them. */
export const AGENT_FORMATS: readonly AgentFormat[] = ['headway', 'claude-code', 'codex', 'gemini'];

/** One event a converter made from a line, and the time the line carried (epoch ms), if any. */
export interface ConvertedEvent {
  body: ProgressEventBody;
  ts?: number;
}

/**
 * Turns one agent's JSON-lines stream into headway progress event bodies, one parsed line at a
 * time. A converter keeps what it needs across lines (the open turn, tool names by call id) and
 * never throws for a value it does not recognise: it answers `undefined` (not understood).
 */
export interface StreamConverter {
  readonly format: AgentFormat;
  /** The run's id when the stream names one (a session or thread id), once it has been seen. */
  readonly sessionId: string | undefined;
  /** Events for one parsed line; `[]` for a line understood but with nothing to show; `undefined` when not understood. */
  convert(value: unknown, now: number): ConvertedEvent[] | undefined;
  /** The input ended: events that close what is still open (a turn, running tools). */
  end(now: number): ConvertedEvent[];
}
