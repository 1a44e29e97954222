/**
 * Declarative mapping between a request body in the platform's wire shape (snake_case, `{0,1}` flags, ids as strings
 * or integers, nested `options/...` members) and the GraphQL input it becomes. The same table translates GraphQL
 * validation paths back to wire names, so a REST client's error names the field it sent.
 */

export class WireInputError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
  }
}

export interface FieldCodec {
  /** Name of the GraphQL input member. */
  input: string;
  decode(value: unknown, field: string): unknown;
}

const scalarText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;

export const text = (input: string): FieldCodec => ({
  input,
  decode(value, field) {
    if (value === null) return '';
    const result = scalarText(value);
    if (result === null) throw new WireInputError(field, 'must be a string');
    return result;
  },
});

/** A `{0,1}` flag; the platform accepts 0/1 as numbers or strings, and clients also send true/false. */
export const flag = (input: string): FieldCodec => ({
  input,
  decode(value, field) {
    if (value === 1 || value === '1' || value === true || value === 'true') return true;
    if (value === 0 || value === '0' || value === false || value === 'false') return false;
    throw new WireInputError(field, 'must be 0 or 1');
  },
});

/** An id member, sent as an integer or a numeric string; empty clears it. */
export const id = (input: string): FieldCodec => ({
  input,
  decode(value, field) {
    if (value === null || value === '' || value === 0 || value === '0') return null;
    const result = scalarText(value);
    if (result === null || !/^\d+$/.test(result.trim())) throw new WireInputError(field, 'must be a numeric id');
    return result.trim();
  },
});

/** A wire value from a closed set, mapped to the GraphQL enum value. */
export const oneOf = (input: string, values: Record<string, string>): FieldCodec => ({
  input,
  decode(value, field) {
    const key = scalarText(value)?.trim();
    if (key === undefined || !(key in values)) {
      throw new WireInputError(field, `must be one of ${Object.keys(values).join(', ')}`);
    }
    return values[key];
  },
});

/** Wire field path (`options/invite_type`) -> codec. */
export type WireBody = Record<string, FieldCodec>;

function lookup(body: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let node: unknown = body;
  for (const part of path.split('/')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(part in node)) return { found: false };
    node = (node as Record<string, unknown>)[part];
  }
  return { found: true, value: node };
}

/** Decodes the members present in the body; members the table does not name are ignored, as on the platform. */
export function decodeWireBody(
  spec: WireBody,
  body: Record<string, unknown>,
  required: readonly string[] = [],
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [field, codec] of Object.entries(spec)) {
    const { found, value } = lookup(body, field);
    if (found) input[codec.input] = codec.decode(value, field);
    else if (required.includes(field)) throw new WireInputError(field, 'is required');
  }
  return input;
}

/** GraphQL input path (`inviteType`, `input.inviteType`) -> the wire field a client sent. */
export function wireFieldName(spec: WireBody | undefined, inputPath: string): string {
  const member = inputPath.replace(/^input\./, '');
  const match = spec && Object.entries(spec).find(([, codec]) => codec.input === member);
  return match ? match[0] : member.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
