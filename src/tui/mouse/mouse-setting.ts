// Whether the dashboard reads the mouse when it starts: unless the config says not to, or the
// terminal is one with no mouse (TERM=dumb, where even the request would be shown as text).

export interface MouseAtStart {
  on: boolean;
  /** Why it is off, in words. */
  reason?: string;
}

export function mouseAtStart(env: Readonly<Record<string, string | undefined>>, configured: boolean | undefined): MouseAtStart {
  if (configured === false) return { on: false, reason: 'off in the config ("mouse": false)' };
  if (env.TERM === 'dumb') return { on: false, reason: 'TERM=dumb reports no mouse' };
  return { on: true };
}
