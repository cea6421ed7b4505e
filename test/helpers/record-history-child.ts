// A second process recording into a history file, as a second dashboard would:
// node --import tsx record-history-child.ts PATH SOURCE SYMBOL POLLS START_MS
import { openHistoryStore } from '../../src/store/history-store.js';

const [path, source, symbol, polls, start] = process.argv.slice(2);
const store = openHistoryStore(path!);
for (let i = 0; i < Number(polls); i++) {
  store.record(source!, [{ symbol: symbol!, price: 100 + i, volume: 1000 + i }], Number(start) + i * 1000);
}
store.close();
