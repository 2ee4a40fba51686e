import { extractModelProgress } from '@headway/estimator';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let round = 0; round < 4; round++) {
  const row: string[] = [];
  for (const n of [10_000, 20_000, 50_000, 100_000, 1_000_000]) {
    const inputs = Array.from({ length: Math.max(1, 2_000_000 / n) }, () => `${'{'.repeat(n)}"_progress"`);
    const t = cpu();
    for (const s of inputs) extractModelProgress(s);
    row.push(`${n}: ${((cpu() - t) / inputs.length * 1e6 / n).toFixed(1)} ns/char`);
  }
  console.log(row.join('  '));
}
