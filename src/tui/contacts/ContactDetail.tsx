// One contact, every field: times both absolute and relative, the conversation id.
import { Box, Text } from 'ink';
import { contactName, type Contact } from '../../api/types.js';
import { sanitize } from '../../text/sanitize.js';
import { contactFields } from '../../text/contact-fields.js';
import { fit } from '../../text/width.js';
import { TextField } from '../components/TextField.js';
import { useTheme } from '../theme.js';

export interface ContactDetailProps {
  contact: Contact;
  width: number;
  now: number;
  /** The draft, while the contact is being renamed here. */
  renameDraft?: string | undefined;
  onRenameChange: (draft: string) => void;
}

export function ContactDetail({ contact, width, now, renameDraft, onRenameChange }: ContactDetailProps) {
  const theme = useTheme();
  const fields = contactFields(contact, new Date(now));
  const label = 13;
  return (
    <Box flexDirection="column">
      {renameDraft === undefined ? (
        <Text bold wrap="truncate-end">
          {fit(sanitize(contactName(contact)), width)}
        </Text>
      ) : (
        <Box>
          <Text {...(theme.accent && { color: theme.accent })}>✎ </Text>
          <TextField value={renameDraft} onChange={onRenameChange} focus placeholder={sanitize(contact.username)} />
        </Box>
      )}
      {fields.map(([key, value]) => (
        <Text key={key} wrap="truncate-end">
          <Text {...(theme.muted && { color: theme.muted })}>{fit(key, label)}</Text>
          {fit(sanitize(value), Math.max(1, width - label))}
        </Text>
      ))}
    </Box>
  );
}
