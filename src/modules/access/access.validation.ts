import { z } from 'zod';
import { createInput, nodeId, text } from '../../core/validation';

export const apiClientSchema = createInput(
  {
    userId: nodeId('User').describe(
      'The user they act as; the viewer when left out (administrators may name their users).',
    ),
    name: text(255).describe('What the credentials are for.'),
  },
  [],
);

export const accessTokenSchema = createInput(
  {
    name: text(255).describe('What the token is for.'),
    expiresInDays: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(3650, 'must be at most 3650')
      .describe('Lifetime in days; no expiry when left out.'),
  },
  [],
);
