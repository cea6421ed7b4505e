// Starting and ending the dashboard: the alternate screen is entered before the first frame and
// left on every way out (quit, Ctrl-C, a signal, a crash, whose error is printed after), and on
// every way out the writes the user asked for are sent first; one that fails or goes unanswered
// by then is said on stderr once the terminal is restored, and the status is 1. A signal that
// ends the process (SIGINT, SIGQUIT, SIGTERM, SIGHUP) gives the terminal back at once, then sends
// what is pending, and the status is 128 + the signal's number, as a shell expects. When the
// terminal itself is gone (EIO/EPIPE reading or writing it) nothing more is written to it: the
// writes are sent and the caller ends the process as a hang-up ends one.
import { type Instance, render } from 'ink';
import { ApiError } from '../api/errors.js';
import { sanitize } from '../text/sanitize.js';
import { Dashboard, type DashboardProps } from './Dashboard.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { HUNG_UP, isTerminalGone, signalStatus } from './terminal/hang-up.js';
import { Lifecycle, LifecycleContext } from './lifecycle.js';
import { TerminalReader } from './keys/terminal-reader.js';
import { alertBytes, clipboardSequence } from './terminal/notify.js';
import { AlertCommands } from '../alerts/command-runner.js';
import { InputSourceContext } from './keys/input-source.js';
import { PassThrough } from 'node:stream';
import { KITTY_KEYS_QUERY, Screen } from './terminal/screen.js';
import { mouseAtStart } from './mouse/mouse-setting.js';
import { errorText } from './state/error-text.js';
import { realTimers, type Unfinished, WriteLedger } from './contacts/write-ledger.js';
import { asciiLine, type GlyphSetting, GlyphsContext, glyphsFor } from './style/glyphs.js';
import { BACKGROUND_QUERY, backgroundIsLight, parseBackground } from './terminal/background.js';
import { type ColorSetting, ThemeContext, themeFor, type ThemeSetting } from './style/theme.js';
import { firstFrameDrawn } from '../launch/first-frame.js';
import { ReaderOutput, spokenAscii } from './reader/reader-output.js';

export type RunDashboardOptions = Pick<
  DashboardProps,
  'client' | 'status' | 'target' | 'watchlist' | 'intervalS' | 'persistWatchlist' | 'refreshSettings' | 'history' | 'motion' | 'hideMoney' | 'persistHideMoney' | 'persistMouse' | 'contactsSource' | 'exportDir'
> & {
  /** The config's "mouse": false starts the dashboard with the mouse left to the terminal. */
  mouse?: boolean | undefined;
  /** How a fired alert reaches the terminal (the config's "alerts"): each on unless false. */
  alertChannels?: { bell?: boolean | undefined; notify?: boolean | undefined; command?: string | undefined } | undefined;
  /** The config's "glyphs" and "colors" (TICKBOOK_GLYPHS and TICKBOOK_COLORS come first). */
  glyphs?: GlyphSetting | undefined;
  colors?: ColorSetting | undefined;
  /** --theme, else the config's "theme": auto asks the terminal for its background. */
  theme?: ThemeSetting | undefined;
  /**
   * Work that waits for the first frame (the embedded sandbox's database): started once the frame
   * is on screen; its failure ends the dashboard as a crash does, the error said after it.
   */
  afterFirstFrame?: (() => Promise<unknown>) | undefined;
  /**
   * For a screen reader (--screen-reader, the config's screen_reader): the dashboard is said, a
   * line at a time, on the shell's screen; the selected price every `readPricesEveryS` seconds
   * when it changed (0: only when asked).
   */
  screenReader?: { readPricesEveryS: number } | undefined;
};

/** Signals that end the dashboard, all one way: the terminal restored, what is pending sent. */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP'];

/** A write the user will not see fail on the screen, as stderr says it. */
function unfinishedLine(write: Unfinished): string {
  const reason = !write.failed
    ? `no answer from the server within ${write.waitedMs / 1000} s; it may or may not have been done`
    : write.error instanceof ApiError
      ? write.error.describe()
      : errorText(write.error);
  return `tickbook: ${sanitize(`could not ${write.what}: ${reason}`)}\n`;
}

/**
 * Runs the dashboard until the user quits or a signal ends it; resolves with the exit status (0,
 * 1 when a write failed on the way out, or 128 + the signal's number).
 */
export async function runDashboard(options: RunDashboardOptions): Promise<number> {
  const { stdout, stdin } = process;
  const lifecycle = new Lifecycle();
  const ledger = new WriteLedger();
  let fatal: Error | undefined;
  /** The signal that ended the run; SIGHUP also when the terminal went away without one. */
  let endedBy: NodeJS.Signals | undefined;
  let terminalGone = false;
  let detached = false;
  let ending = false;
  let instance: Instance | undefined;
  const glyphs = glyphsFor(process.env, options.glyphs);
  const themeSetting = options.theme ?? 'auto';
  let theme = themeFor(process.env, options.colors, themeSetting === 'auto' ? 'dark' : themeSetting);
  const readerWanted = options.screenReader;
  // A dumb terminal (Emacs's shell, Emacspeak) is sent no control sequence at all.
  const plain = readerWanted !== undefined && process.env.TERM === 'dumb';
  // Where the terminal cannot draw Unicode, nothing but ASCII reaches it, whatever the text. Lines
  // for a reader need no glyph a terminal type may lack: the locale alone says whether a name's
  // accents can be sent (a dumb terminal in a UTF-8 locale shows them), else they are dropped.
  const readerUnicode = readerWanted && glyphsFor({ ...process.env, TERM: undefined }, options.glyphs).unicode;
  const screen = new Screen(stdout, glyphs.unicode ? undefined : asciiLine, readerWanted && { plain });
  const input = new TerminalReader(stdin);
  const reader = readerWanted
    ? new ReaderOutput({ write: (bytes) => screen.signal(bytes), status: options.status, shown: readerUnicode ? undefined : spokenAscii, timers: realTimers, now: Date.now, readPricesEveryS: readerWanted.readPricesEveryS, columns: () => stdout.columns || 80 })
    : undefined;
  const mouse = readerWanted ? { on: false } : mouseAtStart(process.env, options.mouse);
  /** The terminal asked to report the mouse, and the input told to look for its reports. */
  const reportMouse = (on: boolean) => {
    screen.mouse = on;
    input.mouseReports = on;
  };
  reportMouse(mouse.on);
  const leave = () => screen.leave();
  const say = (line: string) => options.status.notice(`warning: ${line}`);
  const command = options.alertChannels?.command;
  const alertCommands = command ? new AlertCommands({ command, env: process.env, onProblem: say, onSkipped: say }) : undefined;

  /** Sends what the user asked to write, then ends the app, whatever state React is in. */
  const end = () => {
    if (ending) return;
    ending = true;
    void ledger.settle().finally(() => instance?.unmount());
  };
  /** Nothing more is drawn or read: the terminal is the shell's again, or gone. */
  const letGo = () => {
    if (detached) return;
    detached = true;
    screen.hangUp();
    input.detach();
    end();
  };
  const hangUp = () => {
    terminalGone = true;
    endedBy ??= 'SIGHUP';
    // Writing to a terminal that is gone only fails again; reading it too.
    letGo();
  };
  /**
   * Asked twice to end (a second signal, or a second Ctrl-C while "finishing…" waits for the
   * server): the terminal is the shell's at once, and the process ends without waiting, saying
   * what may be lost, as the first would have ended it without us.
   */
  const leaveNow = () => {
    if (!terminalGone) {
      reader?.stop();
      screen.leave();
      if (stdin.isTTY) stdin.setRawMode(false);
    }
    process.stderr.write('tickbook: stopped before the server answered; a change you made may not have been sent\n');
    process.exit(signalStatus(endedBy ?? 'SIGINT'));
  };
  /**
   * The terminal first, at once: waiting for the server's answers can take seconds, and a second
   * signal or a SIGKILL meanwhile must not leave the shell in the alternate screen, the cursor
   * hidden. A SIGHUP usually means the terminal is gone: restoring it then fails, and is let be.
   */
  const signalled = (signal: NodeJS.Signals) => {
    if (endedBy) {
      // Not while the terminal is gone: nothing is waiting on the user there.
      if (signal === 'SIGHUP' || terminalGone) return;
      leaveNow();
    }
    endedBy = signal;
    if (!terminalGone) {
      // Reports off before cooked mode: a click in between would be echoed onto the shell's line.
      screen.leave();
      if (stdin.isTTY) stdin.setRawMode(false);
    }
    letGo();
  };
  // Only the terminal's own streams say it is gone: an error's `code` elsewhere (an ApiError's
  // is the server's word) is no evidence, and a crash is reported as one.
  const crash = (error: unknown) => {
    fatal ??= error instanceof Error ? error : new Error(String(error));
    // Nothing more is drawn: the screen is left and the caller prints the error.
    end();
  };
  const terminalError = (error: unknown) => (isTerminalGone(error) ? hangUp() : crash(error));

  const suspend = () => {
    lifecycle.emit('suspend');
    reader?.suspend();
    screen.leave();
    if (stdin.isTTY) stdin.setRawMode(false);
    process.once('SIGCONT', () => {
      // Ended while stopped (a SIGTERM waits for the SIGCONT): the terminal stays the shell's.
      if (endedBy) return;
      screen.enter();
      if (stdin.isTTY) stdin.setRawMode(true);
      // The shell may have resized the terminal meanwhile: relayout and redraw everything.
      stdout.emit('resize');
      lifecycle.emit('resume');
      reader?.resume();
    });
    // The whole process group, as a terminal's Ctrl-Z in cooked mode would: what started us and
    // waits for us (the launcher running us on the pinned Node, `npm start`) stops too, so the
    // shell sees the job stopped and gives its prompt back.
    process.kill(0, 'SIGTSTP');
  };

  // Every way out leaves the alternate screen.
  const handlers: [string, (...args: unknown[]) => void][] = [
    ['exit', leave],
    ...ENDING_SIGNALS.map((signal): [string, () => void] => [signal, () => signalled(signal)]),
    ['uncaughtException', crash],
    ['unhandledRejection', crash],
  ];
  // Raw mode before anything is drawn: a Ctrl-Z typed as soon as the first frame shows is a key
  // of ours (which leaves the screen first), never the terminal driver's stop, which would leave
  // the shell the alternate screen and the mouse reported.
  try {
    input.setRawMode(true);
  } catch (error) {
    terminalError(error);
  }
  // The alternate screen is entered before the first frame is drawn.
  screen.enter();
  // The reader is told how to begin before the first screen is said.
  reader?.start();
  for (const [event, handler] of handlers) process.on(event, handler);
  stdout.on('error', terminalError);
  stdin.on('error', terminalError);
  const { afterFirstFrame } = options;
  if (afterFirstFrame) void screen.firstFrame.then(afterFirstFrame).catch(crash);
  // The launcher keeps the code compiled for this frame, for the next start.
  void screen.firstFrame.then(firstFrameDrawn);

  try {
    // Drawn again with the light theme when the terminal says its background is light.
    const tree = () => (
      <ErrorBoundary onError={crash}>
        <ThemeContext.Provider value={theme}>
          <GlyphsContext.Provider value={glyphs}>
            <LifecycleContext.Provider value={lifecycle}>
              <InputSourceContext.Provider value={input}>
                <Dashboard
                  client={options.client}
                  status={options.status}
                  target={options.target}
                  watchlist={options.watchlist}
                  intervalS={options.intervalS}
                  persistWatchlist={options.persistWatchlist}
                  refreshSettings={options.refreshSettings}
                  history={options.history}
                  motion={options.motion}
                  hideMoney={options.hideMoney}
                  contactsSource={options.contactsSource}
                  exportDir={options.exportDir}
                  persistHideMoney={options.persistHideMoney}
                  mouse={mouse.on}
                  onMouse={reportMouse}
                  persistMouse={options.persistMouse}
                  // A dumb terminal takes no OSC 52 and no OSC 9: only the bell, a character it rings.
                  onCopy={plain ? undefined : (text) => screen.signal(clipboardSequence(text, process.env))}
                  onAlert={(firing) => {
                    const channels = options.alertChannels;
                    screen.signal(alertBytes('tickbook alert', firing.text, process.env, { bell: channels?.bell !== false, notify: !plain && channels?.notify !== false }));
                    alertCommands?.run(firing);
                  }}
                  onSuspend={suspend}
                  onLeaveNow={leaveNow}
                  ledger={ledger}
                  reader={reader}
                />
              </InputSourceContext.Provider>
            </LifecycleContext.Provider>
          </GlyphsContext.Provider>
        </ThemeContext.Provider>
      </ErrorBoundary>
    );
    instance = render(
      tree(),
      // Debug mode hands each whole frame to the screen writer (and ignores CI, which would
      // otherwise stop Ink from drawing at all).
      // The terminal is read by `input` alone: Ink is given a stream nothing is written to, so
      // no key passes a second parser.
      { stdout: screen.sink as unknown as NodeJS.WriteStream, stdin: new PassThrough() as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
    );
    if (stdin.isTTY && stdout.isTTY && !plain) {
      // Terminals with the kitty keyboard protocol say so, and then send every key unambiguously
      // (Esc at once, Alt and Ctrl chords as themselves); the others do not answer, and keep the
      // keys they always sent.
      input.once('kitty', () => (screen.kittyKeys = true));
      screen.signal(KITTY_KEYS_QUERY);
    }
    if (themeSetting === 'auto' && theme.color && stdin.isTTY && stdout.isTTY && !readerWanted) {
      input.once('background', (answer: string) => {
        const rgb = parseBackground(answer);
        if (rgb === undefined || !backgroundIsLight(rgb)) return;
        theme = themeFor(process.env, options.colors, 'light');
        instance?.rerender(tree());
      });
      screen.signal(BACKGROUND_QUERY);
    }
    await instance.waitUntilExit();
  } catch (error) {
    fatal ??= error instanceof Error ? error : new Error(String(error));
  } finally {
    // First: a process still reading the terminal would not exit. Cooked mode again, unless the
    // terminal is gone or already the shell's (detached).
    input.setRawMode(false);
    input.detach();
    reader?.stop();
    screen.stopReports();
    // However it ended, nothing the user asked to write is left behind, and no alert command is
    // left running.
    await Promise.all([ledger.settle(), alertCommands?.stop()]);
    screen.flush();
    screen.dispose();
    for (const [event, handler] of handlers) process.off(event, handler);
    // Late errors of a terminal that is gone (or may be: a SIGHUP) are no news; keep them from
    // crashing the way out.
    if (!endedBy) {
      stdout.off('error', terminalError);
      stdin.off('error', terminalError);
    }
  }
  const unfinished = ledger.unfinished();
  // Now that the terminal is restored, and not into a terminal that is gone.
  if (!(terminalGone && process.stderr.isTTY)) for (const write of unfinished) process.stderr.write(unfinishedLine(write));
  // Whatever signal came first, a terminal found gone is left as a hang-up leaves it: the caller
  // must not end by exiting normally (see endByHangUp).
  if (terminalGone) return HUNG_UP;
  if (endedBy) return signalStatus(endedBy);
  if (fatal) throw fatal;
  return unfinished.length > 0 ? 1 : 0;
}
