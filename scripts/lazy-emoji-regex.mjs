// string-width's \p{RGI_Emoji} regex, built the first time a cluster needs it. A regex literal is
// checked as its module is compiled, and this one (a property of strings, the v flag) made
// compiling the bundle's width chunk ~26 ms of every start, before a first frame that measures no
// emoji (a BMP table answers it: src/text/simple-width.ts). Used by bundle.mjs; tested on its own.

const LITERAL = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const USE = 'rgiEmojiRegex.test(segment)';
const LAZY = "let rgiEmojiRegex;\nconst rgiEmoji = () => (rgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v'));";

/** string-width's source with the regex made lazily; undefined when its source is not as expected. */
export function lazyEmojiRegex(source) {
  if (source.split(LITERAL).length !== 2 || source.split(USE).length !== 2) return undefined;
  // Functions as replacements: the text holds `$'`, which a replacement string would expand.
  return source.replace(LITERAL, () => LAZY).replace(USE, () => 'rgiEmoji().test(segment)');
}
