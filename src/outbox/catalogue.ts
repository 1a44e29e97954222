import type { DocumentNode } from 'graphql';
import { z } from 'zod';
import type { RealmType } from '../generated/prisma/enums';

/** One kind of domain event: what changed (`<resource>.<action>`), the object it names, and where it is recorded. */
export interface EventKind<Type extends string = string, Data extends z.ZodType = z.ZodType> {
  type: Type;
  /** GraphQL type of the object `objectId` names; the triggers build webhook payloads from it. */
  object: string;
  /** The realm types an event of this kind is recorded in. */
  realms: readonly RealmType[];
  /** Shape of the event's `data` member. */
  data: Data;
  description: string;
  /**
   * Who hears it live (the `realmEvents` subscription): the realm's readers, or only those who administer the realm,
   * for events about what is addressed to one person (an invite, a friend request) that the realm's other readers
   * have no business seeing.
   */
  audience: 'readers' | 'administrators';
  /**
   * For events that report several items at once (one bulk grade write is one event): the items, read from the
   * event's data. Each becomes one entry of the webhook event object's `data`; other events have one entry, their object.
   */
  entries?: (data: z.output<Data>, event: { realmId: number; objectId: number }) => EventEntry[];
}

/**
 * One item an event reports on webhooks: its ids (`enrollment_id`, ...), the /v1 path that views it, when that view
 * shows more than the item (a filtered list) what in its answer is the item, and members of the entry drawn from that
 * answer (a grade's `updated_overall_grade`). An item without a /v1 view of its own (an attendance record) is `read`
 * through GraphQL instead. Each is rendered as the target's owner sees it.
 */
export interface EventEntry {
  ids: Record<string, number | string | undefined>;
  view?: string;
  // biome-ignore lint/suspicious/noExplicitAny: the answer of the view's route, in its wire shape
  pick?: (answer: any) => object | null;
  // biome-ignore lint/suspicious/noExplicitAny: as `pick`
  members?: (answer: any) => Record<string, unknown>;
  read?: EntryRead;
}

/** A GraphQL read of an item, and the object (in its /v1 wire shape) made of the data it answers; null when there is none. */
export interface EntryRead {
  document: DocumentNode;
  variables: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: the document's data
  object: (data: any) => object | null;
}

const noData = z.object({}).strict();
const catalogue = new Map<string, EventKind>();

/** Declares an event kind; each module declares the events its services record. */
export function defineEvent<const Type extends `${string}.${string}`, Data extends z.ZodType = typeof noData>(
  type: Type,
  options: {
    object: string;
    realms: readonly RealmType[];
    description: string;
    data?: Data;
    audience?: EventKind['audience'];
    entries?: EventKind<Type, Data>['entries'];
  },
): EventKind<Type, Data> {
  if (catalogue.has(type)) throw new Error(`Event ${type} is declared twice`);
  const { object, realms, description, entries } = options;
  const kind = {
    type,
    object,
    realms,
    description,
    data: (options.data ?? noData) as Data,
    audience: options.audience ?? 'readers',
    entries,
  };
  // Stored with its data type erased: `entries` reads data that the kind's own schema has parsed.
  catalogue.set(type, kind as EventKind);
  return kind;
}

/** The declared kind of an event type. */
export const eventKind = (type: string): EventKind | undefined => catalogue.get(type);

/** Every declared event kind, in declaration order. */
export const eventCatalogue = (): readonly EventKind[] => [...catalogue.values()];

/** An event that its kind does not describe is a programming error: it must not reach the stream. */
export function assertCatalogued(kind: EventKind, realmType: RealmType, data: unknown): void {
  if (catalogue.get(kind.type) !== kind) throw new Error(`Event ${kind.type} is not in the catalogue`);
  if (!kind.realms.includes(realmType)) throw new Error(`Event ${kind.type} is not recorded in ${realmType} realms`);
  const parsed = kind.data.safeParse(data);
  if (!parsed.success) throw new Error(`Event ${kind.type} data does not match the catalogue: ${parsed.error.message}`);
}
