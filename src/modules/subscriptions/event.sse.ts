import type { Plugin } from 'graphql-yoga';

/** The cursor of the event a subscription's resolver just handed out, by the operation's context. */
const deliveredCursor = new WeakMap<object, string>();

export function markDelivered(context: object, cursor: string): void {
  deliveredCursor.set(context, cursor);
}

/**
 * Gives each `realmEvents` event sent over server-sent events an `id:` line with its cursor, so a client that
 * reconnects sends it back as `Last-Event-ID` (as EventSource does by itself) and resumes after it. Yoga's SSE writer
 * prints `data: <stringify(result)>` and a blank line; a result's own `stringify` adds the `id:` line after the data.
 * Other transports serialise results with JSON, which leaves the function out.
 */
export function useEventStreamIds(): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: ({ args }) => ({
        onNext: ({ result, setResult }) => {
          const cursor = deliveredCursor.get(args.contextValue as object);
          if (!cursor) return;
          deliveredCursor.delete(args.contextValue as object);
          setResult({
            ...result,
            stringify: (sanitised: unknown) => `${JSON.stringify(sanitised)}\nid: ${cursor}`,
          } as typeof result);
        },
      }),
    }),
  };
}
