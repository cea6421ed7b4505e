// A child that saves the config as the dashboard does, for tests that need another process: one
// run as nobody (permissions bind), under a file size limit, or one that might hang.
// Usage: save-config-child.ts PATH CHANGES_JSON; prints {"ok":true} or {"error":{name,message}}.
import { updateConfigFile } from '../../src/config/config-file.js';

const [path, changes] = process.argv.slice(2) as [string, string];
try {
  updateConfigFile(path, JSON.parse(changes) as Record<string, unknown>);
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (error) {
  const { name, message } = error as Error;
  process.stdout.write(JSON.stringify({ error: { name, message, isConfigError: name === 'ConfigSaveError' || name === 'ConfigError' } }));
}
