// A small form of text fields (an alert, a lot): which field has the cursor, what each holds, what
// is wrong and where, and whether it is being saved. Plain functions; the hooks that own a form
// decide what its fields mean. The field with the cursor is edited here, by the pure field edits
// (field-text.ts): the form holds where its cursor is.
import { fieldAtEnd, fieldInput, type FieldInput } from './field-text.js';

export interface Form<F extends string> {
  fields: readonly F[];
  values: Readonly<Record<F, string>>;
  field: F;
  /** Where the cursor is in the field being typed into, in characters. */
  cursor: number;
  /** The most characters each field holds, where there is a limit. */
  maxLengths: Readonly<Partial<Record<F, number>>>;
  /** What is wrong with each field as typed, checked as it changes. */
  problems: Readonly<Partial<Record<F, string>>>;
  /** A save is under way: keys wait, the values stay. */
  saving: boolean;
  /** A save was asked for: every field's problem is shown, typed into or not. */
  tried: boolean;
}

export function newForm<F extends string>(
  fields: readonly F[],
  values: Record<F, string>,
  check: (values: Record<F, string>) => Partial<Record<F, string>>,
  maxLengths: Partial<Record<F, number>> = {},
): Form<F> {
  return formAt({ fields, values, field: fields[0]!, cursor: 0, maxLengths, problems: check(values), saving: false, tried: false }, fields[0]!);
}

/** The form with the cursor at the end of `field`, as a field is entered. */
export const formAt = <F extends string, T extends Form<F>>(form: T, field: NoInfer<F>): T => ({ ...form, field, cursor: fieldAtEnd(form.values[field]).cursor });

/** The field with the cursor after a key or a paste, and every field checked again when its value changed. */
export function formEdited<F extends string, T extends Form<F>>(form: T, input: FieldInput, check: (values: Record<F, string>) => Partial<Record<F, string>>): T {
  const was = { value: form.values[form.field], cursor: form.cursor };
  const next = fieldInput(was, input, form.maxLengths[form.field]);
  if (next === was) return form;
  if (next.value === was.value) return { ...form, cursor: next.cursor };
  const values = { ...form.values, [form.field]: next.value } as Record<F, string>;
  return { ...form, values, cursor: next.cursor, problems: check(values) };
}

/** The cursor `by` fields on, round the end. */
export function formMoved<F extends string, T extends Form<F>>(form: T, by: number): T {
  const at = form.fields.indexOf(form.field);
  const n = form.fields.length;
  return formAt(form, form.fields[(((at + by) % n) + n) % n]!);
}

/** The first field with a problem, to put the cursor on when a save is refused. */
export const firstProblem = <F extends string>(form: Form<F>): F | undefined => form.fields.find((f) => form.problems[f] !== undefined);

/** The form with the cursor on its first wrong field and every problem shown: a save refused. */
export const formRefused = <F extends string, T extends Form<F>>(form: T, field: NoInfer<F>): T => ({ ...(field === form.field ? form : formAt(form, field)), tried: true });

/**
 * The problem the form shows under its fields: the field with the cursor's, once typed into (an
 * empty field just opened is not yet wrong); else the first field's typed into and left wrong;
 * after a refused save, the first of any.
 */
export function shownProblem<F extends string>(form: Form<F>): string | undefined {
  const typed = (f: F) => form.tried || form.values[f].trim() !== '';
  if (typed(form.field) && form.problems[form.field] !== undefined) return form.problems[form.field];
  const wrong = form.fields.find((f) => typed(f) && form.problems[f] !== undefined);
  return wrong === undefined ? undefined : form.problems[wrong];
}

/** What the line under a form says: what is wrong; else the fields still to fill; else that it can be saved. */
export type FormState<F extends string = string> = { kind: 'wrong'; problem: string } | { kind: 'missing'; fields: readonly F[] } | { kind: 'ready' };

/**
 * The form's state for the line under it. Only a form with nothing wrong is ready: one with an
 * empty field it needs names that field (never "Enter saves" while Enter would be refused).
 */
export function formState<F extends string>(form: Form<F>): FormState<F> {
  const problem = shownProblem(form);
  if (problem !== undefined) return { kind: 'wrong', problem };
  // What is left wrong is what is not yet typed (a field typed into and wrong is shown above).
  const missing = form.fields.filter((f) => form.problems[f] !== undefined);
  return missing.length > 0 ? { kind: 'missing', fields: missing } : { kind: 'ready' };
}
