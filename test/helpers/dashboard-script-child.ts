// A start of its own for the dashboard script (V8 keeps compiled code per process, so whether a
// cache was taken shows only in a new one):
// node --import tsx dashboard-script-child.ts FILE CACHE_DIR FLAG save|keep → {"use": …} on stdout
import { runDashboardScript } from '../../src/launch/dashboard-script.js';

const [file, cacheDir, flag, then] = process.argv.slice(2);
const run = runDashboardScript({ file: file!, cacheDir: cacheDir!, flags: [flag!] });
if (then === 'save') run.save();
process.stdout.write(JSON.stringify({ use: run.use, cacheFile: run.cacheFile }));
