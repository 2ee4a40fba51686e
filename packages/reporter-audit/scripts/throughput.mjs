// Events per second through AuditReporter into each bus (run `pnpm build` first):
//   node scripts/throughput.mjs [events]
// Each bus gets the same mix of reporter calls and hub events (tool args, previews, limits).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditReporter, JsonlAuditBus, MemoryAuditBus, SqliteAuditBus } from '../dist/index.js';

const total = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'headway-audit-throughput-'));

function feed(reporter, count) {
  for (let i = 0; i < count; i += 4) {
    reporter.onIteration(i, count);
    reporter.handle({ runId: 'r', seq: i + 1, ts: Date.now(), type: 'tool.executing', toolName: 'file_read', toolCallId: `c${i}`, args: { path: `src/file-${i}.ts`, limit: 200 } });
    reporter.handle({ runId: 'r', seq: i + 2, ts: Date.now(), type: 'tool.completed', toolName: 'file_read', toolCallId: `c${i}`, durationMs: 3, ok: true, preview: 'export function main() { return 42 }' });
    reporter.onProgress((i / count) * 100, 'Reading files');
  }
}

function measure(name, makeBus, close) {
  const bus = makeBus();
  const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus, redact: { paths: ['detail.args.apiKey'] } });
  feed(reporter, 400); // warm up
  const start = process.hrtime.bigint();
  feed(reporter, total);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  close?.(bus);
  if (reporter.failures !== 0) throw new Error(`${name}: ${reporter.failures} failures`);
  console.log(`${name.padEnd(28)} ${Math.round(total / seconds).toLocaleString('en-US').padStart(9)} events/s  ${((seconds / total) * 1e6).toFixed(1)} µs/event`);
}

const noop = { publish() {} };
measure('no-op bus (reporter only)', () => noop);
measure('MemoryAuditBus', () => new MemoryAuditBus({ maxEvents: total + 1000 }));
measure('JsonlAuditBus', () => new JsonlAuditBus(join(dir, 'a.jsonl')), (b) => b.close());
measure('JsonlAuditBus fsync', () => new JsonlAuditBus(join(dir, 'b.jsonl'), { fsync: true }), (b) => b.close());
measure('SqliteAuditBus (WAL, normal)', () => new SqliteAuditBus(join(dir, 'a.db')), (b) => b.close());
rmSync(dir, { recursive: true, force: true });
