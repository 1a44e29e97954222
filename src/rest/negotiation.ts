export type WireFormat = 'json' | 'xml';

export const contentTypes: Record<WireFormat, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'text/xml; charset=utf-8',
};

const formatsByMediaType: ReadonlyMap<string, WireFormat> = new Map([
  ['application/json', 'json'],
  ['text/xml', 'xml'],
  ['application/xml', 'xml'],
]);

function splitMediaType(value: string): { mediaType: string; parameters: string[] } {
  const [mediaType = '', ...parameters] = value.split(';').map((part) => part.trim());
  return { mediaType: mediaType.toLowerCase(), parameters };
}

function quality(parameters: string[]): number {
  const qParameter = parameters.find((parameter) => /^q\s*=/i.test(parameter));
  if (qParameter === undefined) return 1;
  const q = Number(qParameter.slice(qParameter.indexOf('=') + 1).trim());
  // A malformed q is read leniently as the default rather than rejecting the request.
  return Number.isFinite(q) ? q : 1;
}

/**
 * Only the Accept header decides; wildcards are not recognised, so a header naming neither format falls back to JSON.
 */
export function responseFormat(accept: string | null): WireFormat {
  let best: { format: WireFormat; q: number } | undefined;
  for (const entry of (accept ?? '').split(',')) {
    const { mediaType, parameters } = splitMediaType(entry);
    const format = formatsByMediaType.get(mediaType);
    const q = quality(parameters);
    // Strictly greater, so that on a tie the first listed wins.
    if (format !== undefined && q > 0 && (best === undefined || q > best.q)) best = { format, q };
  }
  return best?.format ?? 'json';
}

/** 'form' is recognised separately because the platform answers it with 415 rather than treating it as unknown. */
export function requestFormat(contentType: string | null): WireFormat | 'form' | 'unsupported' | 'none' {
  const { mediaType } = splitMediaType(contentType ?? '');
  if (mediaType === '') return 'none';
  if (mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data') return 'form';
  return formatsByMediaType.get(mediaType) ?? 'unsupported';
}
