import { type MaybePromise, thenMaybe } from './maybe-promise';
import { NotFoundError, forbidden } from '../core/errors';
import { type Access, type RealmFacts, type RealmRef, accessRank, accessTo, realmName, realmNoun } from './realms';
import type { Viewer } from './viewer';

/** A rule's answer: allowed; refused with a reason the viewer may read (403); or not known to exist (404). */
export type Verdict = 'allow' | 'hide' | { forbid: string };

export const forbid = (reason: string): Verdict => ({ forbid: reason });

type Rule<Subject> = (viewer: Viewer, subject: Subject) => Verdict | Promise<Verdict>;
// biome-ignore lint/suspicious/noExplicitAny: each rule names its own subject type
type AnyRule = Rule<any>;

/** Who may do what with one kind of object: one rule per typed action, each with the subject it judges. */
export interface Policy<Rules extends Record<string, AnyRule>> {
  /** Object name in not-found errors, such as "Group". */
  readonly name: string;
  readonly rules: Rules;
}

export function definePolicy<Rules extends Record<string, AnyRule>>(name: string, rules: Rules): Policy<Rules> {
  return { name, rules };
}

type SubjectOf<R extends AnyRule> = Parameters<R>[1];

/** The policy's verdict, for callers that answer each outcome their own way. */
export function verdictOf<Rules extends Record<string, AnyRule>, Action extends keyof Rules & string>(
  viewer: Viewer,
  policy: Policy<Rules>,
  action: Action,
  subject: SubjectOf<Rules[Action]>,
): MaybePromise<Verdict> {
  return policy.rules[action](viewer, subject);
}

/**
 * Whether the viewer may; for field visibility and filtering, where a refusal is not an error. Without a promise when
 * the rule answers from what the request already knows: a field asked of every row of a page costs no promise per row.
 */
export function can<Rules extends Record<string, AnyRule>, Action extends keyof Rules & string>(
  viewer: Viewer,
  policy: Policy<Rules>,
  action: Action,
  subject: SubjectOf<Rules[Action]>,
): MaybePromise<boolean> {
  return thenMaybe(verdictOf(viewer, policy, action, subject), (verdict) => verdict === 'allow');
}

/**
 * Guards an operation: a hidden subject is a NotFoundError (404) for `id` of `objectType` (the policy's object unless
 * the subject is, say, the school a group is created in), a refused one a 403 with the rule's reason.
 */
export async function authorize<Rules extends Record<string, AnyRule>, Action extends keyof Rules & string>(
  viewer: Viewer,
  policy: Policy<Rules>,
  action: Action,
  subject: SubjectOf<Rules[Action]>,
  id: string | number,
  objectType = policy.name,
): Promise<void> {
  const verdict = await verdictOf(viewer, policy, action, subject);
  if (verdict === 'hide') throw new NotFoundError(objectType, id);
  if (verdict !== 'allow') throw forbidden(verdict.forbid);
}

/**
 * The verdict for needing `needed` access to a realm: a realm that does not exist or is hidden is not found, one the
 * viewer sees but may not use so is refused.
 */
export function realmVerdict(viewer: Viewer, realm: RealmRef, needed: Access): MaybePromise<Verdict> {
  return thenMaybe(accessTo(viewer, realm), (result) => {
    if (!result || result.access === 'hidden') return 'hide';
    if (accessRank[result.access] >= accessRank[needed]) return 'allow';
    return forbid(`You may not ${needed === 'administer' ? 'change' : 'read'} this ${realmNoun(realm.type)}`);
  });
}

/**
 * The realm's facts once the viewer is known to have `needed` access; throws as `authorize` does, naming the realm
 * (`Group 5 was not found`).
 */
export async function realmFactsFor(viewer: Viewer, realm: RealmRef, needed: Access): Promise<RealmFacts> {
  const verdict = await realmVerdict(viewer, realm, needed);
  if (verdict === 'hide') throw new NotFoundError(realmName(realm.type), realm.id);
  if (verdict !== 'allow') throw forbidden(verdict.forbid);
  return (await accessTo(viewer, realm))!.facts;
}

/**
 * A read verdict for what answers null when hidden: true when allowed, false when hidden (the caller answers "not
 * found"), a 403 when refused.
 */
export function allowsReading(verdict: Verdict): boolean {
  if (typeof verdict === 'object') throw forbidden(verdict.forbid);
  return verdict === 'allow';
}

/**
 * For what a realm owns (posts, events, pages): whether the viewer reads it under the policy's `read` rule of the
 * realm. False when the realm is hidden (the caller answers "not found"), a 403 when its contents are closed.
 */
export function realmContentReader(policy: Policy<{ read: Rule<RealmRef> }>) {
  return async (viewer: Viewer, realm: RealmRef): Promise<boolean> =>
    allowsReading(await verdictOf(viewer, policy, 'read', realm));
}
