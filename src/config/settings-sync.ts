// The dashboard's saved settings (its lists and interval) kept in step with the config file, which
// other windows save too: another dashboard on the same home, `tickbook config set`. A save is
// what this window changed since it last agreed with the file, applied under the file's lock to
// the file as it is then (watchlist-merge.ts); and a file changed by another is taken in, merged
// with whatever this window has not saved yet. Whether the file changed is told by its stats (a
// save renames a new file over it), looked at once a poll: fs.watch misses changes on some file
// systems (NFS, a link's target replaced) and costs a descriptor and a watcher per window.
import type { Stats } from 'node:fs';
import { mergeWatchlists, sameWatchlists } from '../market/watchlist-merge.js';
import type { Watchlists } from '../market/watchlists.js';
import { changeConfigFile, ConfigError, type ConfigFile, configFromObject, readObject } from './config-file.js';
import { savedListKeys, savedLists, savedListsProblem } from './saved-watchlists.js';
import { statOrUndefined } from './stat-or-undefined.js';

/** What this window now holds, where it differs from what it had. */
export interface SyncedSettings {
  /** The lists to show: the file's, with this window's changes, its own list shown. */
  lists?: Watchlists;
  intervalS?: number;
  /** What could not be made of this window's changes, or became of its list, in words. */
  notes: string[];
}

/** The file could not be read, with nothing of this window's to save. */
export class ConfigReadError extends ConfigError {
  override readonly name = 'ConfigReadError';
  constructor(
    reason: string,
    /** The file. */
    readonly where: string,
  ) {
    super(`cannot read ${where}: ${reason}`, reason);
  }
}

/** The file's stats in one string, changed by every save (a new file renamed over it) and every edit in place. */
function stamp(stats: Stats | undefined): string {
  return stats ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : 'none';
}

/** The stamp of the file at `path` now (links followed); one that cannot be looked at is its own stamp. */
export function fileStamp(path: string): string {
  try {
    return stamp(statOrUndefined(path));
  } catch (error) {
    return `error ${(error as { code?: string }).code}`;
  }
}

/** The file's settings with this window's changes, and the keys that save them (undefined: nothing to save). */
interface Merged {
  lists: Watchlists | undefined;
  interval: number;
  notes: string[];
  changes: Partial<ConfigFile> | undefined;
}

export interface SettingsSyncOptions {
  /** The lists as read at start; undefined when this run's were given (--watchlist A,B): neither saved nor followed. */
  lists: Watchlists | undefined;
  /** The interval as read at start; undefined when given for this run. */
  intervalS: number | undefined;
  /** The file's stamp (fileStamp) from before it was read at start. */
  stamp: string;
}

export class SettingsSync {
  readonly #path: string;
  /** What this window and the file last agreed on (`lists.active`: the list this window showed then). */
  #base: { lists: Watchlists | undefined; intervalS: number | undefined };
  /** The file's stamp when last read or written. */
  #seen: string;

  constructor(path: string, { lists, intervalS, stamp: seen }: SettingsSyncOptions) {
    this.#path = path;
    this.#base = { lists, intervalS };
    this.#seen = seen;
  }

  /**
   * Saves what this window changed since it last agreed with the file, if anything, and takes in
   * what others saved since, if the file changed: what the window should hold now, or undefined
   * when nothing changed either side. Throws a ConfigSaveError when its changes cannot be saved
   * (the file is left as it was, and the next call tries again), a ConfigReadError when the file
   * cannot be read and there is nothing to save (tried again once the file changes).
   */
  sync(lists: Watchlists, intervalS: number): SyncedSettings | undefined {
    const base = this.#base;
    const save = {
      lists: base.lists !== undefined && !sameWatchlists(base.lists, lists),
      interval: base.intervalS !== undefined && base.intervalS !== intervalS,
    };
    if (!save.lists && !save.interval) {
      const now = fileStamp(this.#path);
      if (now === this.#seen || (base.lists === undefined && base.intervalS === undefined)) return undefined;
      this.#seen = now;
      let raw: Record<string, unknown>;
      try {
        raw = readObject(this.#path) ?? {};
      } catch (error) {
        if (error instanceof ConfigError) throw new ConfigReadError(error.reason, this.#path);
        throw error;
      }
      return this.#take(this.#merge(raw, lists, intervalS, save), lists, intervalS);
    }
    let merged: Merged | undefined;
    const after = changeConfigFile(this.#path, (raw) => {
      merged = this.#merge(raw, lists, intervalS, save);
      return merged.changes;
    });
    this.#seen = stamp(after);
    return this.#take(merged!, lists, intervalS);
  }

  /** The file's settings (its JSON object `raw`) with this window's changes, and the keys that save them. */
  #merge(raw: Readonly<Record<string, unknown>>, mine: Watchlists, intervalS: number, save: { lists: boolean; interval: boolean }): Merged {
    const read = configFromObject(this.#path, raw);
    const { config } = read;
    const base = this.#base;
    const changes: Partial<ConfigFile> = {};
    let lists: Watchlists | undefined;
    let notes: string[] = [];
    if (base.lists) {
      // Lists it cannot read are neither written over nor taken in: the window keeps its own.
      const problem = savedListsProblem(read);
      if (problem !== undefined) throw new ConfigError(`${this.#path}: ${problem}`, problem);
      // No lists saved (the file removed, say): this window's, as they were, are the file's.
      const theirs = savedLists(config) ?? base.lists;
      const merged = mergeWatchlists(base.lists, mine, theirs);
      if (save.lists) Object.assign(changes, savedListKeys(merged.lists, config));
      lists = merged.lists;
      notes = merged.notes;
    }
    let interval = intervalS;
    if (base.intervalS !== undefined) {
      if (save.interval) changes.interval = intervalS;
      else interval = config.interval ?? intervalS;
    }
    return { lists, interval, notes, changes: Object.keys(changes).length === 0 ? undefined : changes };
  }

  /** The merge taken as what this window and the file agree on, and what of it the window lacks. */
  #take(merged: Merged, lists: Watchlists, intervalS: number): SyncedSettings | undefined {
    this.#base = { lists: merged.lists, intervalS: this.#base.intervalS === undefined ? undefined : merged.interval };
    const synced: SyncedSettings = { notes: merged.notes };
    if (merged.lists && !sameWatchlists(merged.lists, lists)) synced.lists = merged.lists;
    if (merged.interval !== intervalS) synced.intervalS = merged.interval;
    return synced.lists === undefined && synced.intervalS === undefined && synced.notes.length === 0 ? undefined : synced;
  }
}
