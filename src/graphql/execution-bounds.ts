import { createContextCache } from '@pothos/core';
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { httpError, retryAfter } from '../core/errors';
import { limitError } from './limits';

/** What is left of one execution's budget of long text, and how the execution is stopped when it runs out. */
interface AnswerBudget {
  bytesLeft: number;
  exceeded: (() => never) | null;
}

/**
 * The budget of each execution, in a Pothos context cache that useContextCacheRelease lets go when the execution ends
 * (docs/adding-a-resource.md: young garbage). An execution the plugin does not bound (a webhook's view of an object)
 * has an endless one.
 */
const answerBudgets = createContextCache((): AnswerBudget => ({ bytesLeft: Number.POSITIVE_INFINITY, exceeded: null }));

/**
 * A long text field (a post's body, an event object): `maxLength`, the most characters it may hold, is what the cost
 * model weighs it by (src/graphql/limits.ts), and each value resolved counts its bytes against the answer's budget
 * (RESPONSE_LIMIT), so that an answer too large stops while it is made rather than after it was built.
 */
export function longText<Parent, Text extends string | null>(maxLength: number, read: (parent: Parent) => Text) {
  return {
    extensions: { longText: maxLength },
    resolve: (parent: Parent, _args: unknown, context: object): Text => {
      const text = read(parent);
      if (!text) return text;
      const budget = answerBudgets(context);
      if ((budget.bytesLeft -= Buffer.byteLength(text)) < 0) budget.exceeded?.();
      return text;
    },
  };
}

/**
 * Carried in the initial context of executions that make one answer together (the paths of a multiget): the long text
 * the earlier ones resolved is spent from the budget of those after them, so RESPONSE_LIMIT bounds the whole answer.
 */
export interface SharedAnswerBudget {
  bytesLeft?: number;
}

export interface ExecutionBounds {
  /** Deadline of one execution, in milliseconds (QUERY_TIMEOUT). */
  timeoutMs: number;
  /** Bytes of long text one answer may hold (RESPONSE_LIMIT). */
  answerBytes: number;
}

/**
 * Two bounds on one execution, each of which stops it: graphql-js stops starting new resolvers once the execution's
 * abort signal fires, and the answer is the error alone (`data` null).
 *
 * - A deadline: past it the request answers 503 with Retry-After (the server is too busy to finish it in time; a
 *   document that is costly by construction was refused with 400 already). A statement already running in PostgreSQL
 *   is cut by the pool's `statement_timeout`, set to the same deadline.
 * - A budget of long text: once the long text fields resolved (`longText`) pass it, the request answers 400
 *   `RESPONSE_TOO_LARGE`, before the rest of the answer is made.
 *
 * A client that disconnects aborts the execution too.
 */
export function useExecutionBounds({ timeoutMs, answerBytes }: ExecutionBounds): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const { request, rawBody, sharedAnswerBudget } = (args.contextValue ?? {}) as {
        request?: Request;
        rawBody?: unknown;
        sharedAnswerBudget?: SharedAnswerBudget;
      };
      // An upload's duration is the client's transfer, bounded by UPLOAD_LIMIT, not work a deadline should cut short.
      if (rawBody) return;
      setExecuteFn(async (execution) => {
        const controller = new AbortController();
        const { signal } = controller;
        const clientGone = () => controller.abort(request?.signal.reason);
        request?.signal.addEventListener('abort', clientGone, { once: true });
        let stopped: ExecutionResult | null = null;
        let answerStop!: (result: ExecutionResult) => void;
        const stopping = new Promise<ExecutionResult>((resolve) => (answerStop = resolve));
        const stop = (error: GraphQLError, reason: unknown) => {
          if (stopped) return;
          stopped = { data: null, errors: [error] };
          answerStop(stopped);
          controller.abort(reason);
        };
        const timer = setTimeout(() => {
          const error = httpError(
            503,
            'QUERY_TIMEOUT',
            `The request took longer than ${timeoutMs} ms and was stopped; try again later`,
            retryAfter(timeoutMs),
          );
          stop(error, new Error('execution deadline passed'));
        }, timeoutMs);
        const budget = answerBudgets(execution.contextValue as object);
        budget.bytesLeft = sharedAnswerBudget?.bytesLeft ?? answerBytes;
        budget.exceeded = () => {
          const error = limitError(
            'RESPONSE_TOO_LARGE',
            `The answer passed the server's limit (RESPONSE_LIMIT) of ${answerBytes} bytes of long text (bodies, descriptions, event objects) and was ` +
              'stopped: ask for fewer items (a smaller limit) or leave out the long fields',
          );
          stop(error, error);
          throw error;
        };
        try {
          // The execution's own properties spread after the literal's, then its signal replaced
          // (docs/adding-a-resource.md: young garbage).
          const bounded = { signal, ...execution };
          bounded.signal = signal;
          const result = await Promise.race([executeFn(bounded), stopping]);
          // A stop wins over an execution that completed in the same turn, with the stopping field's error in it.
          return stopped ?? result;
        } finally {
          if (sharedAnswerBudget) sharedAnswerBudget.bytesLeft = Math.max(0, budget.bytesLeft);
          clearTimeout(timer);
          request?.signal.removeEventListener('abort', clientGone);
        }
      });
    },
  };
}
