import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder';
import './error-types';
import './nodes';
import '../modules/schools';
import '../modules/users';
import '../modules/groups';
import '../modules/posts';
import '../modules/roster';
import '../modules/access';
import '../modules/apps';
import '../modules/subscriptions';
import '../modules/districts';
import '../modules/invites';
import '../modules/friends';
import '../modules/calendar-events';
import '../modules/calendar-feeds';
import '../modules/grading-groups';
import '../modules/gradebook';
import '../modules/grades';
import '../modules/pages';
import '../modules/uploads';
import '../modules/albums';
import '../modules/triggers';
import '../modules/web-packages';
import '../modules/grading-categories';
import '../modules/attendance';
import '../modules/sign-in-links';
import { addEventTypes } from '../modules/subscriptions/event.type';

// Every module has declared its events by now: the enum of event types is made from the whole catalogue.
addEventTypes();

export const schema = builder.toSchema();

/** The schema as committed in schema.graphql: sorted, so the file changes only when the schema does. */
export const sortedSchema = () => lexicographicSortSchema(schema);
