import { XMLParser, XMLValidator } from 'fast-xml-parser';

const declaration = '<?xml version="1.0" encoding="utf-8" ?>';

/**
 * Hand-written because XMLBuilder drops empty arrays, while the platform renders them as a self-closing element.
 */
export function renderXml(value: object): string {
  return declaration + renderElement('result', value);
}

// One string built by concatenation, and text escaped only when it holds a character to escape: a page of 20 groups is
// about 500 elements, and a list request renders one per response.
function renderElement(name: string, value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `<${name} />`;
    let items = '';
    for (const item of value) items += renderElement(name, item);
    return items;
  }
  let content = '';
  if (typeof value === 'object' && value !== null) {
    for (const key in value) content += renderElement(key, (value as Record<string, unknown>)[key]);
  } else {
    content = escapeText(scalarText(value));
  }
  return content === '' ? `<${name} />` : `<${name}>${content}</${name}>`;
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

const escapedCharacters = /[&<>]/;

function escapeText(text: string): string {
  if (!escapedCharacters.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export class XmlBodyError extends Error {
  override name = 'XmlBodyError';
}

/**
 * Parses a request body and returns the root element's content; the root's name is ignored because clients vary.
 * Every value stays a string: converting fields is the caller's job, since only it knows that "007" is not a number.
 */
export function parseXmlBody(text: string, options: { listPaths: ReadonlySet<string> }): Record<string, unknown> {
  if (text.trim() === '') throw new XmlBodyError('The request body is an empty XML body.');
  // A document type is the only way in for external and recursive entities, and clients never need one.
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) throw new XmlBodyError('DOCTYPE is not allowed in an XML request body.');

  // The parser accepts malformed input and several roots without complaint, so well-formedness is checked first.
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    const position =
      line === undefined ? '' : col === undefined ? ` at line ${line}` : ` at line ${line}, column ${col}`;
    throw new XmlBodyError(`The XML request body is malformed${position}: ${msg}`);
  }

  const parser = new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    // Also turns on numeric character references (&#233;), which the parser leaves undecoded otherwise.
    htmlEntities: true,
    jPath: true,
    // Paths under the root, whose name varies between clients.
    isArray: (_tagName, jPath) =>
      typeof jPath === 'string' && jPath.includes('.') && options.listPaths.has(jPath.slice(jPath.indexOf('.') + 1)),
  });
  let document: Record<string, unknown>;
  try {
    document = parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    // The parser refuses some element names, such as __proto__ and constructor.
    throw new XmlBodyError(`The XML request body could not be read: ${(error as Error).message}`);
  }

  const [content] = Object.values(document);
  if (content === '') return {};
  if (typeof content !== 'object' || content === null || '#text' in content) {
    throw new XmlBodyError('The root element of the XML request body must contain only elements, not text.');
  }
  emptyListsAsEmptyArrays(content, options.listPaths);
  return content as Record<string, unknown>;
}

// The renderer writes an empty list as one empty element, so reading that back must give [] rather than [""].
function emptyListsAsEmptyArrays(node: object, listPaths: ReadonlySet<string>, prefix = ''): void {
  for (const [key, value] of Object.entries(node)) {
    const path = `${prefix}${key}`;
    if (listPaths.has(path) && Array.isArray(value) && value.length === 1 && value[0] === '') {
      (node as Record<string, unknown>)[key] = [];
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      emptyListsAsEmptyArrays(value, listPaths, `${path}.`);
    }
  }
}
