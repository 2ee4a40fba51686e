const TASK_LINES = 80;

/**
 * The last lines each step of the test command printed, kept for the end of the run: a log cut to
 * its tail (as CI shows it) still says what failed and how. Turbo's output (key `turbo`) is also
 * kept per task, from its `pkg:task: ` prefixes, and its summary names the failed tasks.
 * @param {number} [lines] how many lines {@link tail} gives by default
 */
export function createTails(lines = 25) {
  /** @type {Map<string, { partial: string, lines: string[] }>} */
  const tails = new Map();
  /** Adds what a step printed (any chunk: a line may span two). */
  function keep(key, text) {
    let t = tails.get(key);
    if (t === undefined) tails.set(key, (t = { partial: '', lines: [] }));
    const parts = `${t.partial}${text}`.split('\n');
    t.partial = parts.pop() ?? '';
    for (const line of parts) {
      if (key === 'turbo') {
        const task = /^(\S+?:[\w:-]+): /.exec(line)?.[1];
        if (task !== undefined) keep(`turbo ${task}`, `${line.slice(task.length + 2)}\n`);
      }
      t.lines.push(line);
      // Turbo's whole summary is at its end (its `Failed:` line names every failed task).
      // A failed task's own lines: vitest's account of a failure (diff, stack) is longer than a step's end.
      const most = key === 'turbo' ? 400 : key.startsWith('turbo ') ? TASK_LINES : lines;
      if (t.lines.length > most * 2) t.lines.splice(0, t.lines.length - most);
    }
  }
  /** The last `n` lines kept under `key`. */
  function tail(key, n = lines) {
    const t = tails.get(key);
    return t === undefined ? [] : [...t.lines, ...(t.partial === '' ? [] : [t.partial])].slice(-n);
  }
  /** What to print for a failed step: its tail, or for turbo each failed task's. */
  function report(key) {
    if (key !== 'turbo') return `--- ${key}\n${tail(key).join('\n')}`;
    // Turbo names every failed task on one line: `Failed:    a#test, b#lint`.
    const named = tail('turbo', 400).flatMap((l) => /^\s*Failed:\s+(.*)$/.exec(l)?.[1].split(/[,\s]+/) ?? []);
    const tasks = [...new Set(named.filter((t) => t.includes('#')))];
    if (tasks.length === 0) return `--- turbo (no failed task named)\n${tail('turbo').join('\n')}`;
    return tasks
      .map((task) => {
        const own = tail(`turbo ${task.replace('#', ':')}`, TASK_LINES);
        // A task that printed nothing under its prefix (it was killed, or failed to start): turbo's own last lines.
        return `--- turbo: ${task}\n${(own.length > 0 ? own : tail('turbo')).join('\n')}`;
      })
      .join('\n');
  }
  return { keep, tail, report, has: (key) => tails.has(key) };
}
