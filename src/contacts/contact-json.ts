// A contact as JSON with the API's own field names (what `--json` prints and an export writes),
// and JSON text made safe to show on a terminal.
import type { Contact } from '../api/types.js';

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** A contact with the API's own field names, as `--json` prints it. */
export function contactJson(contact: Contact): Record<string, unknown> {
  return {
    id: contact.id,
    username: contact.username,
    phone_number: contact.phoneNumber,
    avatar_url: contact.avatarUrl,
    display_name: contact.displayName,
    conversation_id: contact.conversationId,
    last_active_at: contact.lastActiveAt ? seconds(contact.lastActiveAt) : null,
    created_at: seconds(contact.createdAt),
  };
}

// JSON.stringify escapes C0 controls but writes DEL, C1 controls, line separators and bidi
// overrides as they are; escaping them too keeps the JSON equal and the terminal safe.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

