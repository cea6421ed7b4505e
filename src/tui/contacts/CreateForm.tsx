// The create form: four fields, the server's error beside the field it names, nothing typed lost.
import { Box, Text } from 'ink';
import { drawn } from '../../text/sanitize.js';
import { fit, truncate } from '../../text/width.js';
import { TextField } from '../components/TextField.js';
import { Spinner } from '../components/Spinner.js';
import { CREATE_FIELD_MAX, CREATE_FIELDS, type CreateField, type CreateForm as Form } from './contacts-state.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';

const LABELS: Record<CreateField, string> = {
  username: 'username',
  phone_number: 'phone',
  display_name: 'display name',
  avatar_url: 'avatar URL',
};

const PLACEHOLDERS: Record<CreateField, string> = {
  username: 'required: letters, digits, . _ -',
  phone_number: 'required: +44 20 7946 0958',
  display_name: 'optional',
  avatar_url: 'optional: https://…',
};

export interface CreateFormProps {
  form: Form;
  width: number;
}

export function CreateForm({ form, width }: CreateFormProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const label = 16;
  return (
    <Box flexDirection="column">
      <Text bold>New contact{form.submitting ? ' ' : ''}{form.submitting ? <Spinner {...(theme.accent && { color: theme.accent })} /> : null}</Text>
      {CREATE_FIELDS.map((field) => {
        const focused = field === form.field;
        const error = form.errors[field];
        return (
          <Box key={field} flexDirection="column">
            <Box>
              <Text {...(focused ? { bold: true } : {})} {...(!focused && theme.muted && { color: theme.muted })}>
                {`${focused ? glyphs.fieldMarker : ' '} ${fit(LABELS[field], label - 3, 'left', glyphs.ellipsis)} `}
              </Text>
              {focused ? (
                <TextField value={form.values[field]} cursor={form.cursor} focus={!form.submitting} placeholder={glyphs.text(PLACEHOLDERS[field])} width={width - label} maxLength={CREATE_FIELD_MAX[field]} />
              ) : (
                <Text wrap="truncate-end">{form.values[field] === '' ? ' ' : truncate(form.values[field], Math.max(1, width - label), glyphs.ellipsis)}</Text>
              )}
            </Box>
            {error ? (
              // Wrapped under the field: a rule ("E.164 form: …") is read whole, not cut at the edge.
              <Box marginLeft={label} width={Math.max(1, width - label)}>
                <Text {...(theme.error && { color: theme.error })} wrap="wrap">
                  {glyphs.text(`${glyphs.cross} ${drawn(error)}`)}
                </Text>
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
}
