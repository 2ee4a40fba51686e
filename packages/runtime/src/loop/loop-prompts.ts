import { PROGRESS_PROMPT_INSTRUCTIONS } from '@headway/estimator';
import type { AgentConfig } from './agent-config.js';

/** The system message a run starts with: the configured prompt, plus the `_progress` instructions when progress is AI-driven. */
export function runSystemPrompt(config: AgentConfig): string {
  return config.progress.aiDriven ? `${config.systemPrompt}\n\n${PROGRESS_PROMPT_INSTRUCTIONS}` : config.systemPrompt;
}

/**
 * The short check the model gets after each iteration of tool results, so it stops as soon as
 * the task is done instead of wandering on.
 */
export const VERIFICATION_PROMPT =
  'Check before you continue: has the task been fully done, as the user asked? If yes, reply with the final answer and call no tools. If not, say in one line what is still missing, then take the next step.';

/** The prompt injected after a tool failed `failures` times in a row. */
export function strategyRotationPrompt(toolName: string, failures: number, lastError: string): string {
  return [
    `The tool "${toolName}" has failed ${failures} times in a row (last error: ${lastError}).`,
    'Repeating the same call will not help. Change strategy: check the arguments against the tool description, try a different tool, or approach the task another way. If it cannot be done, say so and explain why.',
  ].join(' ');
}

/** The one message a `nudge` stall policy sends the model, naming what repeated. */
export function stallNudgePrompt(description: string): string {
  return [
    `You seem to be stuck: ${description}.`,
    'Doing the same thing again will give the same result. Change your approach (other arguments, another tool, another way to the goal), or, if the task is done or cannot be done, say so and stop.',
  ].join(' ');
}
