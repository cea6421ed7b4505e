// A small form of text fields (an alert, a lot): which field has the cursor, what each holds, what
// is wrong and where, and whether it is being saved. Plain functions; the hooks that own a form
// decide what its fields mean.

export interface Form<F extends string> {
  fields: readonly F[];
  values: Readonly<Record<F, string>>;
  field: F;
  /** What is wrong with each field as typed, checked as it changes. */
  problems: Readonly<Partial<Record<F, string>>>;
  /** A save is under way: keys wait, the values stay. */
  saving: boolean;
  /** A save was asked for: every field's problem is shown, typed into or not. */
  tried: boolean;
}

export function newForm<F extends string>(fields: readonly F[], values: Record<F, string>, check: (values: Record<F, string>) => Partial<Record<F, string>>): Form<F> {
  return { fields, values, field: fields[0]!, problems: check(values), saving: false, tried: false };
}

/** The field with the cursor changed to `value`, and every field checked again. */
export function formEdited<F extends string, T extends Form<F>>(form: T, value: string, check: (values: Record<F, string>) => Partial<Record<F, string>>): T {
  if (form.values[form.field] === value) return form;
  const values = { ...form.values, [form.field]: value } as Record<F, string>;
  return { ...form, values, problems: check(values) };
}

/** The cursor `by` fields on, round the end. */
export function formMoved<F extends string, T extends Form<F>>(form: T, by: number): T {
  const at = form.fields.indexOf(form.field);
  const n = form.fields.length;
  return { ...form, field: form.fields[(((at + by) % n) + n) % n]! };
}

/** The first field with a problem, to put the cursor on when a save is refused. */
export const firstProblem = <F extends string>(form: Form<F>): F | undefined => form.fields.find((f) => form.problems[f] !== undefined);

/** The form with the cursor on its first wrong field and every problem shown: a save refused. */
export const formRefused = <F extends string, T extends Form<F>>(form: T, field: F): T => ({ ...form, field, tried: true });

/**
 * The problem the form shows under its fields: the field with the cursor's, once typed into (an
 * empty field just opened is not yet wrong); after a refused save, the first of any.
 */
export function shownProblem<F extends string>(form: Form<F>): string | undefined {
  const typed = (f: F) => form.tried || form.values[f].trim() !== '';
  if (typed(form.field) && form.problems[form.field] !== undefined) return form.problems[form.field];
  return form.tried ? form.problems[firstProblem(form) ?? form.field] : undefined;
}
