// `headway watch` on 10,000 lines a second of Claude Code stream-json: its CPU time against
// `cat` of the same input to /dev/null plus the rendering alone (the same events, already
// converted, through the same live view at the same pace), and its frames per second. Each
// command is a child process fed at the same pace by this process; CPU times come from the
// shell's `times`, so they are the children's own. Rounds alternate the order.
// Run: pnpm -F @headway/bench bench:cli
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStream } from '@headway/cli';
import { verdict } from '../lib/verdict.js';

const RATE = 10_000;
const SECONDS = 3;
const ROUNDS = 3;
const require = createRequire(import.meta.url);
const BIN = join(require.resolve('@headway/cli/package.json'), '..', 'dist', 'bin.js');
const RENDER_ALONE = new URL('render-alone.mjs', import.meta.url).pathname;

/** A Claude Code stream: per turn a text block, a tool call and its result, with a todo list now and then. */
function makeLines(n: number): string[] {
  const session = '5a2e6f0c-1f7d-4c55-9a4e-2b7d0c9e8f11';
  const lines = [
    JSON.stringify({
      type: 'system',
      subtype: 'init',
      session_id: session,
      model: 'claude-sonnet-4-5',
      tools: ['Bash', 'Read', 'TodoWrite'],
    }),
  ];
  for (let i = 0; lines.length < n - 1; i++) {
    const message = (content: unknown[]): string =>
      JSON.stringify({
        type: 'assistant',
        message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5', content },
        session_id: session,
      });
    lines.push(message([{ type: 'text', text: `Looking at module ${i % 97} for the failing case ${i}.` }]));
    if (i % 50 === 0) {
      const todos = [0, 1, 2, 3].map((k) => ({
        content: `Step ${k} of part ${Math.floor(i / 200)}`,
        status: k < (i / 50) % 4 ? 'completed' : 'pending',
        activeForm: `Doing ${k}`,
      }));
      lines.push(message([{ type: 'tool_use', id: `toolu_t${i}`, name: 'TodoWrite', input: { todos } }]));
      lines.push(
        JSON.stringify({
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `toolu_t${i}`, content: 'Todos have been modified successfully.' }],
          },
          session_id: session,
        }),
      );
    }
    lines.push(
      message([
        { type: 'tool_use', id: `toolu_${i}`, name: i % 2 === 0 ? 'Read' : 'Bash', input: { file_path: `/app/src/module-${i % 97}.ts` } },
      ]),
    );
    lines.push(
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `export const x${i} = ${i};\n`.repeat(3) }],
        },
        session_id: session,
      }),
    );
  }
  lines.length = n - 1;
  lines.push(
    JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: SECONDS * 1000,
      num_turns: n / 3,
      result: 'Done.',
      session_id: session,
      total_cost_usd: 1.23,
      usage: { input_tokens: 1000, output_tokens: 100 },
    }),
  );
  return lines;
}

interface Measured {
  cpuMs: number;
  wallMs: number;
  frames: number;
}

/** Runs `command` under bash, feeding it `lines` at RATE a second when given; CPU from `times`. */
function run(command: string, lines: string[] | undefined): Promise<Measured> {
  const child = spawn('bash', ['-c', `${command}; times`], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, CI: '', TERM: 'xterm-256color' },
  });
  let out = '';
  let frames = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('latin1').on('data', (d: string) => {
    // log-update starts every frame after the first by moving to column 1 (ESC [ G).
    frames += d.split('\u001b[G').length - 1;
  });
  const start = Date.now();
  if (lines === undefined) {
    child.stdin.end();
  } else {
    let sent = 0;
    const timer = setInterval(() => {
      const due = Math.min(lines.length, Math.floor(((Date.now() - start) / 1000) * RATE));
      if (due > sent) {
        child.stdin.write(`${lines.slice(sent, due).join('\n')}\n`);
        sent = due;
      }
      if (sent >= lines.length) {
        clearInterval(timer);
        child.stdin.end();
      }
    }, 10);
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Date.now() - start;
      const children = out.trimEnd().split('\n').at(-1) ?? '';
      // `times`' second line: the children's user and system time, e.g. `0m0.861s 0m0.052s`.
      const parts = children.split(' ').map((t) => /^(\d+)m([\d.]+)s$/.exec(t));
      if (parts.length !== 2 || parts.some((m) => m === null) || (code !== 0 && code !== null)) {
        reject(new Error(`${command}: exit ${String(code)}, times: ${out}`));
        return;
      }
      const cpuMs = parts.reduce((sum, m) => sum + (Number(m?.[1]) * 60 + Number(m?.[2])) * 1000, 0);
      resolve({ cpuMs, wallMs, frames: frames + 1 });
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const lines = makeLines(RATE * SECONDS);
const dir = mkdtempSync(join(tmpdir(), 'headway-bench-cli-'));
const converted = new EventStream({ from: 'claude-code' });
const events = [...lines.flatMap((l) => converted.push(l)), ...converted.end()];
const eventsFile = join(dir, 'events.jsonl');
writeFileSync(eventsFile, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
console.log(`input: ${lines.length} lines (${events.length} events) at ${RATE} lines/s`);

const variants: Record<string, () => Promise<Measured>> = {
  cat: () => run('cat > /dev/null', lines),
  render: () => run(`node ${RENDER_ALONE} ${eventsFile} ${(RATE * events.length) / lines.length}`, undefined),
  watch: () => run(`node ${BIN} watch --live --from claude-code > /dev/null`, lines),
};
const results: Record<string, Measured[]> = { cat: [], render: [], watch: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['cat', 'render', 'watch'] : ['watch', 'render', 'cat'];
    for (const name of order) results[name]?.push(await (variants[name] as () => Promise<Measured>)());
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ratios = results.watch?.map((w, i) => w.cpuMs / ((results.cat?.[i]?.cpuMs ?? 0) + (results.render?.[i]?.cpuMs ?? 0))) ?? [];
for (const name of ['cat', 'render', 'watch']) {
  const r = results[name] ?? [];
  const cpu = median(r.map((m) => m.cpuMs));
  const fps = median(r.map((m) => (m.frames / m.wallMs) * 1000));
  console.log(
    `${name.padEnd(7)} cpu ${cpu.toFixed(0).padStart(5)} ms   wall ${median(r.map((m) => m.wallMs)).toFixed(0)} ms${name === 'cat' ? '' : `   frames/s ${fps.toFixed(1)}`}`,
  );
}
const ratio = median(ratios);
const fps = median((results.watch ?? []).map((m) => (m.frames / m.wallMs) * 1000));
console.log(
  `watch CPU / (cat + render alone): ${ratio.toFixed(2)} (median of ${ROUNDS}; target ≤ 1.5)   watch frames/s: ${fps.toFixed(1)} (target ≤ ~12)`,
);
verdict('cli: watch CPU vs cat + render alone', ratio, '<=', 1.5);
verdict('cli: watch frames per second', fps, '<=', 13, '/s');
