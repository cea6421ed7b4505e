// Starting and ending the dashboard: the alternate screen is entered before the first frame and
// left on every way out (quit, Ctrl-C, SIGTERM, SIGHUP, a crash, whose error is printed after).
import { type Instance, render } from 'ink';
import { Dashboard, type DashboardProps } from './Dashboard.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { Lifecycle, LifecycleContext } from './lifecycle.js';
import { PacedInput } from './paced-input.js';
import { Screen } from './screen.js';
import { ThemeContext, themeFor } from './theme.js';

export type RunDashboardOptions = Pick<
  DashboardProps,
  'client' | 'status' | 'target' | 'watchlist' | 'intervalS' | 'persistWatchlist'
>;

/** Runs the dashboard until the user quits; resolves with the exit status. */
export async function runDashboard(options: RunDashboardOptions): Promise<number> {
  const { stdout, stdin } = process;
  const lifecycle = new Lifecycle();
  let fatal: Error | undefined;
  let instance: Instance | undefined;
  const screen = new Screen(stdout);
  const leave = () => screen.leave();

  const crash = (error: unknown) => {
    fatal = error instanceof Error ? error : new Error(String(error));
    // Nothing more is drawn: leave the screen and let the caller print the error.
    instance?.unmount();
  };
  const terminate = () => lifecycle.emit('terminate');

  const suspend = () => {
    lifecycle.emit('suspend');
    if (stdin.isTTY) stdin.setRawMode(false);
    screen.leave();
    process.once('SIGCONT', () => {
      screen.enter();
      if (stdin.isTTY) stdin.setRawMode(true);
      // The shell may have resized the terminal meanwhile: relayout and redraw everything.
      stdout.emit('resize');
      lifecycle.emit('resume');
    });
    process.kill(process.pid, 'SIGTSTP');
  };

  // Every way out leaves the alternate screen; signals quit as `q` would.
  const handlers: [string, (...args: unknown[]) => void][] = [
    ['exit', leave],
    ['SIGTERM', terminate],
    ['SIGHUP', terminate],
    ['uncaughtException', crash],
    ['unhandledRejection', crash],
  ];
  // The alternate screen is entered before the first frame is drawn.
  screen.enter();
  for (const [event, handler] of handlers) process.on(event, handler);

  const input = new PacedInput(stdin);
  try {
    instance = render(
      <ErrorBoundary onError={crash}>
        <ThemeContext.Provider value={themeFor()}>
          <LifecycleContext.Provider value={lifecycle}>
            <Dashboard
              client={options.client}
              status={options.status}
              target={options.target}
              watchlist={options.watchlist}
              intervalS={options.intervalS}
              persistWatchlist={options.persistWatchlist}
              onSuspend={suspend}
            />
          </LifecycleContext.Provider>
        </ThemeContext.Provider>
      </ErrorBoundary>,
      // Debug mode hands each whole frame to the screen writer (and ignores CI, which would
      // otherwise stop Ink from drawing at all).
      { stdout: screen.sink as unknown as NodeJS.WriteStream, stdin: input as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
    );
    await instance.waitUntilExit();
  } catch (error) {
    fatal ??= error instanceof Error ? error : new Error(String(error));
  } finally {
    // First: a process still reading the terminal would not exit.
    input.detach();
    screen.flush();
    screen.dispose();
    for (const [event, handler] of handlers) process.off(event, handler);
  }
  if (fatal) throw fatal;
  return 0;
}
