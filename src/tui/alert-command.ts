// The user's own command for a fired alert (the config's alerts.command): run by the shell with
// the firing in environment variables, for mail, a phone push or a script. It never writes to the
// dashboard's terminal and never holds it up; one that cannot start or fails is said.
import { spawn } from 'node:child_process';
import type { Firing } from '../store/alerts-store.js';

/** The variables the command is given. */
export function alertEnvironment(firing: Firing): Record<string, string> {
  return {
    TICKBOOK_ALERT_ID: String(firing.alert),
    TICKBOOK_ALERT_SYMBOL: firing.symbol,
    TICKBOOK_ALERT_PRICE: firing.price === undefined ? '' : String(firing.price),
    TICKBOOK_ALERT_TIME: new Date(firing.at).toISOString(),
    TICKBOOK_ALERT_TEXT: firing.text,
  };
}

export function runAlertCommand(command: string, firing: Firing, onProblem: (line: string) => void): void {
  let child;
  try {
    child = spawn('/bin/sh', ['-c', command], { env: { ...process.env, ...alertEnvironment(firing) }, stdio: 'ignore', detached: true });
  } catch (error) {
    onProblem(`alerts.command could not start: ${(error as Error).message}`);
    return;
  }
  child.on('error', (error) => onProblem(`alerts.command could not start: ${error.message}`));
  child.on('exit', (code, signal) => {
    if (code !== 0) onProblem(`alerts.command ${signal ? `was ended by ${signal}` : `exited ${code}`} for alert ${firing.alert}`);
  });
  // Quitting the dashboard does not wait for it, nor end it.
  child.unref();
}
