/**
 * Global ids: what the GraphQL `id` of a Node is, unique across types, in Pothos relay's encoding (base64 of
 * `Type:databaseId`). `/v1` never sees them: its documents select `databaseId`. Arguments that name an object accept
 * either form, so a front end passes back what it read, and /v1 and older clients keep passing database ids.
 *
 * The two forms cannot be confused: a database id is digits only, and a global id starts with the base64 of a capital
 * letter (`Q` to `W`), never a digit.
 */
import type { Prisma } from '../generated/prisma/client';

/**
 * The GraphQL type name of a global id: a Prisma model name (Building rows are Schools). A union, so that an id
 * argument read with its field name where the type belongs fails to compile.
 */
export type GlobalIdType = Prisma.ModelName;

export function encodeGlobalId(type: string, databaseId: number | string): string {
  return Buffer.from(`${type}:${databaseId}`, 'utf8').toString('base64');
}

const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
const decoded = /^([A-Z][A-Za-z]*):(\d{1,15})$/;

/** The type and database id a global id names; null when the text is not one. */
export function decodeGlobalId(value: string): { type: string; id: number } | null {
  if (!base64.test(value) || value.length % 4 !== 0) return null;
  const match = decoded.exec(Buffer.from(value, 'base64').toString('utf8'));
  return match ? { type: match[1]!, id: Number(match[2]) } : null;
}

/** The outcome of reading an id argument that should name an object of `type`. */
export type IdReading = { id: number } | { error: string };

/**
 * Reads a database id (digits) or a global id of `type`. A global id of another type is an error naming both types,
 * so a client that passes a Group's id where a User's is expected learns which it sent.
 */
export function readId(value: string, type: GlobalIdType): IdReading {
  if (/^\d+$/.test(value)) return { id: Number(value) };
  const global = decodeGlobalId(value);
  if (!global) return { error: 'must be a numeric id or a global id' };
  if (global.type !== type) return { error: `is the id of a ${global.type}, not of a ${type}` };
  return { id: global.id };
}
