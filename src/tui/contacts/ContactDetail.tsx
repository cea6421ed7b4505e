// One contact, every field: times both absolute and relative, the conversation id.
import { Box, Text } from 'ink';
import type { FieldText } from '../state/field-text.js';
import { DISPLAY_NAME_MAX } from '../../api/rules.js';
import { contactName, type Contact } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { contactFields } from '../../text/contact-fields.js';
import { fit, width as textWidth } from '../../text/width.js';
import { TextField } from '../components/TextField.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';

export interface ContactDetailProps {
  contact: Contact;
  width: number;
  now: number;
  /** Lines available; with fewer than every field needs, short fields share lines. */
  rows: number;
  /** The draft, while the contact is being renamed here. */
  renameDraft?: FieldText | undefined;
}

export function ContactDetail({ contact, width, now, rows, renameDraft }: ContactDetailProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const cut = glyphs.ellipsis;
  const fields = contactFields(contact, new Date(now));
  const label = 13;
  // Every field on its own line when there is room (name + 8 lines); otherwise the short ones
  // pair up two to a line and the times keep whole lines, so nothing is dropped.
  const all: [string, string][][] =
    rows >= fields.length + 1 || width < 60
      ? fields.map((f) => [f])
      : pairShortFields(fields);
  // In a pane smaller still, the lines that fit and a note of what is left: never drawn past it.
  const room = Math.max(0, rows - 1);
  const lines = all.length <= room ? all : all.slice(0, Math.max(0, room - 1));
  const hidden = all.length - lines.length;
  const column = (count: number) => Math.max(1, Math.floor(width / count) - label - 1);
  return (
    <Box flexDirection="column" height={Math.max(1, rows)} overflow="hidden">
      {renameDraft === undefined ? (
        <Text bold wrap="truncate-end">
          {fit(drawn(contactName(contact)), width, 'left', cut)}
        </Text>
      ) : (
        <Box>
          <Text {...(theme.accent && { color: theme.accent })}>{glyphs.edit}</Text>
          <TextField value={renameDraft.value} cursor={renameDraft.cursor} focus placeholder={drawn(contact.username)} width={width - textWidth(glyphs.edit)} maxLength={DISPLAY_NAME_MAX} />
        </Box>
      )}
      {lines.map((line) => (
        <Text key={line.map(([key]) => key).join('+')} wrap="truncate-end">
          {line.map(([key, value], i) => (
            <Text key={key}>
              {i > 0 ? ' ' : ''}
              <Text {...(theme.muted && { color: theme.muted })}>{fit(key, label, 'left', cut)}</Text>
              {fit(glyphs.text(drawn(value)), column(line.length), 'left', cut)}
            </Text>
          ))}
        </Text>
      ))}
      {hidden > 0 && room > 0 ? (
        <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
          {`${glyphs.ellipsis} ${hidden} more line${hidden === 1 ? '' : 's'}: a taller terminal shows every field`}
        </Text>
      ) : null}
    </Box>
  );
}

const WHOLE_LINE = new Set(['last active', 'created']);

/** Short fields two to a line; the times (absolute and relative) each keep a whole line. */
function pairShortFields(fields: [string, string][]): [string, string][][] {
  const lines: [string, string][][] = [];
  let open: [string, string][] | undefined;
  for (const field of fields) {
    if (WHOLE_LINE.has(field[0])) {
      lines.push([field]);
    } else if (open) {
      open.push(field);
      open = undefined;
    } else {
      open = [field];
      lines.push(open);
    }
  }
  return lines;
}
