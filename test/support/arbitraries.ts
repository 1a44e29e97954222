/**
 * fast-check arbitraries for fuzzing both APIs: request bodies generated from the kit's wire schemas (zod) and GraphQL
 * variables generated from the schema's input types. Most values are valid, so requests reach the services and the
 * database; the rest are hostile (wrong types, huge or unusual text, numbers as strings, prototype keys), and each body
 * goes out as JSON or as XML with the usual XML tricks (entities, CDATA, odd roots).
 */
import fc from 'fast-check';
import {
  type GraphQLInputType,
  type GraphQLSchema,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  isEnumType,
} from 'graphql';
import { z } from 'zod';

/** The kinds of object a fuzz stage holds, by which path ids and GraphQL ids are drawn. */
// `self` is the acting user, `invite` and `friendRequest` those pending for them: what only its addressee answers.
const objectKinds = [
  'district',
  'school',
  'building',
  'user',
  'group',
  'section',
  'course',
  'post',
  'event',
  'page',
  'category',
  'credential',
  'realm',
  'self',
  'invite',
  'friendRequest',
  'enrollment',
  'membership',
  'gradinggroup',
  'album',
  'content',
  'comment',
  'upload',
  'target',
  'assignment',
  'period',
  'scale',
  'gradingcategory',
  'gradingscale',
  'learner',
  'accesscode',
] as const;
export type ObjectKind = (typeof objectKinds)[number];

/** Members whose name does not say the kind they name: uploaded files (`file-attachment/id`, `extras/fid`), pages' ids. */
const kindOfMember: Record<string, ObjectKind> = {
  'file-attachment': 'upload',
  fid: 'upload',
  files: 'upload',
  parent: 'page',
  // An enrollment's user (`/sections/{id}/enrollments`).
  uid: 'user',
  assignees: 'enrollment',
  assigneeIds: 'enrollment',
  gradingGroupIds: 'gradinggroup',
  // Grades and attendance are given to the section's students: the enrollments that are not teachers'.
  enrollment_id: 'learner',
  enrollmentId: 'learner',
  default_grading_scale: 'gradingscale',
  default_grading_scale_id: 'gradingscale',
  defaultGradingScaleId: 'gradingscale',
  // Joining by code (`/sections/accesscode`): a stage's sections and groups have their ids as their codes.
  access_code: 'accesscode',
  accessCode: 'accesscode',
};

/**
 * The kind of object an id member names, from the member's name: `school_id`, `buildingId`, `category`,
 * `grading_group_ids`; any otherwise.
 */
export function kindNamed(name: string): ObjectKind | 'any' {
  if (Object.hasOwn(kindOfMember, name)) return kindOfMember[name]!;
  const stem = name
    .replace(/(_ids?|Ids?)$/, '')
    .replace(/_/g, '')
    .toLowerCase();
  return (objectKinds as readonly string[]).includes(stem) ? (stem as ObjectKind) : 'any';
}

/**
 * An id of an object of the stage, resolved when the request is sent: stages are replaced during a run (writes and
 * deletes wear them out), so a sample, and its shrunk forms, name objects by position rather than by number.
 */
export class ExistingId {
  constructor(
    readonly kind: ObjectKind | 'any',
    readonly index: number,
    readonly asNumber: boolean,
  ) {}
}

/** Replaces every ExistingId in a sample by the id it names; own `__proto__` members stay members. */
export function materialize(value: unknown, resolve: (id: ExistingId) => number): unknown {
  if (value instanceof ExistingId) return value.asNumber ? resolve(value) : String(resolve(value));
  if (Array.isArray(value)) return value.map((item) => materialize(item, resolve));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, materialize(child, resolve)]));
  }
  return value;
}

export const existingId = (kind: ObjectKind | 'any', asNumber: fc.Arbitrary<boolean> = fc.boolean()) =>
  fc.tuple(fc.nat(63), asNumber).map(([index, number]) => new ExistingId(kind, index, number));

/** Ids that name nothing, or are malformed, or overflow 32 and 64 bits. */
export const unknownIdText = fc.constantFrom(
  '999999',
  '0',
  '007',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999',
);
const malformedIdText = fc.constantFrom('', ' 1', '1.5', '-1', '1e3', 'abc', '0x10', '１２', '\u0000', '1\u0000');

// Characters and strings that have broken servers: NUL (PostgreSQL refuses it), lone surrogates (not encodable as
// UTF-8), direction overrides, byte-order marks, line separators, non-characters, combining and joined sequences.
const unusualStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFF',
  '\uDBFF\uDBFF',
  '\u202Eevil\u202C',
  '\u200F\u0627\u0644\u200E',
  '\uFEFF',
  '\u2028\u2029',
  '\uFFFE\uFFFF',
  '\u0001\u001F\u007F\u0085',
  '\r\n\t',
  '👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301\u0301',
  '１２３',
  '٣٤',
  '<script>alert(1)</script>',
  '\'; DROP TABLE "User"; --',
  '%00%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as text
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '\\',
  '"',
  ']]>',
  '&amp;',
  '&nbsp;&eacute;',
  '&unknown;',
  '&#0;',
  '&#xD800;',
  '&#x110000;',
  '&#x1F600;',
];
const numbersAsText = ['-0', '1e309', '0x1F', '007', ' 12 ', '1.5', '-1', '2147483648', '9007199254740993', '1_000'];
const awkwardNumbers = [-1, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE];
/** Sizes past 32 bits and past any limit, for members that name a size: refused with 413, never misread. */
const largeSizes = fc.constantFrom(2 ** 31, 2 ** 53 + 2, 1e21, '99999999999999999999');

/**
 * URLs for members that name one (a webhook target, a website): one that passes, and addresses the webhook guard
 * refuses (IPv4-compatible, NAT64 of a private address, the loopback), written as addresses so that nothing is looked up.
 */
const urls = fc.constantFrom(
  'https://example.test/hook',
  'https://[::127.0.0.1]/hook',
  'https://[64:ff9b::a00:1]/hook',
  'https://127.0.0.1:8443/hook',
);
const namesUrl = (name: string) => /(^|_)(url|target|website)$|Url$/.test(name);

/** Long text within the default 1 MB body limit (the longest, escaped, may exceed it: a 413 is a fine answer). */
const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000', '\uD800', '<&>'), fc.constantFrom(5_000, 70_000, 200_000))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

export const hostileString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...unusualStrings, ...numbersAsText) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: hugeString },
);

/** An object whose own members are prototype keys (Object.fromEntries defines them, where `{__proto__: ...}` would not). */
const prototypeKeyed = fc
  .tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([key, value]) => Object.fromEntries([[key, key === 'constructor' ? { prototype: value } : value]]));

/** A value of the wrong kind for wherever it lands. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...awkwardNumbers) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}, [1, 'a'], { a: { b: {} } }, [[[[]]]]) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: prototypeKeyed },
  { weight: 1, arbitrary: existingId('any') },
);

/** Plain words a valid value is made of; the GraphQL enum values, lower-cased, are what wire enumerations accept. */
function vocabularyOf(schema: GraphQLSchema): unknown[] {
  const enumValues = Object.values(schema.getTypeMap())
    .filter(isEnumType)
    .filter((type) => !type.name.startsWith('__'))
    .flatMap((type) => type.getValues().map((value) => value.name.toLowerCase()));
  return [
    ...new Set(enumValues),
    0,
    1,
    2,
    3,
    '0',
    '1',
    '2',
    '3',
    true,
    false,
    'true',
    'false',
    '',
    null,
    'Chess club',
    'https://example.test/a.png',
  ];
}

/** Text a person might type (never blank, which required members refuse). */
const plainText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim() !== ''),
  fc.lorem({ maxCount: 8 }),
);

/** Characters that text members must either store or refuse with a 400: NUL, surrogates, controls, overrides. */
const unusualCharacters = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\u202E',
  '\uFEFF',
  '\u2028',
  '\uFFFF',
  '\u0001',
  '👩‍👩‍👧‍👦',
  'e\u0301',
];

/** Typed text with one unusual character in it: the right type, so it reaches the services and the database. */
const unusualText = fc
  .tuple(plainText, fc.constantFrom(...unusualCharacters), fc.nat())
  .map(
    ([text, character, at]) => text.slice(0, at % (text.length + 1)) + character + text.slice(at % (text.length + 1)),
  );

/**
 * Text with markup a hostile writer would send: an event handler, a script, a script URL, beside ordinary formatting.
 * HTML members must answer it sanitized (the wire contract checks them, test/support/contract.ts), plain text as given.
 */
const markupText = fc.constantFrom(
  '<p>Read <b>this</b></p><img src=x onerror=alert(1)>',
  '<script>alert(1)</script><i>after</i>',
  '<a href="javascript:alert(1)">link</a> and <a href="https://example.org/" onclick="alert(2)">another</a>',
  '<svg onload=alert(1)><p>x</p></svg><iframe src="https://example.org/"></iframe>',
);

/** Mostly valid, now and then hostile. */
const mostlyValid = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });

/** Members added to a body besides the declared ones: unknown names, prototype keys, names of server-set columns. */
const extraMembers = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'uid', 'admin', 'role'),
      fc.string({ maxLength: 12 }),
    ),
    hostileValue,
  ),
  { minLength: 1, maxLength: 3 },
);

const withExtraMembers = (body: fc.Arbitrary<unknown>) =>
  fc
    .tuple(body, extraMembers)
    .map(([value, extra]) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries([...Object.entries(value), ...extra])
        : value,
    );

/** The regular expressions a member's text must match (`z.string().regex(...)`), such as an MD5 checksum's. */
function patternsOf(node: z.ZodType): RegExp[] {
  const options = node instanceof z.ZodUnion ? (node.options as z.ZodType[]) : [node];
  return options.flatMap((option) => {
    const { pattern } = z.toJSONSchema(option, { unrepresentable: 'any', io: 'input' }) as { pattern?: string };
    return pattern ? [new RegExp(pattern)] : [];
  });
}

/**
 * Bodies for a wire schema (`route.body.schema`): its objects and members are walked, and each member gets the
 * candidates (vocabulary words, ids of existing objects, text) that its own zod schema accepts.
 */
export function wireBodyArbitrary(schema: z.ZodType, graphqlSchema: GraphQLSchema): fc.Arbitrary<unknown> {
  const vocabulary = vocabularyOf(graphqlSchema);
  const accepts = (member: z.ZodType, value: unknown) => member.safeParse(value).success;

  function member(name: string, node: z.ZodType, parent: string): fc.Arbitrary<unknown> {
    if (node instanceof z.ZodOptional) return member(name, node.unwrap() as z.ZodType, parent);
    // A member read and then transformed (extras' wire names to GraphQL's): generated as it is read.
    if (node instanceof z.ZodPipe && (node.in instanceof z.ZodObject || node.in instanceof z.ZodArray))
      return member(name, node.in as z.ZodType, parent);
    // A list that reads an empty element as empty (`list` in wire-body) is generated as the list it is.
    if (node instanceof z.ZodPipe && node.out instanceof z.ZodArray) return member(name, node.out as z.ZodType, parent);
    if (node instanceof z.ZodObject) return mostlyValid(object(node, name));
    // A list is empty now and then: an empty list is what clears one, and the only list some realms take.
    if (node instanceof z.ZodArray) {
      const items = fc.array(member(name, node.element as z.ZodType, parent), { minLength: 1, maxLength: 3 });
      if (z.globalRegistry.get(node)?.nonEmpty) return mostlyValid(items);
      return mostlyValid(fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: items }));
    }
    const words = vocabulary.filter((word) => accepts(node, word));
    // A member with a format of its own (a datetime) documents examples: sent mostly, so requests get past validation.
    const examples = (z.globalRegistry.get(node)?.examples ?? []) as unknown[];
    if (examples.length)
      return mostlyValid(
        fc.oneof({ weight: 7, arbitrary: fc.constantFrom(...examples) }, { weight: 1, arbitrary: plainText }),
      );
    const takesIds = accepts(node, '12') || accepts(node, 12);
    const valid = [
      ...(/size$/.test(name) ? [{ weight: 1, arbitrary: largeSizes }] : []),
      ...(namesUrl(name) && accepts(node, 'https://example.test/hook') ? [{ weight: 3, arbitrary: urls }] : []),
      ...(words.length ? [{ weight: 1, arbitrary: fc.constantFrom(...words) }] : []),
      // Text of a pattern (an MD5 checksum); ids are better drawn from the stage's objects, mostly.
      ...(takesIds ? [] : patternsOf(node).map((pattern) => ({ weight: 1, arbitrary: fc.stringMatching(pattern) }))),
      ...(accepts(node, 'Any text')
        ? [
            { weight: 1, arbitrary: plainText },
            { weight: 1, arbitrary: unusualText },
            { weight: 1, arbitrary: markupText },
          ]
        : []),
      ...(takesIds ? [{ weight: 6, arbitrary: existingId(idKind(name, parent)) }] : []),
    ];
    return mostlyValid(valid.length ? fc.oneof(...valid) : hostileValue);
  }

  // An optional member is left out a third of the time, as clients send only what they change.
  const absent = Symbol('absent');
  function object(node: z.ZodObject, name = ''): fc.Arbitrary<Record<string, unknown>> {
    const shape = node.shape as Record<string, z.ZodType>;
    const given = (key: string, child: z.ZodType) =>
      child instanceof z.ZodOptional
        ? fc.oneof({ weight: 1, arbitrary: fc.constant(absent) }, { weight: 2, arbitrary: member(key, child, name) })
        : member(key, child, name);
    const members = Object.fromEntries(Object.entries(shape).map(([key, child]) => [key, given(key, child)]));
    return fc
      .record(members)
      .map((value) => Object.fromEntries(Object.entries(value).filter(([, member]) => member !== absent)));
  }

  if (!(schema instanceof z.ZodObject)) throw new Error('a wire body is an object');
  /** The member with its nested members given: an alternative is sent with what it holds. */
  const given = (node: z.ZodType): z.ZodType => {
    const inner = node instanceof z.ZodOptional ? (node.unwrap() as z.ZodType) : node;
    if (inner instanceof z.ZodObject) {
      return z.object(
        Object.fromEntries(
          Object.entries(inner.shape as Record<string, z.ZodType>).map(([key, child]) => [key, given(child)]),
        ),
      );
    }
    // Its list holds items: an empty one is the alternative left out.
    if (inner instanceof z.ZodPipe && inner.out instanceof z.ZodArray)
      return z.array(inner.out.element as z.ZodType).meta({ nonEmpty: true });
    return inner;
  };
  // A body of alternatives (exactly one of some members) is sent mostly with one of them, so requests get past that.
  const alternatives = (z.globalRegistry.get(schema)?.oneOf ?? []) as string[];
  const whole = object(schema);
  const body = alternatives.length
    ? fc.oneof(
        ...alternatives.map((name) => ({
          weight: 4,
          arbitrary: object(z.object({ [name]: given((schema.shape as Record<string, z.ZodType>)[name]!) })),
        })),
        { weight: 1, arbitrary: whole },
      )
    : whole;
  return fc.oneof(
    { weight: 12, arbitrary: body },
    { weight: 2, arbitrary: withExtraMembers(body) },
    // A required member left out, or the body emptied.
    { weight: 1, arbitrary: body.map((value) => Object.fromEntries(Object.entries(value).slice(1))) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], null, 'title', 12) },
  );
}

/** How a JSON body is spoiled on the way out, if at all. */
export const jsonSpoiler = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.nat(400).map((at) => ({ kind: 'truncate' as const, at })) },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 50_000, 200_000).map((depth) => ({ kind: 'deep' as const, depth })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'duplicate' as const }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\uFEFF', '\u0000', ' \n').map((prefix) => ({ kind: 'prefix' as const, prefix })),
  },
);
export type JsonSpoiler = typeof jsonSpoiler extends fc.Arbitrary<infer S> ? S : never;

export function encodeJson(body: unknown, spoiler: JsonSpoiler): string {
  const text = JSON.stringify(body) ?? 'undefined';
  switch (spoiler.kind) {
    case 'none':
      return text;
    case 'truncate':
      return text.slice(0, spoiler.at % (text.length + 1));
    case 'deep':
      return `{"title":${'['.repeat(spoiler.depth)}${']'.repeat(spoiler.depth)}}`;
    case 'duplicate':
      return text.startsWith('{') && text.length > 2 ? `{"title":"first",${text.slice(1)}` : text;
    case 'prefix':
      return spoiler.prefix + text;
  }
}

/** How a body is written as XML: root, prologue, how text is encoded, and how the document is spoiled. */
export const xmlStyle = fc.record({
  root: fc.oneof(
    { weight: 6, arbitrary: fc.constant('result') },
    { weight: 1, arbitrary: fc.constantFrom('body', 'group', 'x', 'a:result', 'result xmlns="urn:x" id="1"') },
  ),
  prologue: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('<?xml version="1.0" encoding="utf-8" ?>', '') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '<?xml version="1.1"?>',
        '<?xml version="1.0" encoding="ISO-8859-1"?>',
        '<!-- a comment --><?pi data?>',
        '<!DOCTYPE result [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>',
        '<!DOCTYPE result SYSTEM "file:///etc/passwd">',
      ),
    },
  ),
  // `raw` writes text unescaped, so strings with `&...;` and `<` reach the parser as entities and markup.
  text: fc.oneof(
    { weight: 6, arbitrary: fc.constant('escape') },
    { weight: 1, arbitrary: fc.constantFrom('cdata', 'references', 'raw') },
  ),
  spoiler: fc.oneof(
    { weight: 20, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: fc.nat(400).map((at) => ({ kind: 'truncate' as const, at })) },
    { weight: 1, arbitrary: fc.constantFrom(100, 5_000, 60_000).map((depth) => ({ kind: 'deep' as const, depth })) },
    { weight: 1, arbitrary: fc.constantFrom('twoRoots', 'textRoot', 'emptyRoot').map((kind) => ({ kind })) },
  ),
});
export type XmlStyle = typeof xmlStyle extends fc.Arbitrary<infer S> ? S : never;

function xmlText(text: string, style: XmlStyle['text']): string {
  switch (style) {
    case 'escape':
      return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    case 'cdata':
      return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
    case 'references':
      // Code units, not code points: a lone surrogate becomes a reference to a surrogate.
      return Array.from({ length: text.length }, (_, index) => `&#x${text.charCodeAt(index).toString(16)};`).join('');
    case 'raw':
      return text;
  }
}

function xmlElement(name: string, value: unknown, style: XmlStyle['text']): string {
  if (Array.isArray(value)) return value.map((item) => xmlElement(name, item, style)).join('');
  if (value === null || value === undefined) return `<${name}/>`;
  if (typeof value === 'object') {
    const content = Object.entries(value)
      .map(([key, child]) => xmlElement(key, child, style))
      .join('');
    return `<${name}>${content}</${name}>`;
  }
  return `<${name}>${xmlText(String(value), style)}</${name}>`;
}

/** The body as XML: each member an element, a list repeated, an object nested, null empty. */
export function encodeXml(body: unknown, style: XmlStyle): string {
  const rootName = style.root.split(' ')[0]!;
  const content =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.entries(body)
          .map(([key, child]) => xmlElement(key, child, style.text))
          .join('')
      : xmlText(String(body), style.text);
  const document = (inner: string) => `${style.prologue}<${style.root}>${inner}</${rootName}>`;
  const { spoiler } = style;
  switch (spoiler.kind) {
    case 'none':
      return document(content);
    case 'truncate': {
      const whole = document(content);
      return whole.slice(0, spoiler.at % (whole.length + 1));
    }
    case 'deep':
      return document(`<title>${'<a>'.repeat(spoiler.depth)}x${'</a>'.repeat(spoiler.depth)}</title>`);
    case 'twoRoots':
      return `${document(content)}<${rootName}>${content}</${rootName}>`;
    case 'textRoot':
      return document(`text before${content}`);
    case 'emptyRoot':
      return `${style.prologue}<${rootName}/>`;
  }
}

/** Bytes on the wire: almost always the text as UTF-8, sometimes with invalid UTF-8 or as UTF-16. */
export const byteSpoiler = fc.oneof(
  { weight: 40, arbitrary: fc.constant('utf8') },
  { weight: 1, arbitrary: fc.constantFrom('invalid-utf8', 'utf16') },
);

export function encodeBytes(text: string, spoiler: string): Uint8Array<ArrayBuffer> {
  if (spoiler === 'invalid-utf8')
    return Buffer.concat([
      Buffer.from(text.slice(0, -1)),
      Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from(text.slice(-1)),
    ]);
  if (spoiler === 'utf16') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return Buffer.from(text);
}

/** GraphQL ID arguments name objects of any kind: ids of existing objects mostly, unknown and malformed ones too. */
const graphqlId = (kind: ObjectKind | 'any') =>
  fc.oneof(
    { weight: 6, arbitrary: existingId(kind, fc.constant(false)) },
    { weight: 1, arbitrary: existingId('any') },
    { weight: 1, arbitrary: unknownIdText },
    { weight: 1, arbitrary: malformedIdText },
  );

const graphqlScalars: Record<string, fc.Arbitrary<unknown>> = {
  String: fc.oneof(
    { weight: 4, arbitrary: plainText },
    { weight: 3, arbitrary: unusualText },
    { weight: 2, arbitrary: hostileString },
  ),
  Int: fc.oneof(fc.integer({ min: -2, max: 400 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31), 0)),
  Float: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0.5)),
  Boolean: fc.boolean(),
  DateTime: fc.oneof(
    // Mostly days around one school year, so that spans (a calendar's from and to) are ones clients ask for.
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: -200, max: 200 })
        .map((days) => new Date(Date.UTC(2026, 8, 1) + days * 86_400_000).toISOString()),
    },
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.constantFrom('2024-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00.001Z', 'yesterday'),
  ),
};

/**
 * Values for a GraphQL input type: valid shapes with hostile scalars mostly, and invalid shapes (wrong types, null
 * where it is not allowed, a required member missing, unknown members).
 */
export function graphqlInputArbitrary(type: GraphQLInputType, name: string, parent = ''): fc.Arbitrary<unknown> {
  if (name === 'after' || name === 'before') return connectionCursor;
  return fc.oneof({ weight: 15, arbitrary: validShape(type, name, parent) }, { weight: 1, arbitrary: hostileValue });
}

/**
 * A connection's `after`/`before`: mostly none or one shaped as the connections hand them out (Pothos' `GPC:` cursor
 * on an id), so that fuzzed pages get past cursor reading as often as real clients' do; sometimes anything at all.
 */
const connectionCursor = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: 1_000_000 }).map((id) => Buffer.from(`GPC:N:${id}`).toString('base64')),
  },
  { weight: 1, arbitrary: hostileValue },
);

function validShape(type: GraphQLInputType, name: string, parent: string): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return nonNull(type.ofType, name, parent);
  return fc.oneof({ weight: 6, arbitrary: nonNull(type, name, parent) }, { weight: 1, arbitrary: fc.constant(null) });
}

/** An `id` names an object of the kind its parent names (`realm: {type, id}`); `schoolId` one of its own name. */
const idKind = (name: string, parent: string) => (name === 'id' ? kindNamed(parent) : kindNamed(name));

function nonNull(type: GraphQLInputType, name: string, parent: string): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLList) return fc.array(graphqlInputArbitrary(type.ofType, name, parent), { maxLength: 3 });
  if (type instanceof GraphQLEnumType) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...type.getValues().map((value) => value.name)) },
      { weight: 1, arbitrary: hostileString },
    );
  }
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields());
    const record = fc.record(
      Object.fromEntries(fields.map((field) => [field.name, graphqlInputArbitrary(field.type, field.name, name)])),
      { requiredKeys: fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name) },
    );
    return fc.oneof(
      { weight: 12, arbitrary: record },
      { weight: 1, arbitrary: withExtraMembers(record) },
      { weight: 1, arbitrary: record.map((value) => Object.fromEntries(Object.entries(value).slice(1))) },
    );
  }
  if (type instanceof GraphQLNonNull) return nonNull(type.ofType, name, parent);
  if (type.name === 'ID') return graphqlId(idKind(name, parent));
  if (type.name === 'String' && namesUrl(name))
    return fc.oneof({ weight: 2, arbitrary: urls }, { weight: 1, arbitrary: graphqlScalars.String! });
  return graphqlScalars[type.name] ?? hostileValue;
}
