// An SVG picture of a terminal (scripts/terminal-svg.ts) read back: checked to be well-formed XML
// whose root is an <svg> in SVG's namespace, made of elements SVG knows, and its <text> elements
// put back into the screen's rows, so that a test reads what a person sees in the picture.
import { GEOMETRY } from '../../scripts/terminal-svg.js';

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
  /** Its text, entities decoded. */
  text: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const ELEMENTS = new Set(['svg', 'title', 'style', 'rect', 'text', 'tspan', 'g']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string): string => text.replace(/&(\w+);/g, (_, name: string) => ENTITIES[name]!);
/** Character data: no markup, and & only as one of XML's own entities. */
const CHARACTER_DATA = /^(?:[^<&]|&(?:amp|lt|gt|quot|apos);)*$/;
const TOKEN = /<\?xml[^>]*\?>|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/y;
const ATTRIBUTE = /([\w:.-]+)="([^"]*)"/g;

/** The document's elements in order; throws saying where it is not a well-formed SVG document. */
export function parseSvg(document: string): SvgElement[] {
  const elements: SvgElement[] = [];
  const open: SvgElement[] = [];
  let rootClosed = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < document.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(document);
    if (!match) throw new Error(`not well-formed at offset ${at}: ${JSON.stringify(document.slice(at, at + 40))}`);
    const [, closing, name, attributeText, selfClosing, text] = match;
    if (text !== undefined) {
      if (!CHARACTER_DATA.test(text)) throw new Error(`unescaped markup in text at offset ${at}: ${JSON.stringify(text.slice(0, 40))}`);
      if (open.length === 0) {
        if (text.trim() !== '') throw new Error(`text outside the root element at offset ${at}`);
      } else {
        open[open.length - 1]!.text += decode(text);
      }
      continue;
    }
    if (name === undefined) continue;
    if (closing) {
      const element = open.pop();
      if (element?.name !== name) throw new Error(`</${name}> at offset ${at} closes <${element?.name ?? 'nothing'}>`);
      if (open.length === 0) rootClosed = true;
      continue;
    }
    if (rootClosed || (open.length === 0 && elements.length > 0)) throw new Error(`a second root element <${name}> at offset ${at}`);
    if (!ELEMENTS.has(name)) throw new Error(`<${name}> at offset ${at} is not an element of these pictures`);
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attributeText ?? '').matchAll(ATTRIBUTE)) {
      if (key! in attributes) throw new Error(`<${name}> at offset ${at} has ${key} twice`);
      if (!CHARACTER_DATA.test(value!)) throw new Error(`unescaped markup in ${key} at offset ${at}`);
      attributes[key!] = decode(value!);
    }
    const element: SvgElement = { name, attributes, text: '' };
    if (elements.length === 0 && (name !== 'svg' || attributes.xmlns !== SVG_NS)) throw new Error(`the root is <${name}>, not <svg xmlns="${SVG_NS}">`);
    elements.push(element);
    if (!selfClosing) open.push(element);
  }
  if (!rootClosed || open.length > 0) throw new Error(`the document ends inside <${open.at(-1)?.name ?? 'svg'}>`);
  return elements;
}

/** The picture's screen: each <text> at its row and column, blanks between. */
export function svgScreen(elements: readonly SvgElement[]): string[] {
  const rows: string[][] = [];
  for (const element of elements) {
    if (element.name !== 'text') continue;
    const row = (Number(element.attributes.y) - GEOMETRY.pad - GEOMETRY.baseline) / GEOMETRY.cellHeight;
    const column = (Number(element.attributes.x) - GEOMETRY.pad) / GEOMETRY.cellWidth;
    const line = (rows[row] ??= []);
    [...element.text].forEach((char, i) => (line[column + i] = char));
  }
  return Array.from(rows, (line) => Array.from(line ?? [], (char) => char ?? ' ').join(''));
}
