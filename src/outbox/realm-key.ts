import type { RealmType } from '../generated/prisma/enums';

/** How events name the realms that contain them (`domain_events.ancestors`) and the bus its topics: `SCHOOL:3`. */
export const realmKey = (realm: { type: RealmType; id: number }) => `${realm.type}:${realm.id}`;
