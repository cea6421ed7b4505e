// What a screen reader is told as the dashboard changes: the dashboard described as a place (the
// pane or view the keys act on), what is read on arriving there, the one thing selected, facts
// worth saying when they change ("3 marked"), and the field being typed into. Two descriptions in
// a row give the lines to say: only what changed, once, in the order a person needs it.
import type { FieldText } from '../state/field-text.js';

export interface Said {
  /** What identifies it: the same key is not said again, however its words change (a price). */
  key: string;
  words: string;
}

export interface ReaderField {
  /** Which field: another key is another field, whose prompt is said. */
  key: string;
  /** Said before the field, on a line of its own: "New name for Ada Lovelace. Enter saves, Escape cancels." */
  prompt: string;
  text: FieldText;
}

export interface ReaderScreen {
  /** Where the keys act, as a heading: "Contacts, page 2". Said whenever it changes. */
  place: string;
  /** Read on arriving at the place, and again when it changes there (a contact's fields). */
  body: Said | undefined;
  /** The one thing selected, in words. */
  selected: Said | undefined;
  /**
   * Facts said when they change, by name: "3 marked", "deleted Ada Lovelace, u to undo within 5
   * seconds". A fact that goes (undefined) is not said, nor one the screen before did not have
   * (coming back to a pane is not news of its marks).
   */
  facts: Readonly<Record<string, string | undefined>>;
  field: ReaderField | undefined;
}

/** The lines to say going from `before` to `now`; everything that matters on the first screen. */
export function screenLines(before: ReaderScreen | undefined, now: ReaderScreen): string[] {
  const lines: string[] = [];
  const arrived = before === undefined || before.place !== now.place;
  if (arrived) lines.push(now.place);
  if (now.body && (arrived || before.body?.key !== now.body.key)) lines.push(now.body.words);
  if (now.selected && (arrived || before.selected?.key !== now.selected.key)) lines.push(now.selected.words);
  if (before !== undefined) {
    for (const [name, fact] of Object.entries(now.facts)) {
      if (fact !== undefined && name in before.facts && before.facts[name] !== fact) lines.push(fact);
    }
  }
  if (now.field && (arrived || before.field?.key !== now.field.key)) lines.push(now.field.prompt);
  return lines.filter((line) => line !== '');
}
