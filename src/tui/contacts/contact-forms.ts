// The contacts pane's two forms that write: a contact renamed in place, and a new contact
// created (its phone number checked by the rule `contacts create` applies, loaded when the form
// first opens). The contacts controller's, on its state.
import { ApiError } from '../../api/errors.js';
import { contactName } from '../../api/types.js';
import { drawn, typedText } from '../../text/sanitize.js';
import { errorText } from '../state/error-text.js';
import { CREATE_FIELDS, type CreateField } from './contacts-state.js';
import type { ContactsParts } from './contacts-parts.js';

type PhoneRule = typeof import('../../api/possible-phone.js');
let phoneRule: PhoneRule | undefined;
let phoneRuleLoading: Promise<PhoneRule> | undefined;
/**
 * The phone rule `contacts create` applies, loaded when the create form first opens: its
 * metadata (libphonenumber's) is the form's to load, not the dashboard's start's.
 */
const loadPhoneRule = (): Promise<PhoneRule> => (phoneRuleLoading ??= import('../../api/possible-phone.js').then((rule) => (phoneRule = rule)));


export class ContactForms {
  readonly #c: ContactsParts;
  /** Bumped by every create sent or form cancelled: an answer for an older one is not the form's. */
  #createSeq = 0;

  constructor(context: ContactsParts) {
    this.#c = context;
  }

  /** Enter in the rename field: the new name sent, shown at once, rolled back if refused. */
  readonly submitRename = (): void => {
    const s = this.#c.getState();
    if (s.mode.kind !== 'rename') return;
    const { id } = s.mode;
    const draft = s.mode.draft.value;
    const contact = s.page?.contacts.find((c) => c.id === id);
    const trimmed = draft.trim();
    // An empty name resets to none, which shows the username.
    const displayName = trimmed === '' ? null : trimmed;
    // Unchanged from what the field started with (which leaves out what draws as nothing, a
    // ZWSP or an RLM): nothing to send, or Enter alone would strip them from the name.
    const untouched = contact !== undefined && draft === typedText(contactName(contact));
    if (!contact || untouched || (displayName ?? contact.username) === contactName(contact)) {
      this.#c.dispatch({ type: 'mode-cancelled' });
      return;
    }
    this.#c.dispatch({ type: 'rename-sent', id, displayName });
    this.#c.track(this.#c.client.updateContact(id, displayName), `rename ${drawn(contactName(contact))}`).then(
      (updated) => {
        this.#c.status.recover('contacts');
        this.#c.status.notice(`renamed to ${drawn(contactName(updated))}`);
        this.#c.told({ put: [updated] });
        this.#c.dispatch({ type: 'rename-succeeded', contact: updated });
      },
      (error: unknown) => {
        this.#c.dispatch({ type: 'rename-failed', id });
        this.#c.failedOn(contact, error);
      },
    );
  };

  /** Esc: the field or the prompt closes; a create on its way no longer answers to the form. */
  readonly cancel = (): void => {
    if (this.#c.getState().mode.kind === 'create') this.#createSeq++;
    this.#c.dispatch({ type: 'mode-cancelled' });
  };

  readonly startCreate = (): void => {
    void loadPhoneRule();
    this.#c.dispatch({ type: 'create-started' });
  };

  readonly submitCreate = (): void => {
    const s = this.#c.getState();
    if (s.mode.kind !== 'create' || s.mode.form.submitting) return;
    // Loading since the form opened: a submit quicker than that is made once it is there.
    if (!phoneRule) {
      void loadPhoneRule().then(() => this.submitCreate(), this.#c.failed);
      return;
    }
    const { values } = s.mode.form;
    const problems: Partial<Record<CreateField, string>> = {};
    if (values.username.trim() === '') problems.username = 'username is required';
    // The rule `contacts create --phone` applies, checked here so a typo is shown without a request.
    const phone = phoneRule.parsePossiblePhoneNumber(values.phone_number, 'phone_number');
    if (values.phone_number.trim() === '') problems.phone_number = 'phone_number is required';
    else if (typeof phone !== 'string') problems.phone_number = phone.problem;
    if (Object.keys(problems).length > 0 || typeof phone !== 'string') {
      this.#c.dispatch({ type: 'create-failed', errors: problems });
      return;
    }
    this.#c.dispatch({ type: 'create-sent' });
    const seq = ++this.#createSeq;
    const stillTheForm = () => seq === this.#createSeq && this.#c.getState().mode.kind === 'create';
    const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
    const displayName = optional(values.display_name);
    const avatarUrl = optional(values.avatar_url);
    this.#c.track(
      this.#c.client.createContact({
        username: values.username.trim(),
        phoneNumber: phone,
        ...(displayName !== undefined && { displayName }),
        ...(avatarUrl !== undefined && { avatarUrl }),
      }),
      `create ${drawn(values.username.trim())}`,
    ).then(
      (created) => {
        this.#c.status.recover('contacts');
        this.#c.status.notice(`created ${drawn(contactName(created))}`);
        this.#c.told({ put: [created] });
        // The contact exists either way; only the form that sent it is closed by the answer.
        if (stillTheForm()) this.#c.dispatch({ type: 'create-succeeded' });
        if (this.#c.getState().mode.kind !== 'create') this.#c.showFirstPage(created.id);
      },
      (error: unknown) => {
        const field = error instanceof ApiError ? error.field : undefined;
        if (!stillTheForm()) {
          this.#c.failed(error);
        } else if (field && (CREATE_FIELDS as readonly string[]).includes(field)) {
          this.#c.dispatch({ type: 'create-failed', errors: { [field]: errorText(error) } });
        } else {
          this.#c.dispatch({ type: 'create-failed', errors: {} });
          this.#c.failed(error);
        }
      },
    );
  };
}
