// A second process stepping the alerts of one file, as a second watcher would:
// node --import tsx alerts-child.ts PATH SOURCE SYMBOL; then one price a line on stdin, each
// answered with "fired N" (and the firings' texts before it) once it is stepped.
import { createInterface } from 'node:readline';
import { alertsOf } from '../../src/store/alerts-store.js';
import { openHistoryStore } from '../../src/store/history-store.js';

const [path, source, symbol] = process.argv.slice(2);
const store = openHistoryStore(path!);
const alerts = alertsOf(store);
let tick = 0;
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const fired = alerts.evaluate(source!, new Map([[symbol!, { price: Number(line), pollsWithout: 0, now: 1_000 + tick++ }]]), () => undefined);
  for (const firing of fired) process.stdout.write(`said ${firing.text}\n`);
  process.stdout.write(`fired ${fired.length}\n`);
}
store.close();
