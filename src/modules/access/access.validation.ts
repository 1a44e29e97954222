import { z } from 'zod';
import { createInput, nodeId, text } from '../../core/validation';

export const apiClientSchema = createInput({ userId: nodeId('User'), name: text(255) }, []);

export const accessTokenSchema = createInput(
  { name: text(255), expiresInDays: z.number().int().min(1, 'must be at least 1').max(3650, 'must be at most 3650') },
  [],
);
