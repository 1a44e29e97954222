import { describe, expect, it } from 'vitest';
import { databaseUnavailability } from '../../src/db/unavailable';

// Errors that reach the log only as text: envelop wraps a failure to build the context (reading the credential) in a
// plain Error whose message is Prisma's rendering, code and all gone.
const wrapped = (prismaMessage: string) => new Error(`PrismaClientKnownRequestError: \nInvalid call\n${prismaMessage}`);

describe('databaseUnavailability', () => {
  it('names a closed connection that Prisma rendered as text (P1017)', () => {
    expect(databaseUnavailability(wrapped('Server has closed the connection.'))).toBe(
      'Server has closed the connection',
    );
    expect(databaseUnavailability({ code: 'P1017', message: 'Server has closed the connection.' })).toBe('P1017');
  });

  it('leaves errors of the request itself alone', () => {
    expect(databaseUnavailability(wrapped('Unique constraint failed on the fields: (`username`)'))).toBeNull();
    expect(databaseUnavailability(new Error('the server closed the door'))).toBeNull();
  });
});
