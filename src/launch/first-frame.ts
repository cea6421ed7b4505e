// The launcher and the dashboard's bundle are two separate trees of code (bin/tickbook loads the
// bundle as a script): this global is how the dashboard tells the launcher its first frame is out,
// the moment the launcher keeps the code compiled so far (src/launch/dashboard-script.ts).
const KEY = Symbol.for('tickbook.firstFrame');

type Holder = { [KEY]?: (() => void) | undefined };

/** Asks to be told, once, when the dashboard's first frame is on screen. */
export function onFirstFrame(listener: () => void): void {
  (globalThis as Holder)[KEY] = listener;
}

/** Tells whoever asked (nobody, when the dashboard was started otherwise: a test, the ES modules). */
export function firstFrameDrawn(): void {
  const holder = globalThis as Holder;
  const listener = holder[KEY];
  delete holder[KEY];
  listener?.();
}
