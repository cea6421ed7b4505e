// Group commit: the writes asked for in one turn of the event loop run in one transaction, and
// one fsync (synchronous = FULL) puts them all on disk before any is answered. When one of them
// is refused (a duplicate username), the group is undone and run again with each write in a
// savepoint of its own, so the refused one leaves the rest: a savepoint for every write was
// 10-17 us of a create's 30-40 (bench:server), paid now only by a group with a refusal.
import type Database from 'better-sqlite3';

/** A write waiting for the next group commit. */
interface GroupedWrite {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit {
  /**
   * Runs `work` (create, rename, delete) in the next group commit, with every other write asked
   * for in this turn of the event loop: settles once it is on disk.
   */
  grouped<T>(work: () => T): Promise<T>;
  /** Commits the writes waiting now, at once (before the connection closes). */
  flush(): void;
}

/**
 * Group commit on `db`. `asTransaction` runs one write in a transaction of its own (a savepoint
 * inside another); `failure` is what each write of a group is rejected with when the commit
 * itself fails (SQLite's error in the store's words).
 */
export function groupCommit(db: Database.Database, asTransaction: (run: () => unknown) => unknown, failure: (error: unknown) => unknown): GroupCommit {
  const waiting: GroupedWrite[] = [];
  const commitAll = db.transaction((group: readonly GroupedWrite[]) => group.map((write) => ({ value: write.work() })));
  const commitEach = db.transaction((group: readonly GroupedWrite[]) =>
    group.map((write): { value: unknown } | { error: unknown } => {
      try {
        return { value: asTransaction(write.work) };
      } catch (error) {
        return { error };
      }
    }),
  );
  function flushGroup(): void {
    const group = waiting.splice(0);
    if (group.length === 0) return;
    let outcomes: ReturnType<typeof commitEach>;
    try {
      try {
        outcomes = commitAll(group);
      } catch {
        outcomes = commitEach(group);
      }
    } catch (error) {
      // The commit itself failed: nothing of the group is kept.
      for (const write of group) write.reject(failure(error));
      return;
    }
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome) group[i]!.reject(outcome.error);
      else group[i]!.resolve(outcome.value);
    });
  }

  return {
    grouped: <T>(work: () => T) =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (waiting.length === 1) setImmediate(flushGroup);
      }),
    flush: flushGroup,
  };
}
