// A one-line text field, drawn: focus is always said out loud, and what it shows is exactly what
// it holds. Its value and cursor are the state's that owns the form (state/field-text.ts edits
// them, as the key router hands it keys and pastes); this only draws them. Ours rather than
// ink-text-input's, whose cursor is private: no Home/End, Delete deletes backwards, an emoji is
// two steps.
import { Text } from 'ink';
import { useRef } from 'react';
import { drawn } from '../../text/sanitize.js';
import { truncate } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { characters, fieldWindow } from '../state/field-window.js';
import { codePointCount } from '../state/line-edit.js';
import { useTheme } from '../style/theme.js';

export interface TextFieldProps {
  value: string;
  /** Where the cursor is, in whole characters (the owner's state keeps it). */
  cursor: number;
  focus: boolean;
  placeholder?: string | undefined;
  /** The columns the field may take: a longer value scrolls sideways within them. */
  width: number;
  /** The most characters the value may hold (the server's limit): a count shows from COUNT_FROM of it. */
  maxLength?: number | undefined;
}

/** The share of maxLength from which the field shows how much of it is used. */
const COUNT_FROM = 0.75;

/**
 * The value on one line, scrolled sideways to keep the cursor in view, each character shown as it
 * will be saved. Where the window starts is this view's to remember: it depends on the width the
 * layout gives, and moves only as far as the cursor makes it.
 */
function Editor(props: { value: string; cursor: number; focus: boolean; placeholder: string | undefined; width: number }) {
  const theme = useTheme();
  const start = useRef(0);
  if (props.value === '' && props.placeholder && !props.focus) {
    return <Text {...(theme.muted && { color: theme.muted })}>{truncate(props.placeholder, props.width)}</Text>;
  }
  if (!props.focus) return <Text wrap="truncate-end">{truncate(drawn(props.value), props.width)}</Text>;
  if (props.value === '' && props.placeholder) {
    const [first = ' ', ...rest] = characters(truncate(props.placeholder, props.width));
    return (
      <Text wrap="truncate-end">
        {inverse(first)}
        <Text {...(theme.muted && { color: theme.muted })}>{rest.join('')}</Text>
      </Text>
    );
  }
  // Each character drawn as the terminal can draw it (an emoji ZWJ sequence as its emoji side by
  // side), one for one, so the cursor stays on the character the next key lands after.
  const chars = characters(props.value);
  const shown = fieldWindow(
    chars.map((char) => drawn(char) || ' '),
    props.cursor,
    props.width,
    start.current,
  );
  start.current = shown.start;
  return (
    <Text wrap="truncate-end">
      {shown.before}
      {inverse(shown.atCursor)}
      {shown.after}
    </Text>
  );
}

export function TextField({ value, cursor, focus, placeholder, width, maxLength }: TextFieldProps) {
  const theme = useTheme();
  const used = maxLength === undefined ? 0 : codePointCount(value);
  // Shown while editing, once the value nears the limit, where there is room for it beside a field.
  const count =
    focus && maxLength !== undefined && used >= maxLength * COUNT_FROM && width >= 2 * `${maxLength}/${maxLength}`.length + 2
      ? `${used}/${maxLength}`
      : undefined;
  const full = maxLength !== undefined && used >= maxLength;
  return (
    <>
      <Editor value={value} cursor={cursor} focus={focus} placeholder={placeholder} width={Math.max(1, width - (count ? count.length + 1 : 0))} />
      {count && (
        <Text {...(full ? theme.warning && { color: theme.warning } : theme.muted && { color: theme.muted })} bold={full}>
          {` ${count}`}
        </Text>
      )}
    </>
  );
}
