// The small forms' state (src/tui/state/form.ts), shared by the alert form and the lot form: where
// the cursor is, what each field holds and what is wrong with it, and which problem the form shows.
// The rules tested last matter most to a person: a field just opened is not yet wrong (no red line
// before a key is typed) but is named as still needed, a field typed into says what is wrong as it
// is typed and goes on saying so when the cursor leaves it, a save refused puts the cursor on the
// first wrong field and shows its problem even if it was never typed into, and only a form with
// nothing wrong says it can be saved.
import { describe, expect, it } from 'vitest';
import type { FieldInput } from '../../../src/tui/state/field-text.js';
import { firstProblem, type Form, formAt, formEdited, formMoved, formRefused, formState, newForm, shownProblem } from '../../../src/tui/state/form.js';

type Field = 'name' | 'amount' | 'note';
const FIELDS: readonly Field[] = ['name', 'amount', 'note'];

/** A name is needed; an amount must be a whole number; a note may be anything. */
const check = (values: Record<Field, string>): Partial<Record<Field, string>> => {
  const problems: Partial<Record<Field, string>> = {};
  if (values.name.trim() === '') problems.name = 'name: type one';
  if (!/^\d+$/.test(values.amount.trim())) problems.amount = `amount: ${JSON.stringify(values.amount)} is not a whole number`;
  return problems;
};

const empty = (): Form<Field> => newForm(FIELDS, { name: '', amount: '', note: '' }, check);

/** `text` typed (or pasted) at the cursor. */
const type = (text: string): FieldInput => ({ kind: 'type', text });
const BACKSPACE: FieldInput = { kind: 'backspace' };

/**
 * `field`'s value replaced by `value`, as a person does it: the cursor moved there (to its end),
 * Ctrl-U, then `value` typed.
 */
function typed(form: Form<Field>, field: Field, value: string): Form<Field> {
  return formEdited(formEdited(formAt(form, field), { kind: 'edit', edit: 'kill-start' }, check), type(value), check);
}

describe('newForm', () => {
  it('starts on the first field, checked, neither saving nor tried', () => {
    const form = empty();
    expect(form.field).toBe('name');
    expect(form.cursor).toBe(0);
    expect(form.maxLengths).toEqual({});
    expect(form.fields).toEqual(FIELDS);
    expect(form.values).toEqual({ name: '', amount: '', note: '' });
    expect(form.problems).toEqual({ name: 'name: type one', amount: 'amount: "" is not a whole number' });
    expect(form.saving).toBe(false);
    expect(form.tried).toBe(false);
  });

  it('checks the values it is opened with (an edit opens filled in), the cursor after the first field\'s', () => {
    const form = newForm(FIELDS, { name: 'lot', amount: '12', note: '' }, check);
    expect(form.problems).toEqual({});
    expect(firstProblem(form)).toBeUndefined();
    expect(form.cursor).toBe(3);
  });
});

describe('formEdited', () => {
  it('changes the field with the cursor only, and checks every field again', () => {
    const before = empty();
    const after = formEdited(before, type('AAPL'), check);
    expect(after.values).toEqual({ name: 'AAPL', amount: '', note: '' });
    expect(after.problems).toEqual({ amount: 'amount: "" is not a whole number' });
    expect(after.field).toBe('name');
    expect(after.cursor).toBe(4);
    // The form before is left as it was: the hooks keep the last one in a ref.
    expect(before.values.name).toBe('');
    expect(before.problems.name).toBe('name: type one');
  });

  it('gives back the same form for a key that changes nothing (no render for it)', () => {
    const form = typed(empty(), 'amount', '12');
    expect(form.cursor).toBe(2);
    expect(formEdited(form, { kind: 'edit', edit: 'end' }, check)).toBe(form);
    expect(formEdited(form, { kind: 'edit', edit: 'right' }, check)).toBe(form);
    expect(formEdited(form, { kind: 'edit', edit: 'delete-forward' }, check)).toBe(form);
    // Typed text that is all controls types nothing.
    expect(formEdited(form, type('\u001b[A\u0007'), check)).toBe(form);
    expect(formEdited(form, type('3'), check)).not.toBe(form);
  });

  it('types at the cursor, and a move of the cursor alone leaves the values and problems as they were', () => {
    const form = typed(empty(), 'amount', '12');
    const moved = formEdited(form, { kind: 'edit', edit: 'left' }, check);
    expect(moved.cursor).toBe(1);
    expect(moved.values).toBe(form.values);
    expect(moved.problems).toBe(form.problems);
    const inserted = formEdited(moved, type('x'), check);
    expect(inserted.values.amount).toBe('1x2');
    expect(inserted.cursor).toBe(2);
    expect(inserted.problems.amount).toBe('amount: "1x2" is not a whole number');
  });

  it('holds a field to its most characters: a key past it types nothing, a paste keeps what fits', () => {
    const form = newForm(FIELDS, { name: '', amount: '', note: '' }, check, { name: 4 });
    const full = formEdited(form, type('AAPLX'), check);
    expect(full.values.name).toBe('AAPL');
    expect(formEdited(full, type('Y'), check)).toBe(full);
    // The other fields have no limit.
    expect(formEdited(formMoved(full, 2), type('n'.repeat(50)), check).values.note).toBe('n'.repeat(50));
  });

  it('keeps what the form carries besides (an alert form\'s editing, a lot form\'s)', () => {
    const form = { ...empty(), editing: 7 };
    const after = formEdited(form, type('x'), check);
    expect(after.editing).toBe(7);
    expect(formMoved(after, 1).editing).toBe(7);
    expect(formRefused<Field, typeof after>(after, 'amount').editing).toBe(7);
  });
});

describe('formMoved', () => {
  it('moves the cursor on and back, round either end', () => {
    const form = empty();
    expect(formMoved(form, 1).field).toBe('amount');
    expect(formMoved(formMoved(form, 1), 1).field).toBe('note');
    // Past the last field: the first; before the first: the last.
    expect(formMoved({ ...form, field: 'note' }, 1).field).toBe('name');
    expect(formMoved(form, -1).field).toBe('note');
    expect(formMoved({ ...form, field: 'amount' }, -1).field).toBe('name');
  });

  it('wraps moves of more than the fields there are, either way', () => {
    const form = empty();
    expect(formMoved(form, 3).field).toBe('name');
    expect(formMoved(form, 4).field).toBe('amount');
    expect(formMoved(form, -4).field).toBe('note');
    expect(formMoved(form, -7).field).toBe('note');
  });

  it('puts the cursor at the end of the field it moves to', () => {
    const form = typed(typed(typed(empty(), 'note', 'abc'), 'amount', '12'), 'name', 'AAPL');
    const home = formEdited(form, { kind: 'edit', edit: 'start' }, check);
    expect(home.cursor).toBe(0);
    expect(formMoved(home, 1).cursor).toBe(2);
    expect(formMoved(home, 2).cursor).toBe(3);
    expect(formMoved(formMoved(home, 1), -1).cursor).toBe(4);
  });

  it('keeps the values and problems', () => {
    const form = typed(empty(), 'amount', 'x');
    const moved = formMoved(form, 1);
    expect(moved.values).toBe(form.values);
    expect(moved.problems).toBe(form.problems);
  });

  it('on a form of two fields, Tab and S-Tab both reach the other one', () => {
    const two = newForm(['symbol', 'condition'] as const, { symbol: '', condition: '' }, () => ({}));
    expect(formMoved(two, 1).field).toBe('condition');
    expect(formMoved(two, -1).field).toBe('condition');
  });
});

describe('firstProblem and formRefused', () => {
  it('is the first wrong field in the form\'s order, not the order the problems were found', () => {
    // The check finds the amount's problem before the name's: the form's order still wins.
    const backwards = (values: Record<Field, string>): Partial<Record<Field, string>> => {
      const problems: Partial<Record<Field, string>> = {};
      if (values.note === '') problems.note = 'note: needed here';
      if (values.name === '') problems.name = 'name: needed here';
      return problems;
    };
    const form = newForm(FIELDS, { name: '', amount: '', note: '' }, backwards);
    expect(Object.keys(form.problems)).toEqual(['note', 'name']);
    expect(firstProblem(form)).toBe('name');
    expect(firstProblem(formEdited(form, type('x'), backwards))).toBe('note');
  });

  it('is undefined for a form with nothing wrong', () => {
    expect(firstProblem(typed(typed(empty(), 'name', 'AAPL'), 'amount', '3'))).toBeUndefined();
  });

  it('a refused save puts the cursor on the wrong field and marks the form tried', () => {
    const form = typed(empty(), 'name', 'AAPL');
    const refused = formRefused({ ...form, field: 'note' }, firstProblem(form)!);
    expect(refused.field).toBe('amount');
    expect(refused.tried).toBe(true);
    expect(refused.values).toBe(form.values);
  });

  it('a refused save puts the cursor at the end of the wrong field, or leaves it where it was in the field it is in', () => {
    const form = typed(typed(empty(), 'amount', '1x5'), 'name', 'AAPL');
    expect(formRefused(form, 'amount').cursor).toBe(3);
    const inAmount = formEdited(formMoved(form, 1), { kind: 'edit', edit: 'left' }, check);
    expect(inAmount.cursor).toBe(2);
    expect(formRefused(inAmount, 'amount').cursor).toBe(2);
  });
});

describe('formState: what the line under the form says', () => {
  it('names every field still empty that it needs, in the form\'s order, and is ready only when nothing is wrong', () => {
    let form = empty();
    expect(formState(form)).toEqual({ kind: 'missing', fields: ['name', 'amount'] });
    form = typed(form, 'amount', '12');
    expect(formState(form)).toEqual({ kind: 'missing', fields: ['name'] });
    form = typed(form, 'name', 'AAPL');
    expect(formState(form)).toEqual({ kind: 'ready' });
    // Spaces are not a value: still missing.
    expect(formState(typed(form, 'name', '   '))).toEqual({ kind: 'missing', fields: ['name'] });
  });

  it('says what is wrong before what is missing, and never ready while a field is wrong', () => {
    const form = typed(empty(), 'amount', '1x');
    expect(formState(form)).toEqual({ kind: 'wrong', problem: 'amount: "1x" is not a whole number' });
    // The cursor moved on to the empty name: the amount still named, not "ready", not only "needs name".
    expect(formState({ ...form, field: 'name' as const })).toEqual({ kind: 'wrong', problem: 'amount: "1x" is not a whole number' });
    // A refused save names the first problem, typed into or not.
    expect(formState(formRefused<Field, Form<Field>>(empty(), 'name'))).toEqual({ kind: 'wrong', problem: 'name: type one' });
  });

  it('a form opened filled in and right (an edit) is ready at once', () => {
    expect(formState(newForm(FIELDS, { name: 'lot', amount: '12', note: '' }, check))).toEqual({ kind: 'ready' });
  });
});

describe('shownProblem', () => {
  it('shows nothing for an empty field just opened, wrong as it is', () => {
    const form = empty();
    expect(form.problems.name).toBeDefined();
    expect(shownProblem(form)).toBeUndefined();
    // Spaces are not typing: still nothing.
    expect(shownProblem(typed(form, 'name', '   '))).toBeUndefined();
  });

  it('shows the problem of the field with the cursor once it is typed into, as it is typed (x, then Backspace and 2)', () => {
    let form = typed(empty(), 'amount', '1');
    expect(shownProblem(form)).toBeUndefined();
    form = formEdited(form, type('x'), check);
    expect(shownProblem(form)).toBe('amount: "1x" is not a whole number');
    form = formEdited(formEdited(form, BACKSPACE, check), type('2'), check);
    expect(form.values.amount).toBe('12');
    expect(shownProblem(form)).toBeUndefined();
  });

  it('before a save, a field left wrong stays named when the cursor moves on; an empty one waits', () => {
    // The amount is wrong and typed into, but the cursor is on the empty name: the amount's shown.
    const form = formAt(typed(empty(), 'amount', 'x'), 'name');
    expect(shownProblem(form)).toBe('amount: "x" is not a whole number');
    // On the note, which is never wrong, the same.
    expect(shownProblem({ ...form, field: 'note' })).toBe('amount: "x" is not a whole number');
    // Spaces typed into the name are no value: it still waits, and the amount is still named.
    expect(shownProblem(formEdited(form, type('  '), check))).toBe('amount: "x" is not a whole number');
  });

  it('after a refused save shows the first problem, typed into or not', () => {
    const form = empty();
    const refused = formRefused(form, firstProblem(form)!);
    expect(refused.field).toBe('name');
    expect(shownProblem(refused)).toBe('name: type one');
    // Moved on to the amount (never typed into): its own problem now.
    expect(shownProblem(formMoved(refused, 1))).toBe('amount: "" is not a whole number');
    // On the note, which has none: the first of any.
    expect(shownProblem(formMoved(refused, 2))).toBe('name: type one');
  });

  it('after a refused save, fixing a field shows the next problem, and none once all are fixed', () => {
    let form = formRefused<Field, Form<Field>>(empty(), 'name');
    form = formEdited(form, type('AAPL'), check);
    expect(shownProblem(form)).toBe('amount: "" is not a whole number');
    form = formEdited(formMoved(form, 1), type('5'), check);
    expect(shownProblem(form)).toBeUndefined();
  });
});
