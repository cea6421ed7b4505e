// The dashboard benchmark: bin/tickbook in a pseudo-terminal (util-linux `script`) at 120x40,
// on its embedded sandbox, a 20-symbol watchlist polled every second. Prints start-up time,
// bytes written per tick, CPU and RSS over the run, and key-press-to-frame latency.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WATCHLIST = 'AAPL,MSFT,NVDA,AMZN,GOOGL,META,TSLA,JPM,V,MA,UNH,XOM,JNJ,PG,HD,VOD.L,SAP.DE,7203.T,SHOP.TO,BHP.AX';
const root = new URL('../../', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'tickbook-bench-tui-'));
const CLOCK_TICKS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const command = `stty cols 120 rows 40; exec ${process.execPath} ${join(root, 'bin/tickbook')} --watchlist ${WATCHLIST} --interval 1`;
  const started = performance.now();
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let bytes = 0;
  let lastChunkAt = 0;
  const chunkWaiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    bytes += Buffer.byteLength(chunk);
    lastChunkAt = performance.now();
    for (const wake of chunkWaiters.splice(0)) wake();
  });

  const waitFor = async (test: () => boolean, what: string, timeoutMs = 15_000) => {
    const deadline = performance.now() + timeoutMs;
    while (!test()) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what} (${bytes} bytes so far: ${JSON.stringify(output.slice(-300))})`);
      await sleep(2);
    }
    return performance.now();
  };

  try {
    const firstFrame = await waitFor(() => output.includes('? help') && output.includes('Ticker'), 'the first frame');
    const withData = await waitFor(() => /page 1 /.test(output) && /AAPL\s+\d+\.\d\d/.test(output), 'contacts and prices');
    process.stdout.write(`start to first full frame        ${(firstFrame - started).toFixed(0)} ms\n`);
    process.stdout.write(`start to contacts and prices     ${(withData - started).toFixed(0)} ms\n`);

    const pid = Number(execFileSync('pgrep', ['-P', String(child.pid), '-f', 'tickbook'], { encoding: 'utf8' }).trim().split('\n')[0]);
    await sleep(3000); // Let the first ticks and the symbol catalogue settle.

    // Ticking, untouched: bytes and lines rewritten per second (one poll per second).
    const cpuBefore = cpuSeconds(pid);
    const bytesBefore = bytes;
    const outputBefore = output.length;
    const tickStarted = performance.now();
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - tickStarted) / 1000;
    const cpu = ((cpuSeconds(pid) - cpuBefore) / elapsed) * 100;
    const ticking = output.slice(outputBefore);
    const perSecond = (bytes - bytesBefore) / elapsed;
    const lineWrites = (ticking.match(/\u001b\[\d+;1H/g) ?? []).length / elapsed;
    const frames = (ticking.match(/\u001b\[\?2026h/g) ?? []).length / elapsed;
    const rss = rssMb(pid);
    process.stdout.write(`ticking ${elapsed.toFixed(0)} s at 1 s: CPU        ${cpu.toFixed(2)}% of one core\n`);
    process.stdout.write(`RSS after the run                ${rss.toFixed(0)} MB\n`);
    process.stdout.write(
      `written per second (one tick)    ${perSecond.toFixed(0)} bytes, ${lineWrites.toFixed(1)} lines in ${frames.toFixed(1)} frames ` +
        `(${(perSecond / Math.max(lineWrites, 1)).toFixed(0)} bytes per changed line)\n`,
    );

    // Key press to updated frame: j and k move the selection, which changes two rows.
    const latencies: number[] = [];
    for (let i = 0; i < 60; i++) {
      await sleep(80);
      const before = lastChunkAt;
      const sent = performance.now();
      child.stdin.write(i % 2 === 0 ? 'j' : 'k');
      await new Promise<void>((resolve) => chunkWaiters.push(resolve));
      if (lastChunkAt > before) latencies.push(lastChunkAt - sent);
    }
    process.stdout.write(
      `key press to updated frame       p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms (${latencies.length} presses)\n\n`,
    );

    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    process.stdout.write('targets:\n');
    process.stdout.write(`  first frame < 600 ms: ${(firstFrame - started).toFixed(0)} ms  ${verdict(firstFrame - started < 600)}\n`);
    process.stdout.write(`  RSS < 130 MB: ${rss.toFixed(0)} MB  ${verdict(rss < 130)}\n`);
    process.stdout.write(`  CPU < 4%: ${cpu.toFixed(2)}%  ${verdict(cpu < 4)}\n`);
    process.stdout.write(`  key to frame p95 < 50 ms: ${percentile(latencies, 95).toFixed(1)} ms  ${verdict(percentile(latencies, 95) < 50)}\n`);
    child.stdin.write('q');
    await waitFor(() => child.exitCode !== null, 'the exit', 10_000);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
