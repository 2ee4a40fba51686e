/** Task types by the first keyword that matches, in this order. */
const TYPES: readonly (readonly [string, RegExp])[] = [
  ['debug', /\b(debug|fix|bug|broken|error|failing|fails|crash|exception|stack trace)\b/i],
  ['test', /\b(tests?|spec|coverage)\b/i],
  ['refactor', /\b(refactor|rename|clean ?up|restructure)\b/i],
  ['review', /\b(review|audit|critique)\b/i],
  ['summarize', /\b(summari[sz]e|summary|tl;?dr|digest)\b/i],
  ['research', /\b(research|investigate|compare|find out|look up|search)\b/i],
  ['data', /\b(csv|sql|query|dataset|spreadsheet|analy[sz]e data|metrics)\b/i],
  ['write', /\b(write|draft|compose|document|blog|email)\b/i],
  ['deploy', /\b(deploy|release|ship|rollout)\b/i],
];

/**
 * The kind of a task, by keyword (`debug`, `test`, `refactor`, `review`, `summarize`, `research`,
 * `data`, `write`, `deploy`, else `general`): what the playbook groups patterns and history by.
 * Deterministic; give the playbook your own `classify` for finer kinds.
 */
export function classifyTask(task: string): string {
  const text = task.length > 4000 ? task.slice(0, 4000) : task;
  for (const [type, pattern] of TYPES) if (pattern.test(text)) return type;
  return 'general';
}
